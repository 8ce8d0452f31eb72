/**
 * Opening a file of a served folder so that what is read is inside it: the real path (symlinks
 * resolved) must lie below the folder's real path, and the file actually opened must be that one.
 *
 * Order of checks, for one read:
 * 1. `realpath` of the lexical path; the result must be inside the folder's real path
 *    (component-wise, see `isInside`), and not hidden unless hidden files are served;
 * 2. open that real path read-only with `O_NOFOLLOW` (a last component swapped for a symlink
 *    since step 1 fails to open) and `O_NONBLOCK` (a FIFO cannot block the read);
 * 3. `fstat` the descriptor: it must be a regular file;
 * 4. where the descriptor really points must be inside: on Linux, the kernel's own answer
 *    (`readlink /proc/self/fd/N`); elsewhere, `realpath` again, then in each of several rounds
 *    `stat` it (the device and inode of the open descriptor), `lstat` every directory on the way
 *    (directories, not links) and `realpath` once more (the same inside path). A directory swapped
 *    for a symlink between 1 and 2 lands the open outside, and then the read is refused.
 *
 * What remains (documented in docs/folder-resources.md): a hard link or a bind mount inside the
 * folder is, for the file system, inside; a file moved out after step 4 is still read once; and
 * without `/proc`, an attacker who can rename directories inside the folder and wins every race of
 * step 4's rounds in a row could pass the check.
 * @module
 */
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isInside, isServableRelative } from './paths.js';

/** A file opened inside the folder; close `handle` when done. */
export interface OpenedFile {
  readonly handle: FileHandle;
  /** The file's real path. */
  readonly realPath: string;
  readonly size: number;
}

// O_NOFOLLOW and O_NONBLOCK do not exist on Windows, where symlinks need privileges to create.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

let askKernel = true;

/**
 * @internal For tests: check opened files without `/proc/self/fd`, as on macOS and Windows.
 *
 * @example
 * ```ts
 * checkWithoutProc(true);
 * ```
 */
export function checkWithoutProc(on: boolean): void {
  askKernel = !on;
}

/**
 * The real path of `segments` below `rootReal` when it exists, is inside and servable, else
 * `undefined`. Every failure looks the same, so a caller cannot tell "outside" from "missing".
 *
 * @example
 * ```ts
 * await resolveInside('/srv/docs', ['a', 'b.md'], false); // '/srv/docs/a/b.md'
 * ```
 */
export async function resolveInside(
  rootReal: string,
  segments: readonly string[],
  hidden: boolean,
): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(join(rootReal, ...segments));
  } catch {
    return undefined;
  }
  if (!isInside(rootReal, real)) return undefined;
  const rel = relative(rootReal, real);
  if (rel !== '' && !isServableRelative(rel, hidden)) return undefined;
  return real;
}

/**
 * Opens the regular file that `segments` names below `rootReal`, checked as the module explains,
 * or `undefined` when there is none the folder may serve.
 *
 * @example
 * ```ts
 * const file = await openInside('/srv/docs', ['notes.md'], false);
 * if (file) try { ... } finally { await file.handle.close(); }
 * ```
 */
export async function openInside(
  rootReal: string,
  segments: readonly string[],
  hidden: boolean,
): Promise<OpenedFile | undefined> {
  const real = await resolveInside(rootReal, segments, hidden);
  if (real === undefined) return undefined;
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const opened = await handle.stat({ bigint: true });
    if (opened.isFile() && (await stillThere(rootReal, real, handle, opened))) {
      return { handle, realPath: real, size: Number(opened.size) };
    }
  } catch {
    // fall through: refused like any other miss
  }
  await handle.close();
  return undefined;
}

/**
 * Step 4: the file opened is inside. On Linux the kernel says where the descriptor points
 * (`/proc/self/fd/N`), which no rename can race. Elsewhere: the path resolves inside, to the very
 * inode that was opened, and resolves the same before and after that `stat` (a `stat` follows
 * links, so a swap between `realpath` and `stat` could otherwise show it the outside inode).
 */
async function stillThere(
  rootReal: string,
  real: string,
  handle: FileHandle,
  opened: { dev: bigint; ino: bigint },
): Promise<boolean> {
  const where = askKernel ? await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined) : undefined;
  if (where !== undefined) return isInside(rootReal, where);
  const before = await realpath(real);
  if (!isInside(rootReal, before)) return false;
  // Each round: the `stat` must show the opened inode, every directory between the folder and the
  // file must be one (`lstat`: not a link), and `realpath` the same inside path. A renamer must
  // win every one of these races, round after round (see the module comment).
  for (let round = 0; round < FALLBACK_ROUNDS; round++) {
    const seen = await stat(before, { bigint: true });
    if (seen.dev !== opened.dev || seen.ino !== opened.ino) return false;
    if (!(await directoriesAll(rootReal, before))) return false;
    if ((await realpath(real)) !== before) return false;
  }
  return true;
}

/**
 * Rounds of the check without `/proc`. Two were once passed by a test's renamer (3,000 swaps
 * against reads on a loaded machine), then again after they became two; each round adds at
 * least three races to win in a row. Only macOS and Windows pay for them.
 */
const FALLBACK_ROUNDS = 6;

/** Whether each directory from `rootReal` down to `file`'s parent is a directory, not a link. */
async function directoriesAll(rootReal: string, file: string): Promise<boolean> {
  const parts = relative(rootReal, file).split(sep).slice(0, -1);
  let dir = rootReal;
  for (const part of parts) {
    dir = join(dir, part);
    const seen = await lstat(dir).catch(() => undefined);
    if (!seen?.isDirectory()) return false;
  }
  return true;
}

/**
 * Reads an opened file through its descriptor, at most `maxBytes`; `undefined` when it holds more
 * (it may have grown since it was opened).
 *
 * @example
 * ```ts
 * const bytes = await readCapped(file.handle, 8 * 1024 * 1024);
 * ```
 */
export async function readCapped(handle: FileHandle, maxBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = new Uint8Array(Math.min(64 * 1024, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) return undefined;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
