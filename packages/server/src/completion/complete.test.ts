import { describe, expect, it } from 'vitest';
import { checkCompleters, MAX_COMPLETION_VALUES, toCompleteResult } from './complete.js';

describe('toCompleteResult', () => {
  it('sends every value, total and hasMore: false when there are at most 100', () => {
    expect(toCompleteResult(['a', 'b'])).toEqual({
      completion: { values: ['a', 'b'], total: 2, hasMore: false },
    });
    expect(toCompleteResult([])).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it('truncates to 100 values, keeping the full count', () => {
    const values = Array.from({ length: 101 }, (_, i) => `v${i}`);
    const { completion } = toCompleteResult(values);
    expect(completion.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(completion.values.at(-1)).toBe('v99');
    expect(completion.total).toBe(101);
    expect(completion.hasMore).toBe(true);
  });

  it('honours an explicit total and hasMore', () => {
    expect(toCompleteResult({ values: ['a'], total: 5000 }).completion).toEqual({
      values: ['a'],
      total: 5000,
      hasMore: true,
    });
    expect(toCompleteResult({ values: ['a'], hasMore: true }).completion).toEqual({
      values: ['a'],
      total: 1,
      hasMore: true,
    });
  });

  it('refuses anything but strings', () => {
    expect(() => toCompleteResult([1] as never)).toThrow(TypeError);
    expect(() => toCompleteResult({ values: 'a' } as never)).toThrow(TypeError);
  });
});

describe('checkCompleters', () => {
  it('accepts completers of known arguments only', () => {
    checkCompleters('P', { a: () => [], b: undefined }, ['a']);
    expect(() => checkCompleters('P', { c: () => [] }, ['a', 'b'])).toThrow(
      'P: cannot complete "c": it is not one of its arguments ("a", "b")',
    );
    expect(() => checkCompleters('P', { a: 'x' }, ['a'])).toThrow(/must be a function/);
  });
});
