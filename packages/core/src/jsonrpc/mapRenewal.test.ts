import { describe, expect, it } from 'vitest';
import { Connection, createInMemoryPair } from '../index.js';
import { MapRenewal } from './mapRenewal.js';

describe('MapRenewal', () => {
  it('keeps the map for 1023 deletions, then hands back a copy with the same entries', () => {
    const renewal = new MapRenewal();
    const map = new Map([
      [1, 'a'],
      [2, 'b'],
    ]);
    for (let i = 0; i < 1023; i++) expect(renewal.after(map)).toBe(map);
    const renewed = renewal.after(map);
    expect(renewed).not.toBe(map);
    expect([...renewed]).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    // The count starts over.
    expect(renewal.after(renewed)).toBe(renewed);
  });

  it('waits for twice the size of a large map, so copying stays O(1) per deletion', () => {
    const renewal = new MapRenewal();
    const map = new Map(Array.from({ length: 2000 }, (_, i) => [i, i] as const));
    for (let i = 0; i < 3999; i++) expect(renewal.after(map)).toBe(map);
    expect(renewal.after(map)).not.toBe(map);
  });
});

describe('a connection renewing its maps of requests in flight', () => {
  it('answers every request of a long run with some always in flight, each with its own result', async () => {
    const [left, right] = createInMemoryPair({ serialize: true });
    const server = new Connection(right, {
      // Answered a turn later, so requests overlap while the maps are renewed.
      onRequest: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { n: (request.params as { n: number }).n };
      },
      onNotification: () => {},
    });
    const client = new Connection(left, { onRequest: () => ({}), onNotification: () => {} });
    server.start();
    client.start();
    let next = 0;
    const seen: number[] = [];
    const worker = async () => {
      while (next < 3000) {
        const n = next++;
        const result = await client.request<{ n: number }>('echo', { n });
        seen.push(result.n);
        expect(result.n).toBe(n);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(seen).toHaveLength(3000);
    expect(new Set(seen).size).toBe(3000);
    expect(client.pendingCount).toBe(0);
    expect(server.inFlightCount).toBe(0);
    await client.close();
  });
});
