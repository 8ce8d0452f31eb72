/**
 * How the Streamable HTTP transport aborts one fetch. Every POST has one (so that `close()` and a
 * cancelled SSE answer can stop it), yet almost none is ever aborted: its `AbortSignal` (an
 * `EventTarget`, plus the fetch's listener on it) is made only when something asks for
 * `signal`. A direct fetch (the undici path of `@mcpkit/node/http-client`) never does: it finds
 * the `FetchAbort` itself in its init under `Symbol.for('mcpkit.http.fetchAbort')` and is told of
 * an abort through {@link FetchAbort.watch}.
 * @module
 */

/**
 * An `AbortController` whose signal is made lazily; usable wherever one is expected.
 *
 * @example
 * ```ts
 * const abort = new FetchAbort();
 * abort.watch(() => console.log('aborted'));
 * abort.abort(); // logs 'aborted'; abort.signal.aborted is true
 * ```
 */
export class FetchAbort implements AbortController {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #watcher: (() => void) | undefined;

  /** The signal, made on first use (already aborted if `abort()` came first). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was aborted: what `abort()` was given, else an `AbortError`. */
  get reason(): unknown {
    return this.#reason;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.#reason);
    const watcher = this.#watcher;
    this.#watcher = undefined;
    watcher?.();
  }

  /**
   * One callback to run on abort (the direct fetch in flight; a later fetch of the same exchange,
   * a redirect or a retry, takes over).
   */
  watch(watcher: () => void): void {
    this.#watcher = watcher;
  }

  /** Stops `watcher` (a fetch that is over), unless another fetch has taken over since. */
  unwatch(watcher: () => void): void {
    if (this.#watcher === watcher) this.#watcher = undefined;
  }
}

/** The key under which a direct fetch finds the {@link FetchAbort} of its request. */
export const FETCH_ABORT = Symbol.for('mcpkit.http.fetchAbort');

/**
 * Whether `controller` was aborted, without making a lazy signal.
 *
 * @example
 * ```ts
 * isAborted(new FetchAbort()); // false
 * ```
 */
export function isAborted(controller: AbortController): boolean {
  return controller instanceof FetchAbort ? controller.aborted : controller.signal.aborted;
}
