import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from './eventStore.js';

async function replay(
  store: InMemoryEventStore,
  lastEventId: string,
): Promise<{ streamId: string | undefined; events: Array<[string, string]> }> {
  const events: Array<[string, string]> = [];
  const streamId = await store.replayEventsAfter(lastEventId, (id, data) => {
    events.push([id, data]);
  });
  return { streamId, events };
}

describe('InMemoryEventStore', () => {
  it('issues ids that encode their stream and are unique across streams', () => {
    const store = new InMemoryEventStore();
    const a0 = store.storeEvent('a', '');
    const b0 = store.storeEvent('b', '{"n":1}');
    const a1 = store.storeEvent('a', '{"n":2}');
    expect(new Set([a0, b0, a1]).size).toBe(3);
    expect(store.streamIdOf(a0)).toBe('a');
    expect(store.streamIdOf(a1)).toBe('a');
    expect(store.streamIdOf(b0)).toBe('b');
  });

  it('replays only the events of the id’s stream that followed it, skipping priming positions', async () => {
    const store = new InMemoryEventStore();
    const priming = store.storeEvent('s', '');
    const first = store.storeEvent('s', 'one');
    store.storeEvent('other', 'not mine');
    store.storeEvent('s', 'two');
    expect(await replay(store, priming)).toEqual({
      streamId: 's',
      events: [
        [first, 'one'],
        [expect.any(String), 'two'],
      ],
    });
    expect((await replay(store, first)).events.map(([, data]) => data)).toEqual(['two']);
    const last = store.storeEvent('s', 'three');
    expect(await replay(store, last)).toEqual({ streamId: 's', events: [] });
  });

  it('answers undefined for ids it never issued', async () => {
    const store = new InMemoryEventStore();
    const id = store.storeEvent('s', 'x');
    for (const bogus of [
      '',
      'nope',
      's/',
      '/1',
      's/1',
      's/-1',
      's/01',
      's/1e0',
      's/ 0',
      'ghost/0',
      `${id}0`,
      's/99999999999999999',
    ]) {
      expect(store.streamIdOf(bogus), bogus).toBeUndefined();
      expect((await replay(store, bogus)).streamId, bogus).toBeUndefined();
    }
  });

  it('keeps at most maxEventsPerStream events per stream, dropping the oldest', async () => {
    const store = new InMemoryEventStore({ maxEventsPerStream: 3 });
    const ids = ['a', 'b', 'c', 'd', 'e'].map((data) => store.storeEvent('s', data));
    expect(store.size).toBe(3);
    expect((await replay(store, ids[2]!)).events.map(([, data]) => data)).toEqual(['d', 'e']);
    // Resuming from a dropped position delivers what remains: a gap, but the stream's end (a
    // call's result) still arrives.
    expect(store.streamIdOf(ids[0]!)).toBe('s');
    expect((await replay(store, ids[0]!)).events.map(([, data]) => data)).toEqual(['c', 'd', 'e']);
  });

  it('evicts from the least recently written stream when the totals are exceeded', async () => {
    const store = new InMemoryEventStore({ maxEvents: 4 });
    const a = store.storeEvent('a', 'a1');
    const b = store.storeEvent('b', 'b1');
    store.storeEvent('a', 'a2'); // "a" is now the most recently written stream
    store.storeEvent('c', 'c1');
    expect(store.size).toBe(4);
    store.storeEvent('c', 'c2'); // over the cap: "b" is the least recent, so it goes
    expect(store.size).toBe(4);
    expect(store.streamIdOf(b)).toBeUndefined();
    expect(store.streamCount).toBe(2);
    expect((await replay(store, a)).events.map(([, data]) => data)).toEqual(['a2']);
  });

  it('bounds the characters held, and forgets streams that are emptied', () => {
    const store = new InMemoryEventStore({ maxChars: 10 });
    const first = store.storeEvent('a', '12345');
    store.storeEvent('b', '123456');
    expect(store.streamIdOf(first)).toBeUndefined();
    expect(store.streamCount).toBe(1);
    // One event larger than the cap is kept until the next write.
    const huge = store.storeEvent('c', 'x'.repeat(50));
    expect(store.streamIdOf(huge)).toBe('c');
    expect(store.size).toBe(1);
  });

  it('deleteStream frees a stream at once', () => {
    const store = new InMemoryEventStore();
    const id = store.storeEvent('s', 'abc');
    store.storeEvent('t', 'def');
    store.deleteStream('s');
    expect(store.streamIdOf(id)).toBeUndefined();
    expect(store.size).toBe(1);
    store.deleteStream('never');
    expect(store.size).toBe(1);
  });

  it('paces a replay on the sink and carries on past evictions made during it', async () => {
    const store = new InMemoryEventStore({ maxEvents: 6 });
    const start = store.storeEvent('s', '');
    for (let i = 0; i < 4; i++) store.storeEvent('s', String(i));
    const seen: string[] = [];
    await store.replayEventsAfter(start, async (_id, data) => {
      seen.push(data);
      if (data === '0') for (let i = 0; i < 4; i++) store.storeEvent('other', 'noise'); // evicts s's head
      await Promise.resolve();
    });
    // The noise evicted the priming position, '0' and '1' while '0' was being sent.
    expect(seen).toEqual(['0', '2', '3']);
  });

  it('rejects limits below 1', () => {
    expect(() => new InMemoryEventStore({ maxEvents: 0 })).toThrow(RangeError);
  });
});
