import { describe, expect, it, vi } from 'vitest';
import { pollTaskUntilDone } from './internal.js';
import type { Task } from './protocol/types.js';
import { MAX_TIMER_DELAY, timerDelay } from './timerDelay.js';

describe('timerDelay', () => {
  it('passes delays a timer honours and caps the rest', () => {
    expect(timerDelay(250)).toBe(250);
    expect(timerDelay(0)).toBe(0);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
    expect(timerDelay(1e12)).toBe(MAX_TIMER_DELAY);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_DELAY);
  });
});

// Regression: a receiver's `pollInterval` of 1e12 ms went to setTimeout as it was, which fires it
// after 1 ms: a hostile server could make the requestor poll `tasks/get` a thousand times a second.
describe('pollTaskUntilDone with a pollInterval past what timers take', () => {
  it('waits the longest a timer can, not 1 ms', async () => {
    const setTimeout = vi.spyOn(globalThis, 'setTimeout');
    const task: Task = {
      taskId: 't1',
      status: 'working',
      createdAt: new Date().toISOString(),
      lastUpdatedAt: new Date().toISOString(),
      ttl: null,
      pollInterval: 1e12,
    };
    const abort = new AbortController();
    const polled = pollTaskUntilDone({ get: async () => task }, { initial: task, signal: abort.signal });
    await Promise.resolve();
    abort.abort(new Error('stop'));
    await expect(polled).rejects.toThrow('stop');
    const delays = setTimeout.mock.calls.map((call) => call[1]);
    setTimeout.mockRestore();
    expect(delays).toContain(MAX_TIMER_DELAY);
    expect(delays.every((delay) => (delay ?? 0) <= MAX_TIMER_DELAY)).toBe(true);
  });
});
