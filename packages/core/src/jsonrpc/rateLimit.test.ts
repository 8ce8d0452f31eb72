import { describe, expect, it } from 'vitest';
import { IncomingRateLimit } from './rateLimit.js';

const note = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
const answer = { jsonrpc: '2.0', id: 1, result: {} };

describe('IncomingRateLimit', () => {
  it('lets a window budget of requests and notifications through, then asks for a pause until the window ends', () => {
    const reports: string[] = [];
    const limit = new IncomingRateLimit(100, (error) => reports.push(error.message)); // 10 per 100 ms
    const pauses = Array.from({ length: 12 }, () => limit.admit(note, 1000));
    expect(pauses.slice(0, 9)).toEqual(Array(9).fill(0));
    expect(pauses.slice(9)).toEqual([100, 100, 100]);
    expect(limit.admit(note, 1060)).toBe(40);
    expect(limit.admit(note, 1100)).toBe(0); // a new window
    expect(reports).toEqual([
      'The peer sends more than 100 requests and notifications a second (maxIncomingPerSecond); reading from it is slowed down to that rate',
    ]);
  });

  it('never counts answers to our own requests, and Infinity turns it off', () => {
    const limit = new IncomingRateLimit(10, () => {});
    for (let i = 0; i < 100; i++) expect(limit.admit(answer, 1000)).toBe(0);
    const off = new IncomingRateLimit(Number.POSITIVE_INFINITY, () => {});
    for (let i = 0; i < 100; i++) expect(off.admit(note, 1000)).toBe(0);
  });
});
