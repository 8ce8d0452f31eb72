import { describe, expect, it } from 'vitest';
import { formatIssues, isPlainObject, isPromiseLike, isRecord, toError } from './internal.js';

describe('formatIssues', () => {
  const issues = [
    { path: '', message: 'a' },
    { path: '/x/0', message: 'b' },
  ];

  it('writes one line per issue as a list, the root as (root)', () => {
    expect(formatIssues(issues, 'list')).toBe('- (root): a\n- /x/0: b');
  });

  it('joins issues on one line, the root as /', () => {
    expect(formatIssues(issues, 'inline')).toBe('/: a; /x/0: b');
  });

  it('names paths with the given function', () => {
    expect(formatIssues(issues, 'inline', (pointer) => pointer.slice(1) || 'arguments')).toBe(
      'arguments: a; x/0: b',
    );
  });
});

describe('shared guards', () => {
  it('tells records from arrays and null, and plain objects from class instances', () => {
    expect([isRecord({}), isRecord(new Date()), isRecord([]), isRecord(null)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([isPlainObject({}), isPlainObject(Object.create(null)), isPlainObject(new Date())]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('knows thenables, native or foreign', () => {
    expect(isPromiseLike(Promise.resolve(1))).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a foreign thenable is what this checks.
    expect(isPromiseLike({ then: () => {} })).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a `then` that is not a function.
    expect(isPromiseLike({ then: 1 })).toBe(false);
    expect(isPromiseLike(null)).toBe(false);
  });

  it('turns anything thrown into an Error without throwing itself', () => {
    const error = new Error('x');
    expect(toError(error)).toBe(error);
    expect(toError('boom').message).toBe('boom');
    expect(toError(Object.create(null)).message).toBe('A handler threw a non-Error value (object)');
  });
});
