import { McpError } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  encodeCursor,
  PagedCollection,
  type PagedItem,
  pageFrom,
  tryDecodeCursor,
} from './pagination.js';

interface Item extends PagedItem {
  key: string;
  enabled: boolean;
}

function collection(...keys: string[]) {
  const items = new PagedCollection<Item>('t');
  const byKey: Record<string, Item> = {};
  for (const key of keys) {
    const item: Item = { key, seq: 0, enabled: true };
    items.add(item);
    byKey[key] = item;
  }
  return { items, byKey };
}

function names(page: { items: readonly Item[] }) {
  return page.items.map((item) => item.key);
}

describe('cursors', () => {
  it('round-trip tags and numbers, and look opaque', () => {
    const cursor = encodeCursor('R', [12, 3456789]);
    expect(cursor).not.toContain('12');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'R')).toEqual([12, 3456789]);
    expect(tryDecodeCursor(cursor, 'r')).toBeUndefined();
  });

  it.each([
    ['not base64', '***'],
    ['empty', ''],
    ['no numbers', btoa('t')],
    ['upper-case digits', btoa('tAB')],
    ['empty number', btoa('t1..2')],
    ['too long', 'A'.repeat(100)],
    ['not a string', 42],
  ])('refuses %s with -32602', (_label, cursor) => {
    expect(() => decodeCursor(cursor, 't')).toThrow(McpError);
    try {
      decodeCursor(cursor, 't');
    } catch (error) {
      expect((error as McpError).code).toBe(-32602);
    }
  });
});

describe('PagedCollection', () => {
  it('lists enabled items in registration order and finds only enabled ones', () => {
    const { items, byKey } = collection('a', 'b', 'c');
    byKey.b!.enabled = false;
    items.invalidate();
    expect(items.list().map((item) => item.key)).toEqual(['a', 'c']);
    expect(items.find('b')).toBeUndefined();
    expect(items.get('b')).toBe(byKey.b);
    expect(items.size).toBe(3);
  });

  it('pages with cursors that skip nothing when items are removed or added between pages', () => {
    const { items, byKey } = collection('a', 'b', 'c', 'd', 'e');
    const first = items.page(undefined, 2);
    expect(names(first)).toEqual(['a', 'b']);
    items.delete(byKey.b!);
    items.delete(byKey.c!);
    items.add({ key: 'f', seq: 0, enabled: true });
    const second = items.page(first.nextCursor, 2);
    expect(names(second)).toEqual(['d', 'e']);
    const third = items.page(second.nextCursor, 2);
    expect(names(third)).toEqual(['f']);
    expect(third.nextCursor).toBeUndefined();
  });

  it('keeps an item in place when it is renamed', () => {
    const { items, byKey } = collection('a', 'b', 'c');
    const b = byKey.b!;
    b.key = 'z';
    items.rekey(b, 'b');
    expect(items.list().map((item) => item.key)).toEqual(['a', 'z', 'c']);
    expect(items.get('b')).toBeUndefined();
    expect(items.get('z')).toBe(b);
  });

  it('returns the whole list without a cursor when it fits in one page', () => {
    const { items } = collection('a', 'b');
    const page = items.page(undefined, 2);
    expect(names(page)).toEqual(['a', 'b']);
    expect(page.nextCursor).toBeUndefined();
  });

  it('refuses a cursor made for another list', () => {
    const { items } = collection('a', 'b', 'c');
    expect(() => items.page(encodeCursor('p', [1]), 2)).toThrow(/Invalid cursor/);
  });
});

describe('pageFrom', () => {
  it('slices from a position and makes the cursor from the last item', () => {
    expect(pageFrom(['a', 'b', 'c'], 1, 1, (last) => `after-${last}`)).toEqual({
      items: ['b'],
      nextCursor: 'after-b',
    });
    expect(pageFrom(['a', 'b', 'c'], 2, 5, (last) => last)).toEqual({ items: ['c'] });
  });
});
