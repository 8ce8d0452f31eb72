/**
 * The folder's `resources/list` entries and path completion. Only what a read would serve is
 * listed: regular files the process may read, no larger than the read cap, reached through names
 * a URI can carry, inside the folder after symlinks are resolved, and not hidden unless asked.
 * @module
 */
import { constants, type Dirent } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Resource } from '@mcpkit/core';
import { mimeTypeOf } from '../files.js';
import { resolveInside } from './open.js';
import { folderFileUri, isInside, isSafeSegment } from './paths.js';

/** One listed file: its `resources/list` entry, and its real path for the roots check. */
export interface ListedFile {
  /** `uri`, `name` (the path below the folder, `/`-separated), `mimeType` when known, `size`. */
  readonly resource: Resource;
  readonly realPath: string;
}

/** What the walk needs to know of the folder. */
export interface WalkLimits {
  readonly rootReal: string;
  readonly hidden: boolean;
  readonly maxReadBytes: number;
  /** Most files listed; the walk stops there. */
  readonly maxListed: number;
  /** Deepest directory level descended into. */
  readonly maxDepth: number;
}

/**
 * Every servable file of the folder, breadth first, names sorted within a directory. Symlinks are
 * followed when they resolve inside, so a file may be listed under its own name and under a link;
 * a link back to a directory on its own path (a cycle) is not descended into.
 *
 * @example
 * ```ts
 * const files = await walkFolder({ rootReal: '/srv/docs', hidden: false, maxReadBytes: 8 << 20, maxListed: 10_000, maxDepth: 32 });
 * ```
 */
export async function walkFolder(limits: WalkLimits): Promise<ListedFile[]> {
  const files: ListedFile[] = [];
  type Dir = { readonly real: string; readonly rel: readonly string[]; readonly chain: ReadonlySet<string> };
  let level: Dir[] = [{ real: limits.rootReal, rel: [], chain: new Set([limits.rootReal]) }];
  for (let depth = 0; level.length > 0 && depth <= limits.maxDepth; depth++) {
    const next: Dir[] = [];
    for (const dir of level) {
      for (const entry of await entriesOf(dir.real, limits.hidden)) {
        if (files.length >= limits.maxListed) return files;
        const rel = [...dir.rel, entry.name];
        const found = await classify(limits, join(dir.real, entry.name));
        if (found?.kind === 'file') files.push(listedFile(limits.rootReal, rel, found.real, found.size));
        else if (found?.kind === 'dir' && !dir.chain.has(found.real)) {
          next.push({ real: found.real, rel, chain: new Set(dir.chain).add(found.real) });
        }
      }
    }
    level = next;
  }
  return files;
}

async function entriesOf(dir: string, hidden: boolean): Promise<Dirent[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => isSafeSegment(entry.name, hidden))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return []; // unreadable directory: skipped
  }
}

type Found = { kind: 'file'; real: string; size: number } | { kind: 'dir'; real: string };

/** A servable file or a directory inside the folder, or `undefined` for anything else. */
async function classify(limits: WalkLimits, path: string): Promise<Found | undefined> {
  try {
    const real = await realpath(path);
    if (!isInside(limits.rootReal, real)) return undefined;
    const rel = relative(limits.rootReal, real);
    if (rel === '' || !rel.split(/[\\/]/).every((s) => isSafeSegment(s, limits.hidden))) return undefined;
    const info = await stat(real);
    if (info.isDirectory()) return { kind: 'dir', real };
    if (!info.isFile() || info.size > limits.maxReadBytes) return undefined;
    await access(real, constants.R_OK);
    return { kind: 'file', real, size: info.size };
  } catch {
    return undefined;
  }
}

function listedFile(rootReal: string, rel: readonly string[], real: string, size: number): ListedFile {
  const name = rel.join('/');
  const resource: Resource = { uri: folderFileUri(join(rootReal, ...rel)), name, size };
  const mimeType = mimeTypeOf(real);
  if (mimeType !== undefined) resource.mimeType = mimeType;
  return { resource, realPath: real };
}

/**
 * Completions of a partial path below the folder: the entries of the directory the value names
 * so far whose names start with its last segment, directories with a trailing `/`.
 *
 * @example
 * ```ts
 * await completePath({ rootReal: '/srv/docs', hidden: false }, 'guides/in'); // ['guides/install.md', 'guides/intro/']
 * ```
 */
export async function completePath(
  folder: { readonly rootReal: string; readonly hidden: boolean },
  value: string,
  allowed: (realPath: string, isDirectory: boolean) => Promise<boolean>,
): Promise<string[]> {
  const cut = value.lastIndexOf('/');
  const dirPart = cut === -1 ? '' : value.slice(0, cut);
  const prefix = value.slice(cut + 1);
  // A leading or doubled slash gives an empty segment, which isSafeSegment refuses.
  const dirSegments = cut === -1 ? [] : dirPart.split('/');
  if (!dirSegments.every((segment) => isSafeSegment(segment, folder.hidden))) return [];
  const dir = await resolveInside(folder.rootReal, dirSegments, folder.hidden);
  if (dir === undefined) return [];
  const values: string[] = [];
  for (const entry of await entriesOf(dir, folder.hidden)) {
    if (!entry.name.startsWith(prefix)) continue;
    const real = await resolveInside(folder.rootReal, [...dirSegments, entry.name], folder.hidden);
    if (real === undefined) continue;
    const isDir = await stat(real).then(
      (info) => info.isDirectory(),
      () => false,
    );
    if (!(await allowed(real, isDir))) continue;
    values.push(`${dirPart === '' ? '' : `${dirPart}/`}${entry.name}${isDir ? '/' : ''}`);
    if (values.length > 100) break; // the answer carries 100; one more tells there are more
  }
  return values;
}
