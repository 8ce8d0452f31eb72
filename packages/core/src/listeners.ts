/**
 * Listeners kept per key (a notification method, a list kind): the registration both dispatchers
 * and the client's `list_changed` listeners share.
 * @module
 */

/**
 * Adds `listener` to the set of `key` in `byKey` (made on first use); returns the function that
 * removes it again. Listeners run in the order they were added, as a `Set` keeps it.
 *
 * @example
 * ```ts
 * const byMethod = new Map<string, Set<(params: object) => void>>();
 * const stop = addListener(byMethod, 'notifications/message', (params) => console.error(params));
 * stop(); // removed
 * ```
 */
export function addListener<K, L>(byKey: Map<K, Set<L>>, key: K, listener: L): () => void {
  let listeners = byKey.get(key);
  if (!listeners) {
    listeners = new Set();
    byKey.set(key, listeners);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
