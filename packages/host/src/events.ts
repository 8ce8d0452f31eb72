/**
 * A set of listeners for one kind of host event. Emitting never throws: a listener that throws
 * must not stop the others, nor the connection code that emits.
 * @module
 */

/**
 * Listeners of one event, each called with the same arguments.
 *
 * @example
 * ```ts
 * const changes = new Listeners<[server: string]>();
 * const stop = changes.add((server) => console.log(server));
 * changes.emit('a');
 * stop();
 * ```
 */
export class Listeners<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  /** Adds `listener`; returns the function that removes it. */
  add(listener: (...args: A) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls every listener; one that throws is skipped. */
  emit(...args: A): void {
    for (const listener of this.listeners) {
      try {
        listener(...args);
      } catch {
        // A listener's bug is the listener's: the host keeps routing.
      }
    }
  }
}
