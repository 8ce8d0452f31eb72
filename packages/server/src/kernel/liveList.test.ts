import { describe, expect, it } from 'vitest';
import { type Listed, LiveList } from './liveList.js';

class Item implements Listed<Item> {
  listOwner: object | undefined = undefined;
  listPrev: Item | undefined = undefined;
  listNext: Item | undefined = undefined;
  constructor(readonly name: string) {}
}

function items(...names: string[]): Item[] {
  return names.map((name) => new Item(name));
}

function names(set: ReadonlySet<Item>): string[] {
  return [...set].map((item) => item.name);
}

describe('LiveList', () => {
  it('is a set in insertion order, whichever elements leave', () => {
    const list = new LiveList<Item>();
    const [a, b, c, d] = items('a', 'b', 'c', 'd');
    for (const item of [a!, b!, c!, d!]) list.add(item);
    list.add(b!); // already there: no change
    expect(names(list)).toEqual(['a', 'b', 'c', 'd']);
    expect(list.delete(a!)).toBe(true); // the head
    expect(list.delete(c!)).toBe(true); // the middle
    expect(list.delete(c!)).toBe(false);
    expect(names(list)).toEqual(['b', 'd']);
    expect(list.delete(d!)).toBe(true); // the tail
    list.add(c!);
    expect(names(list)).toEqual(['b', 'c']);
    expect(list.size).toBe(2);
    expect(list.has(b!)).toBe(true);
    expect(list.has(a!)).toBe(false);
  });

  it('leaves nothing pointing from a removed element to the rest', () => {
    const list = new LiveList<Item>();
    const [a, b, c] = items('a', 'b', 'c');
    for (const item of [a!, b!, c!]) list.add(item);
    list.delete(b!);
    expect([b!.listOwner, b!.listPrev, b!.listNext]).toEqual([undefined, undefined, undefined]);
    expect(a!.listNext).toBe(c);
    expect(c!.listPrev).toBe(a);
  });

  it('skips elements deleted during iteration and visits the rest once', () => {
    const list = new LiveList<Item>();
    const all = items('a', 'b', 'c', 'd');
    for (const item of all) list.add(item);
    const seen: string[] = [];
    for (const item of list) {
      seen.push(item.name);
      if (item.name === 'a') {
        list.delete(item); // the one being visited
        list.delete(all[2]!); // one not reached yet
      }
    }
    expect(seen).toEqual(['a', 'b', 'd']);
    expect(names(list)).toEqual(['b', 'd']);
  });

  it('offers the rest of the ReadonlySet interface', () => {
    const list = new LiveList<Item>();
    const [a, b] = items('a', 'b');
    list.add(a!).add(b!);
    expect([...list.keys()]).toEqual([a, b]);
    expect([...list.values()]).toEqual([a, b]);
    expect([...list.entries()]).toEqual([
      [a, a],
      [b, b],
    ]);
    const visited: Item[] = [];
    list.forEach((value, key, set) => {
      expect(key).toBe(value);
      expect(set).toBe(list);
      visited.push(value);
    });
    expect(visited).toEqual([a, b]);
  });
});
