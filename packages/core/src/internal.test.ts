import { describe, expect, it } from 'vitest';
import {
  addListener,
  copyOwn,
  formatIssues,
  isPlainObject,
  isPromiseLike,
  isRecord,
  toError,
} from './internal.js';

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

describe('copyOwn', () => {
  it('copies own members in order, an own __proto__ as data, never as the prototype', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":2}') as Record<string, unknown>;
    const copy = copyOwn(source);
    expect(Object.keys(copy)).toEqual(['a', '__proto__', 'b']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
  });
});

describe('addListener', () => {
  it('keeps listeners per key in the order added, each removed by its own function', () => {
    const byKey = new Map<string, Set<(value: string) => void>>();
    const heard: string[] = [];
    const stopA = addListener(byKey, 'x', (value) => heard.push(`a:${value}`));
    addListener(byKey, 'x', (value) => heard.push(`b:${value}`));
    addListener(byKey, 'y', (value) => heard.push(`c:${value}`));
    for (const listener of byKey.get('x') ?? []) listener('1');
    stopA();
    for (const listener of byKey.get('x') ?? []) listener('2');
    expect(heard).toEqual(['a:1', 'b:1', 'b:2']);
    expect(byKey.get('y')?.size).toBe(1);
  });
});
