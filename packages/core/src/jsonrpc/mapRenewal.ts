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
 * Whether a map that has seen `deletions` deletions since it was made (or last renewed) should now
 * be replaced by a copy. The owner keeps the count in a number field of its own, so renewal costs
 * no object per map (an idle HTTP session has two such maps).
 *
 * @example
 * ```ts
 * let pending = new Map<number, string>();
 * let deletions = 0;
 * pending.delete(1);
 * if (renewalDue(++deletions, pending.size)) {
 *   deletions = 0;
 *   pending = new Map(pending);
 * }
 * ```
 */
export function renewalDue(deletions: number, size: number): boolean {
  return deletions >= RENEW_AFTER_DELETIONS && deletions >= 2 * size;
}
