/**
 * The files `mcpkit dev` watches: chokidar over the server file and the watched paths, skipping
 * `node_modules`, `.git` and editors' scratch files; in a watched directory only code counts
 * (JavaScript and TypeScript, as nodemon does by default), so a log or a data file the server
 * writes beside itself cannot restart it in a loop; a file named on its own always counts. A burst of events (an editor's save is
 * often several: a temporary file, a rename, a change) told once, when the burst has been quiet for
 * the debounce.
 *
 * Why chokidar rather than `fs.watch(dir, { recursive: true })`: on Linux, Node 20's recursive
 * watching is done in JavaScript, misses directories created later in some versions and stops on
 * a symlink loop; chokidar watches each directory itself, handles editors' atomic saves (write,
 * rename) as one change, and is already the project's watcher (`@mcpkit/node` folder resources).
 * @module
 */
import { statSync } from 'node:fs';
import { basename, extname, resolve, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';

/** The files of a watched directory whose change restarts the server. */
const CODE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);

/** Directories never watched: dependencies and version control are not the server's code. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * Whether a path is not worth a restart: inside `node_modules` or `.git`, or an editor's scratch
 * file (`file~`, `.file.swp`, `.#file`, vim's `4913` probe).
 *
 * @example
 * ```ts
 * ignoredPath('/p/node_modules/x/index.js'); // true
 * ignoredPath('/p/src/tools.ts'); // false
 * ```
 */
export function ignoredPath(path: string): boolean {
  if (path.split(sep).some((part) => SKIPPED_DIRS.has(part))) return true;
  const name = basename(path);
  return name.endsWith('~') || /\.sw[a-p x]$/.test(name) || name.startsWith('.#') || name === '4913';
}

/**
 * Watches `paths` (files, or directories recursively: their code files) and calls `onChange`
 * with the last path changed, once a burst of changes has been quiet for `debounceMs`.
 *
 * @example
 * ```ts
 * const watcher = await watchSources(['src'], 150, (path) => console.error(`changed: ${path}`), console.error);
 * await watcher.close();
 * ```
 */
export async function watchSources(
  paths: readonly string[],
  debounceMs: number,
  onChange: (path: string) => void,
  onError: (error: Error) => void,
): Promise<{ close(): Promise<void> }> {
  const { watch } = await import('chokidar');
  const watcher: FSWatcher = watch([...paths], {
    ignoreInitial: true,
    ignored: (path: string) => ignoredPath(path),
  });
  const files = new Set(paths.filter(isFile).map((path) => resolve(path)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  watcher.on('all', (event, path) => {
    if (event === 'addDir' || event === 'unlinkDir') return;
    if (!CODE_EXTENSIONS.has(extname(path).toLowerCase()) && !files.has(resolve(path))) return;
    last = path;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange(last);
    }, debounceMs);
  });
  watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    close: async () => {
      if (timer !== undefined) clearTimeout(timer);
      await watcher.close();
    },
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // not there yet: watched as a directory would be, by extension
  }
}
