/**
 * `serveFolder`: one call exposes a directory as read-only resources of an `McpServer`: a
 * `file://` template whose `list()` pages through the folder and whose completer walks path
 * segments, reads that never leave the folder, and optionally roots and change notifications.
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ErrorCode, McpError, type Resource } from '@mcpkit/core';
import { rejectUnknownOptions } from '@mcpkit/core/internal';
import type {
  McpServer,
  RegisteredResourceTemplate,
  RequestContext,
  ResourceTemplateConfig,
} from '@mcpkit/server';
import { type FileContents, fileContents } from './content.js';
import { completePath, type ListedFile, walkFolder } from './listing.js';
import { openInside, readCapped } from './open.js';
import { folderFileUri, isServableRelative, segmentsOf } from './paths.js';
import { RootsGate, type RootsMode } from './roots.js';
import { CoalescingWatcher, type FolderChanges } from './watch.js';

/**
 * Options of {@link serveFolder}; unknown keys are refused.
 *
 * @example
 * ```ts
 * const options: FolderOptions = { maxReadBytes: 1024 * 1024, roots: 'limit', watch: true };
 * ```
 */
export interface FolderOptions {
  /** Largest file a read returns, in bytes; larger ones get an error and are not listed. Default 8 MiB. */
  maxReadBytes?: number;
  /** Serve names starting with `.` (`.env`, `.git`...). Default false. */
  hidden?: boolean;
  /** Most files `resources/list` shows. Default 10,000. */
  maxListed?: number;
  /** Deepest directory level listed. Default 32. */
  maxDepth?: number;
  /** How long one walk of the folder serves `resources/list` pages, in ms. Default 2,000. */
  listCacheMs?: number;
  /** Limit what each client sees to its roots: see {@link RootsMode}. Default `'ignore'`. */
  roots?: RootsMode;
  /** Watch the folder (chokidar): `resources/list_changed`, and `resources/updated` to subscribers. Default false. */
  watch?: boolean;
  /** The window in which watch events are gathered into one round of notifications, in ms. Default 100. */
  coalesceMs?: number;
  /** The template's name. Default `folder <basename>`. */
  name?: string;
  /** The template's title. */
  title?: string;
  /** The template's description. */
  description?: string;
  /** Watcher errors (the folder was removed...); ignored by default. */
  onError?: (error: Error) => void;
}

const KNOWN_OPTIONS: Readonly<Record<keyof FolderOptions, true>> = {
  maxReadBytes: true,
  hidden: true,
  maxListed: true,
  maxDepth: true,
  listCacheMs: true,
  roots: true,
  watch: true,
  coalesceMs: true,
  name: true,
  title: true,
  description: true,
  onError: true,
};

/**
 * A served folder.
 *
 * @example
 * ```ts
 * const docs = serveFolder(server, 'docs', { watch: true });
 * await docs.watching;
 * console.log(docs.uriTemplate); // 'file:///home/me/project/docs/{+path}'
 * await docs.close();
 * ```
 */
export interface ServedFolder {
  /** The folder's real path. */
  readonly root: string;
  /** The folder's `file://` URI (no trailing slash); its files are below `uri + '/'`. */
  readonly uri: string;
  /** The template registered: `uri + '/{+path}'`. */
  readonly uriTemplate: string;
  /** The registered template, to disable or enable it. */
  readonly template: RegisteredResourceTemplate;
  /** With `watch`, resolves once the folder is watched (its first scan done); else at once. */
  readonly watching: Promise<void>;
  /** Stops watching, forgets roots and removes the template. */
  close(): Promise<void>;
}

/**
 * The error every refused or missing file gets: the same whether the path is outside the folder,
 * hidden, not a file or absent, so that an answer never tells which.
 */
function notFound(uri: string): McpError {
  return new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

function tooLarge(uri: string, maxReadBytes: number): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Resource ${uri} is larger than ${maxReadBytes} bytes, the most this server reads at once`,
    { uri, maxReadBytes },
  );
}

function nonNegative(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`serveFolder: "${what}" must be a non-negative integer`);
  }
  return value;
}

function rootsMode(value: unknown): RootsMode {
  if (value === undefined) return 'ignore';
  if (value === 'ignore' || value === 'limit' || value === 'require') return value;
  throw new TypeError(
    `serveFolder: "roots" must be 'ignore', 'limit' or 'require', got ${JSON.stringify(value)}`,
  );
}

/** The folder's real path; a `TypeError` when it is not a readable directory. */
function folderRoot(dir: string): string {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    throw new TypeError(`serveFolder: ${JSON.stringify(dir)} does not exist`);
  }
  if (!statSync(root).isDirectory())
    throw new TypeError(`serveFolder: ${JSON.stringify(dir)} is not a directory`);
  return root;
}

/** What one served folder is, once its options are checked. */
interface Folder {
  readonly rootReal: string;
  readonly rootUri: string;
  readonly hidden: boolean;
  readonly maxReadBytes: number;
  readonly maxListed: number;
  readonly maxDepth: number;
  readonly listCacheMs: number;
  readonly gate: RootsGate;
}

function folderOf(dir: string, options: FolderOptions): Folder {
  rejectUnknownOptions(options, KNOWN_OPTIONS, 'serveFolder');
  const rootReal = folderRoot(dir);
  return {
    rootReal,
    rootUri: folderFileUri(rootReal),
    hidden: options.hidden === true,
    maxReadBytes: nonNegative(options.maxReadBytes, 8 * 1024 * 1024, 'maxReadBytes'),
    maxListed: nonNegative(options.maxListed, 10_000, 'maxListed'),
    maxDepth: nonNegative(options.maxDepth, 32, 'maxDepth'),
    listCacheMs: nonNegative(options.listCacheMs, 2_000, 'listCacheMs'),
    gate: new RootsGate(rootsMode(options.roots)),
  };
}

/** One walk of the folder serves the pages of `listCacheMs`; the watcher drops it sooner. */
class Listing {
  private last: { at: number; files: Promise<readonly ListedFile[]> } | undefined;

  constructor(private readonly folder: Folder) {}

  invalidate(): void {
    this.last = undefined;
  }

  async list(ctx: RequestContext): Promise<Resource[]> {
    const files = await this.files();
    const test = await this.folder.gate.testFor(ctx);
    return (test ? files.filter((file) => test(file.realPath)) : files).map((file) => file.resource);
  }

  private files(): Promise<readonly ListedFile[]> {
    const now = Date.now();
    if (this.last && now - this.last.at <= this.folder.listCacheMs) return this.last.files;
    const files = walkFolder(this.folder);
    const entry = { at: now, files };
    this.last = entry;
    files.catch(() => {
      if (this.last === entry) this.last = undefined;
    });
    return files;
  }
}

/** `resources/read` of one URI of the folder: the three gates, the roots, the cap. */
async function readFile(folder: Folder, uri: string, ctx: RequestContext): Promise<FileContents> {
  const segments = segmentsOf(folder.rootUri, uri, folder.hidden);
  const file = segments && (await openInside(folder.rootReal, segments, folder.hidden));
  if (!file) throw notFound(uri);
  try {
    if (!(await folder.gate.allows(ctx, file.realPath))) throw notFound(uri);
    const bytes =
      file.size > folder.maxReadBytes ? undefined : await readCapped(file.handle, folder.maxReadBytes);
    if (!bytes) throw tooLarge(uri, folder.maxReadBytes);
    return fileContents(uri, file.realPath, bytes);
  } finally {
    await file.handle.close();
  }
}

/** Turns a burst of changes into notifications: list_changed, and updated for subscribers. */
function notifier(server: McpServer, folder: Folder, listing: Listing, template: RegisteredResourceTemplate) {
  const servable = (path: string) => isServableRelative(path, folder.hidden);
  return (changes: FolderChanges): void => {
    listing.invalidate();
    // A change to the template (even none) is what announces resources/list_changed.
    if ([...changes.renamed].some(servable)) template.update({});
    for (const path of changes.paths) {
      if (servable(path)) server.notifyResourceUpdated(folderFileUri(join(folder.rootReal, path)));
    }
  };
}

/**
 * Exposes the files below `dir` as read-only resources of `server`, under the template
 * `file:///<real path of dir>/{+path}`:
 * - `resources/list` pages through the folder's servable files (regular, readable, within the
 *   size cap, not hidden; symlinks followed only when they resolve inside);
 * - `completion/complete` on `path` suggests the next segment;
 * - `resources/read` returns UTF-8 text as `text` with its MIME type, anything else as a `blob`.
 *
 * No URI reads or lists anything outside the folder (`..`, encoded or fullwidth dots and slashes,
 * other hosts, NUL, a sibling sharing the folder's name prefix, a symlink leading out); each refusal
 * is the `-32002` "Resource not found" a missing file gets. See docs/folder-resources.md.
 *
 * @throws {TypeError} when `dir` is not a directory, or for a bad option.
 * @example
 * ```ts
 * import { McpServer , resourceSupport} from '@mcpkit/server';
 * import { serveFolder } from '@mcpkit/node';
 *
 * const server = new McpServer({ name: 'docs', version: '1.0.0' }, { resources: resourceSupport });
 * const docs = serveFolder(server, './docs', { watch: true, roots: 'limit' });
 * // later: docs.close();
 * ```
 */
export function serveFolder(server: McpServer, dir: string, options: FolderOptions = {}): ServedFolder {
  const folder = folderOf(dir, options);
  const { rootReal, rootUri, gate } = folder;
  const uriTemplate = `${rootUri}/{+path}`;
  const listing = new Listing(folder);
  const config: ResourceTemplateConfig<'path'> = {
    name: options.name ?? `folder ${basename(rootReal)}`,
    description: options.description ?? `Files of the folder ${basename(rootReal)}, read-only`,
    list: (ctx) => listing.list(ctx),
    complete: {
      path: (value, _context, ctx) =>
        completePath(folder, value, (real, isDirectory) => gate.allows(ctx, real, isDirectory)),
    },
  };
  if (options.title !== undefined) config.title = options.title;
  const template = server.resourceTemplate(uriTemplate, config, (uri, _variables, ctx) =>
    readFile(folder, uri, ctx),
  );
  const stopRoots =
    gate.mode === 'ignore'
      ? undefined
      : server.onNotification('notifications/roots/list_changed', (_params, session) => gate.forget(session));
  const watcher = options.watch
    ? new CoalescingWatcher(
        { rootReal, watched: (path) => isServableRelative(path, folder.hidden) },
        nonNegative(options.coalesceMs, 100, 'coalesceMs'),
        notifier(server, folder, listing, template),
        (error) => options.onError?.(error),
      )
    : undefined;
  return {
    root: rootReal,
    uri: rootUri,
    uriTemplate,
    template,
    watching: watcher ? watcher.ready : Promise.resolve(),
    async close() {
      stopRoots?.();
      if (template.registered) template.remove();
      await watcher?.close();
    },
  };
}
