import { describe, expect, it } from 'vitest';
import { DEFAULT_RECONNECTION, reconnectionDelay, resolveReconnection } from './reconnect.js';

describe('reconnectionDelay', () => {
  const options = resolveReconnection();

  it('waits exactly the server retry: value on the first attempt', () => {
    expect(reconnectionDelay(options, 0, 500)).toBe(500);
    expect(reconnectionDelay(options, 0, 0)).toBe(0);
  });

  it('falls back to initialReconnectionDelay and grows by the factor up to the cap', () => {
    const delays = [0, 1, 2, 3, 20].map((attempt) => reconnectionDelay(options, attempt, undefined));
    expect(delays).toEqual([1000, 1500, 2250, 3375, 30_000]);
  });

  it('never waits less than the server asked, even above the cap', () => {
    expect(reconnectionDelay(options, 0, 60_000)).toBe(60_000);
    expect(reconnectionDelay(options, 5, 60_000)).toBe(60_000);
  });

  // Regression: a hostile `retry: 99999999999` reached setTimeout, which fires such a delay after
  // 1 ms: the server could make the client reconnect in a tight loop.
  it('never waits longer than a timer can (a huge retry: is capped, not turned into 1 ms)', () => {
    expect(reconnectionDelay(options, 0, 99_999_999_999)).toBe(2_147_483_647);
    expect(reconnectionDelay(options, 3, 5e9)).toBe(2_147_483_647);
  });

  it('grows from the server value on later attempts', () => {
    expect(reconnectionDelay(options, 2, 100)).toBe(225);
  });
});

describe('resolveReconnection', () => {
  it('fills in the documented defaults', () => {
    expect(resolveReconnection({})).toEqual(DEFAULT_RECONNECTION);
    expect(DEFAULT_RECONNECTION).toEqual({
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 30_000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    });
  });

  it('keeps given values and ignores unrelated options', () => {
    const options = { maxRetries: 0, openGetStream: false } as Parameters<typeof resolveReconnection>[0];
    expect(resolveReconnection(options).maxRetries).toBe(0);
  });

  it('rejects values that would spin or never reconnect', () => {
    expect(() => resolveReconnection({ initialReconnectionDelay: -1 })).toThrow(RangeError);
    expect(() => resolveReconnection({ maxRetries: Number.NaN })).toThrow(RangeError);
    expect(() => resolveReconnection({ reconnectionDelayGrowFactor: 0.5 })).toThrow(RangeError);
  });
});
