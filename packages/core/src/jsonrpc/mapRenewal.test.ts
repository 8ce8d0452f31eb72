import { describe, expect, it } from 'vitest';
import { Connection, createInMemoryPair } from '../index.js';
import { renewalDue } from './mapRenewal.js';

describe('renewalDue', () => {
  it('is false for 1023 deletions of a small map, then true (the owner starts counting again)', () => {
    for (let deletions = 1; deletions < 1024; deletions++) expect(renewalDue(deletions, 2)).toBe(false);
    expect(renewalDue(1024, 2)).toBe(true);
    expect(renewalDue(1, 2)).toBe(false);
  });

  it('waits for twice the size of a large map, so copying stays O(1) per deletion', () => {
    expect(renewalDue(3999, 2000)).toBe(false);
    expect(renewalDue(4000, 2000)).toBe(true);
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
