/**
 * The open sessions of one server, as a read-only set in the order they opened, kept as a list
 * linked through the sessions themselves instead of in a `Set`.
 *
 * Why not a `Set`: stateless HTTP and every 2026-07-28 request add a session and remove it again
 * per request. V8 keeps a `Set` in a hash table that it replaces every few dozen adds when
 * entries come and go, and a replaced table keeps its entries and a link to its successor. The
 * server's table lives as long as the server, so it ends up in the old generation, and then
 * every replaced table is dead old-generation memory that the young-generation collector still
 * treats as live: each session named in one (and everything that session holds: its connection,
 * transport, request, context) survived the young collections and was promoted, so a server under
 * load ran a full collection every second or so. Measured on the echo tool (bench/http-cpu.mjs):
 * every per-request session promoted, a third of the CPU in the collector. Here a session that
 * leaves the list drops its links, so nothing dead points at anything alive.
 * @module
 */

/**
 * What an element of a {@link LiveList} carries: its neighbours and the list it is in. The list
 * alone writes these.
 *
 * @example
 * ```ts
 * class Item implements Listed<Item> {
 *   listOwner: object | undefined = undefined;
 *   listPrev: Item | undefined = undefined;
 *   listNext: Item | undefined = undefined;
 * }
 * ```
 */
export interface Listed<T> {
  /** @internal */
  listOwner: object | undefined;
  /** @internal */
  listPrev: T | undefined;
  /** @internal */
  listNext: T | undefined;
}

/**
 * A set of elements in insertion order with O(1) add and delete and no allocation per element.
 * Iterating visits the elements present when iteration started that are still present when
 * reached, so deleting during iteration is safe.
 *
 * @example
 * ```ts
 * class Item implements Listed<Item> {
 *   listOwner: object | undefined = undefined;
 *   listPrev: Item | undefined = undefined;
 *   listNext: Item | undefined = undefined;
 * }
 * const list = new LiveList<Item>();
 * const item = new Item();
 * list.add(item);
 * list.has(item); // true
 * list.delete(item); // true
 * list.size; // 0
 * ```
 */
export class LiveList<T extends Listed<T>> implements ReadonlySet<T> {
  #head: T | undefined = undefined;
  #tail: T | undefined = undefined;
  #count = 0;

  get size(): number {
    return this.#count;
  }

  has(value: T): boolean {
    return value.listOwner === this;
  }

  /** Adds `value`, which must not be in another list (a session belongs to one server). */
  add(value: T): this {
    if (value.listOwner === this) return this;
    value.listOwner = this;
    value.listPrev = this.#tail;
    if (this.#tail) this.#tail.listNext = value;
    else this.#head = value;
    this.#tail = value;
    this.#count++;
    return this;
  }

  delete(value: T): boolean {
    if (value.listOwner !== this) return false;
    const { listPrev: prev, listNext: next } = value;
    if (prev) prev.listNext = next;
    else this.#head = next;
    if (next) next.listPrev = prev;
    else this.#tail = prev;
    value.listOwner = undefined;
    value.listPrev = undefined;
    value.listNext = undefined;
    this.#count--;
    return true;
  }

  /** The elements present now, each skipped if it left the list before it was reached. */
  *values(): SetIterator<T> {
    const now: T[] = [];
    for (let value = this.#head; value; value = value.listNext) now.push(value);
    for (const value of now) if (value.listOwner === this) yield value;
  }

  keys(): SetIterator<T> {
    return this.values();
  }

  *entries(): SetIterator<[T, T]> {
    for (const value of this.values()) yield [value, value];
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.values();
  }

  forEach(callback: (value: T, key: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void {
    for (const value of this.values()) callback.call(thisArg, value, value, this);
  }
}
