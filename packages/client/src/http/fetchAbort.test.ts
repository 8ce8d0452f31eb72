import { describe, expect, it } from 'vitest';
import { FetchAbort, isAborted } from './fetchAbort.js';

describe('FetchAbort', () => {
  it('makes no signal until asked, and a signal asked for after abort() is already aborted with the reason', () => {
    const abort = new FetchAbort();
    expect(isAborted(abort)).toBe(false);
    abort.abort('closed');
    expect(isAborted(abort)).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe('closed');
  });

  it('aborts a signal handed out earlier, with an AbortError when no reason is given', () => {
    const abort = new FetchAbort();
    const { signal } = abort;
    abort.abort();
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('AbortError');
    expect(abort.reason).toBe(signal.reason);
  });

  it('tells the current watcher once; a finished fetch cannot unwatch the one that took over', () => {
    const abort = new FetchAbort();
    const told: string[] = [];
    const first = () => told.push('first');
    const second = () => told.push('second');
    abort.watch(first);
    abort.watch(second); // a retry of the same exchange
    abort.unwatch(first); // the first fetch finishes after the retry started
    abort.abort();
    abort.abort();
    expect(told).toEqual(['second']);
  });
});
