/**
 * Renews a long-lived `Map` whose entries come and go all the time (requests in flight, by id),
 * so that it does not drag every value it ever held into V8's old generation.
 *
 * Why: such a map is rehashed every few dozen additions. V8 allocates the new table in the
 * generation of the table it replaces, and the replaced table keeps its entries (for iterators
 * that may still walk it) until a full collection finds it dead. Once the map's table has been
 * promoted (it only has to survive two scavenges, say while the process waited for a slow peer),
 * every rehash leaves a dead old-generation table pointing at the requests then in flight: each
 * scavenge keeps them, promotes them, and the old generation fills with garbage that only a
 * mark-compact frees. A gateway over stdio showed it: about 1.2 KB promoted per call and a
 * mark-compact every 15,000 calls (`--trace-gc-nvp`, docs/benchmarks.md "Gateway"). A fresh `Map`
 * starts with a young table, and young tables replaced while young die young.
 * @module
 */

/** Deletions between renewals (or twice the map's size, when that is more: O(1) amortized). */
const RENEW_AFTER_DELETIONS = 1024;

/**
 * Counts deletions from one map and says when to replace it by a copy.
 *
 * @example
 * ```ts
 * const renewal = new MapRenewal();
 * let pending = new Map<number, string>();
 * pending.delete(1);
 * pending = renewal.after(pending); // the same map, or a fresh copy of it
 * ```
 */
export class MapRenewal {
  #deletions = 0;

  /** Call after each deletion; returns `map` itself or, now and then, a copy to use instead. */
  after<K, V>(map: Map<K, V>): Map<K, V> {
    if (++this.#deletions < RENEW_AFTER_DELETIONS || this.#deletions < 2 * map.size) return map;
    this.#deletions = 0;
    return new Map(map);
  }
}
