/**
 * Pages of the aggregated catalogue, for a gateway given a `pageSize`. Every listing is built
 * afresh from the upstreams (each of which the host pages through in full), so a cursor is the
 * offset into that listing, tagged with the list it belongs to: a cursor of one list is refused
 * on another, and anything the gateway did not issue is `-32602`.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';

/** Longest cursor accepted: the gateway's own are a dozen characters. */
const MAX_CURSOR_LENGTH = 32;

/**
 * One page of `items` from `cursor`, with the next page's cursor when more follow. Without a
 * page size, every item in one page.
 *
 * @throws {McpError} `-32602` for a cursor this gateway did not issue for `list`.
 * @example
 * ```ts
 * const first = pageOf('tools', tools, undefined, 50); // { items, nextCursor }
 * const second = pageOf('tools', tools, first.nextCursor, 50);
 * ```
 */
export function pageOf<T>(
  list: string,
  items: readonly T[],
  cursor: unknown,
  pageSize: number | undefined,
): { items: T[]; nextCursor?: string } {
  if (pageSize === undefined) {
    if (cursor !== undefined) throw invalid();
    return { items: [...items] };
  }
  const start = cursor === undefined ? 0 : offsetOf(list, cursor);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { items: page, nextCursor: encode(list, end) } : { items: page };
}

function encode(list: string, offset: number): string {
  return btoa(`${list}:${offset.toString(36)}`).replace(/=+$/, '');
}

function offsetOf(list: string, cursor: unknown): number {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) {
    throw invalid();
  }
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    throw invalid();
  }
  const [tag, offset] = text.split(':');
  if (tag !== list || offset === undefined || !/^[0-9a-z]{1,8}$/.test(offset)) throw invalid();
  return Number.parseInt(offset, 36);
}

function invalid(): McpError {
  return new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass back a nextCursor unchanged');
}
