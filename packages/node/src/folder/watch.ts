/**
 * Watching a served folder with chokidar, events gathered for a short window and told once: the
 * changed paths, and which of them appeared or went.
 *
 * Why not `fs.watch(dir, { recursive: true })`: on Linux, Node 20 implements it in JavaScript,
 * following symlinks as it walks, and a link cycle inside the folder (`self -> .`, `loop -> loop`)
 * makes it emit ELOOP errors and stop reporting changes in subdirectories. chokidar (with
 * `followSymlinks: false`) watches each directory itself and reports links as entries.
 * @module
 */
import { relative } from 'node:path';
import type { FSWatcher } from 'chokidar';

/** One coalesced burst of changes; paths are below the folder, with platform separators. */
export interface FolderChanges {
  /** Paths whose contents or entry changed, each once. */
  readonly paths: ReadonlySet<string>;
  /** Paths that appeared or went (a move is both). */
  readonly renamed: ReadonlySet<string>;
}

/** What the watcher needs of the folder. */
export interface WatchTarget {
  readonly rootReal: string;
  /** Whether a path below the folder is worth watching (hidden ones are not, unless served). */
  readonly watched: (relativePath: string) => boolean;
}

/**
 * A watcher whose events reach `onChanges` at most once per `coalesceMs`: the first event of a
 * burst arms one timer, later ones only join the pending sets.
 *
 * @example
 * ```ts
 * const watcher = new CoalescingWatcher({ rootReal: '/srv/docs', watched: () => true }, 100, console.log, console.error);
 * await watcher.ready;
 * await watcher.close();
 * ```
 */
export class CoalescingWatcher {
  /** Resolves once the initial scan is done: changes from then on are reported. */
  readonly ready: Promise<void>;
  /** `undefined` when the watcher could not start (told to `onError`). */
  private readonly watcher: Promise<FSWatcher | undefined>;
  private pending = new Set<string>();
  private renamed = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    target: WatchTarget,
    private readonly coalesceMs: number,
    private readonly onChanges: (changes: FolderChanges) => void,
    onError: (error: Error) => void,
  ) {
    this.watcher = start(target, (event, path) => this.record(event, path), onError).catch(
      (error: unknown) => {
        onError(error instanceof Error ? error : new Error(String(error)));
        return undefined;
      },
    );
    this.ready = this.watcher.then(
      (watcher) => new Promise((resolve) => (watcher ? watcher.once('ready', () => resolve()) : resolve())),
    );
  }

  /** Stops watching; a pending burst is dropped. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await (await this.watcher)?.close();
  }

  private record(event: string, path: string): void {
    this.pending.add(path);
    if (event !== 'change') this.renamed.add(path);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.coalesceMs);
    this.timer.unref?.();
  }

  private flush(): void {
    const changes: FolderChanges = { paths: this.pending, renamed: this.renamed };
    this.timer = undefined;
    this.pending = new Set();
    this.renamed = new Set();
    this.onChanges(changes);
  }
}

/** Loads chokidar only when a folder is watched: serving without `watch` costs nothing of it. */
async function start(
  target: WatchTarget,
  record: (event: string, path: string) => void,
  onError: (error: Error) => void,
): Promise<FSWatcher> {
  const { watch } = await import('chokidar');
  const rel = (path: string) => relative(target.rootReal, path);
  const watcher = watch(target.rootReal, {
    ignoreInitial: true,
    followSymlinks: false,
    // Never keep the process alive by itself; skip what is not served (`.git` can be large).
    persistent: false,
    ignored: (path: string) => path !== target.rootReal && !target.watched(rel(path)),
  });
  watcher.on('all', (event, path) => record(event, rel(path)));
  watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
  return watcher;
}
