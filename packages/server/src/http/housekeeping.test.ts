import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionRegistry } from './delivery/sse.js';
import { Housekeeping } from './housekeeping.js';

afterEach(() => {
  vi.restoreAllMocks();
});

// Regression: a keep-alive interval past what timers take (2^31 - 1 ms, about 24.8 days) reached
// `setInterval` as it was, and Node fires such a timer after 1 ms, again and again.
describe('Housekeeping', () => {
  it('never asks setInterval for more than 2^31 - 1 ms', () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const housekeeping = new Housekeeping(5e9, 5e9, new Set() as ConnectionRegistry, undefined);
    housekeeping.wake();
    housekeeping.stop();
    expect(setInterval).toHaveBeenCalledTimes(1);
    expect(setInterval.mock.calls[0]?.[1]).toBe(2_147_483_647);
  });

  it('starts no timer when it would never tick', () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    new Housekeeping(
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      new Set() as ConnectionRegistry,
      undefined,
    ).wake();
    expect(setInterval).not.toHaveBeenCalled();
  });
});
