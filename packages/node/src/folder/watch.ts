/**
 * Watching a served folder: `fs.watch` with `recursive` (Linux, macOS and Windows on Node 20),
 * events gathered for a short window and told once: the changed paths, and whether the set of
 * files may have changed (a `rename` event: created, deleted or moved).
 * @module
 */
import { type FSWatcher, watch } from 'node:fs';

/** One coalesced burst of changes; paths are below the folder, with platform separators. */
export interface FolderChanges {
  /** Paths whose contents or entry changed, each once. */
  readonly paths: ReadonlySet<string>;
  /** Paths that appeared, went or moved (`rename` events). */
  readonly renamed: ReadonlySet<string>;
  /** True when an event came without a name: anything may have changed. */
  readonly unknown: boolean;
}

/**
 * A recursive watcher whose events reach `onChanges` at most once per `coalesceMs`: the first
 * event of a burst arms one timer, later ones only join the pending set.
 *
 * @example
 * ```ts
 * const watcher = new CoalescingWatcher('/srv/docs', 100, (changes) => console.log([...changes.paths]), console.error);
 * watcher.close();
 * ```
 */
export class CoalescingWatcher {
  private readonly watcher: FSWatcher;
  private pending = new Set<string>();
  private renamed = new Set<string>();
  private unknown = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    dir: string,
    private readonly coalesceMs: number,
    private readonly onChanges: (changes: FolderChanges) => void,
    onError: (error: Error) => void,
  ) {
    // persistent: false, so that watching never keeps the process alive by itself.
    this.watcher = watch(dir, { recursive: true, persistent: false }, (event, filename) =>
      this.record(event, filename),
    );
    this.watcher.on('error', onError);
  }

  /** Stops watching; a pending burst is dropped. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher.close();
  }

  private record(event: string, filename: string | Buffer | null): void {
    // Without a name (some platforms, some events) only "something changed" is known.
    if (filename === null) this.unknown = true;
    else {
      const path = filename.toString();
      this.pending.add(path);
      if (event === 'rename') this.renamed.add(path);
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.coalesceMs);
    this.timer.unref?.();
  }

  private flush(): void {
    const changes: FolderChanges = { paths: this.pending, renamed: this.renamed, unknown: this.unknown };
    this.timer = undefined;
    this.pending = new Set();
    this.renamed = new Set();
    this.unknown = false;
    this.onChanges(changes);
  }
}
