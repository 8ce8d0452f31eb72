/**
 * Keyed, ordered collections listed in pages, and the opaque cursors that page through them.
 *
 * Every registered item gets a sequence number when it is registered, and lists are in that
 * order. A cursor says "continue after sequence number N", not "skip N items", so it stays right
 * when items are added (they come last), removed (nothing shifts) or disabled between two pages:
 * no item is listed twice and none that existed throughout is skipped.
 *
 * The cursor text is base64url of a one-letter list tag and base-36 numbers (`t1k`,
 * `R5.2s`...). It carries no checksum on purpose: a forged cursor can only choose where a page
 * starts, which reveals nothing the list does not already show. The tag makes a cursor from one
 * list method useless on another, and anything malformed is refused with `-32602`.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';
import { fromBase64Url, toBase64Url } from './mrtr/digest.js';

/**
 * What a {@link PagedCollection} needs of its items.
 *
 * @example
 * ```ts
 * const item: PagedItem = { key: 'echo', seq: 0, enabled: true };
 * ```
 */
export interface PagedItem {
  /** The key clients use (tool name, resource URI...). */
  readonly key: string;
  /** Registration order; set by the collection. */
  seq: number;
  /** Disabled items are neither listed nor found by {@link PagedCollection.find}. */
  readonly enabled: boolean;
}

/**
 * One page of a list.
 *
 * @example
 * ```ts
 * const page: Page<string> = { items: ['a', 'b'], nextCursor: 'dDI' };
 * ```
 */
export interface Page<T> {
  readonly items: readonly T[];
  /** Present when more items follow. */
  readonly nextCursor?: string;
}

const MAX_CURSOR_LENGTH = 64;

/**
 * Encodes a cursor: a list tag and numbers, as base64url text.
 *
 * @example
 * ```ts
 * encodeCursor('t', [42]); // 'dDE2'
 * decodeCursor('dDE2', 't'); // [42]
 * ```
 */
export function encodeCursor(tag: string, numbers: readonly number[]): string {
  const text = tag + numbers.map((n) => n.toString(36)).join('.');
  return toBase64Url(Uint8Array.from(text, (char) => char.charCodeAt(0)));
}

/**
 * Decodes a cursor made by {@link encodeCursor} for the list `tag`.
 *
 * @throws {McpError} `-32602` when the cursor is not one this server issued for that list.
 * @example
 * ```ts
 * decodeCursor(encodeCursor('p', [7]), 'p'); // [7]
 * decodeCursor('nonsense', 'p'); // throws McpError -32602
 * ```
 */
export function decodeCursor(cursor: unknown, tag: string): number[] {
  const numbers = tryDecodeCursor(cursor, tag);
  if (!numbers) throw invalidCursor();
  return numbers;
}

/**
 * Like {@link decodeCursor}, but `undefined` instead of an error: for lists whose cursors come in
 * more than one kind.
 *
 * @example
 * ```ts
 * tryDecodeCursor(encodeCursor('r', [3]), 'R'); // undefined
 * ```
 */
export function tryDecodeCursor(cursor: unknown, tag: string): number[] | undefined {
  return typeof cursor === 'string' ? parseCursor(cursor, tag) : undefined;
}

/**
 * The error for a cursor this server did not issue.
 *
 * @example
 * ```ts
 * throw invalidCursor(); // McpError -32602
 * ```
 */
export function invalidCursor(): McpError {
  return new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass back a nextCursor unchanged');
}

function parseCursor(cursor: string, tag: string): number[] | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return undefined;
  const bytes = fromBase64Url(cursor);
  if (!bytes) return undefined;
  const text = String.fromCharCode(...bytes);
  if (!text.startsWith(tag) || text.length === tag.length) return undefined;
  const numbers: number[] = [];
  for (const part of text.slice(tag.length).split('.')) {
    if (!isBase36(part)) return undefined;
    const value = Number.parseInt(part, 36);
    if (!Number.isSafeInteger(value)) return undefined;
    numbers.push(value);
  }
  return numbers;
}

function isBase36(text: string): boolean {
  if (text.length === 0 || text.length > 11) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 122))) return false;
  }
  return true;
}

/**
 * The items of one kind (tools, prompts...): found by key in O(1), listed in registration order,
 * paged by cursor. The enabled-item list is computed once per change, not per request.
 *
 * @example
 * ```ts
 * const tools = new PagedCollection<ToolEntry>('t');
 * tools.add(entry);
 * const { items, nextCursor } = tools.page(undefined, 100);
 * ```
 */
export class PagedCollection<T extends PagedItem> {
  readonly #byKey = new Map<string, T>();
  #nextSeq = 1;
  #snapshot: readonly T[] | undefined;

  /** @param tag the one-letter cursor tag of this list. */
  constructor(readonly tag: string) {}

  /** Every item, enabled or not. */
  get size(): number {
    return this.#byKey.size;
  }

  /** The item with `key`, enabled or not. */
  get(key: string): T | undefined {
    return this.#byKey.get(key);
  }

  /** The enabled item with `key`: what a client may use. */
  find(key: string): T | undefined {
    const item = this.#byKey.get(key);
    return item?.enabled ? item : undefined;
  }

  /** Adds an item at the end of the list. The caller checked the key is free. */
  add(item: T): void {
    item.seq = this.#nextSeq++;
    this.#byKey.set(item.key, item);
    this.#snapshot = undefined;
  }

  /** Removes an item; false when it was not there. */
  delete(item: T): boolean {
    if (this.#byKey.get(item.key) !== item) return false;
    this.#byKey.delete(item.key);
    this.#snapshot = undefined;
    return true;
  }

  /** Moves an item to a new key, keeping its place in the list. */
  rekey(item: T, oldKey: string): void {
    if (this.#byKey.get(oldKey) === item) this.#byKey.delete(oldKey);
    this.#byKey.set(item.key, item);
    this.#snapshot = undefined;
  }

  /** Forgets the cached list (call after enabling, disabling or updating an item). */
  invalidate(): void {
    this.#snapshot = undefined;
  }

  /** True when `item` is the one registered under its key. */
  has(item: T): boolean {
    return this.#byKey.get(item.key) === item;
  }

  /** The enabled items, in registration order. */
  list(): readonly T[] {
    if (!this.#snapshot) {
      const items = [...this.#byKey.values()].filter((item) => item.enabled);
      items.sort((a, b) => a.seq - b.seq);
      this.#snapshot = items;
    }
    return this.#snapshot;
  }

  /**
   * One page of enabled items, starting after the cursor.
   *
   * @throws {McpError} `-32602` for a cursor this list did not issue.
   */
  page(cursor: unknown, pageSize: number): Page<T> {
    const items = this.list();
    const start = cursor === undefined ? 0 : this.indexAfter(decodeCursor(cursor, this.tag));
    return pageFrom(items, start, pageSize, (last) => encodeCursor(this.tag, [last.seq]));
  }

  /**
   * The position of the first enabled item registered after sequence number `seq` (binary search:
   * the list is sorted by `seq`).
   */
  indexAfter(position: readonly number[]): number {
    const seq = position[0]!;
    if (position.length !== 1) throw invalidCursor();
    const items = this.list();
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (items[middle]!.seq <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Slices one page from `start`; `cursorAfter` makes the cursor for the page's last item.
 *
 * @example
 * ```ts
 * pageFrom(['a', 'b', 'c'], 0, 2, (last) => last); // { items: ['a', 'b'], nextCursor: 'b' }
 * ```
 */
export function pageFrom<T>(
  items: readonly T[],
  start: number,
  pageSize: number,
  cursorAfter: (last: T) => string,
): Page<T> {
  if (start === 0 && items.length <= pageSize) return { items };
  const end = start + pageSize;
  const slice = items.slice(start, end);
  if (end >= items.length) return { items: slice };
  return { items: slice, nextCursor: cursorAfter(slice[slice.length - 1]!) };
}

/**
 * The result of a list method for one page of registered items: their definitions under `key`,
 * and `nextCursor` when more follow.
 *
 * @example
 * ```ts
 * listResult('tools', { items: [{ definition: { name: 'echo' } }], nextCursor: 'dDE' });
 * // { tools: [{ name: 'echo' }], nextCursor: 'dDE' }
 * ```
 */
export function listResult<K extends string, D>(
  key: K,
  page: Page<{ readonly definition: D }>,
): Record<K, D[]> & { nextCursor?: string } {
  const result = { [key]: page.items.map((item) => item.definition) } as Record<K, D[]> & {
    nextCursor?: string;
  };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}
