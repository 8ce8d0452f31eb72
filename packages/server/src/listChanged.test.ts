import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListChangedNotifier, type ListKind, mergeConfig } from './listChanged.js';

describe('ListChangedNotifier', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('coalesces changes within the window into one flush listing each kind once', () => {
    vi.useFakeTimers();
    const flushes: ListKind[][] = [];
    const notifier = new ListChangedNotifier(10, (kinds) => flushes.push([...kinds]));
    notifier.changed('tools');
    notifier.changed('tools');
    notifier.changed('prompts');
    vi.advanceTimersByTime(9);
    expect(flushes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushes).toEqual([['tools', 'prompts']]);
    notifier.changed('resources');
    vi.advanceTimersByTime(10);
    expect(flushes).toEqual([['tools', 'prompts'], ['resources']]);
  });

  it('flushes at once on request and drops pending changes when cancelled', () => {
    vi.useFakeTimers();
    const flush = vi.fn();
    const notifier = new ListChangedNotifier(50, flush);
    notifier.changed('tools');
    notifier.flushNow();
    expect(flush).toHaveBeenCalledWith(['tools']);
    notifier.changed('prompts');
    notifier.cancel();
    vi.advanceTimersByTime(100);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('refuses a negative window', () => {
    expect(() => new ListChangedNotifier(-1, () => {})).toThrow(RangeError);
  });
});

describe('mergeConfig', () => {
  it('removes members set to undefined, keeps the others, and skips the listed ones', () => {
    expect(
      mergeConfig({ title: 'A', description: 'B', size: 1 }, { description: undefined, size: 2, name: 'x' }, [
        'name',
      ]),
    ).toEqual({ title: 'A', size: 2 });
  });
});
