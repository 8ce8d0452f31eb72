import { describe, expect, it } from 'vitest';
import {
  cfworkerValidator,
  defaultValidator,
  InvalidSchemaError,
  type JsonSchema,
  UnsupportedDialectError,
  type ValidationResult,
} from './index.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

const validator = cfworkerValidator();
const check = (schema: JsonSchema, value: unknown): ValidationResult => validator.compile(schema)(value);
const verdict = (schema: JsonSchema, value: unknown): boolean => check(schema, value).valid;
const issuesOf = (result: ValidationResult) => (result.valid ? [] : result.issues);

describe('cfworkerValidator dialects', () => {
  it('reads a schema without $schema as 2020-12', () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect(verdict(tuple, ['a', 1])).toBe(true);
    expect(verdict(tuple, [1, 'a'])).toBe(false);
    expect(verdict(tuple, ['a', 1, 2])).toBe(false);
  });

  it('resolves 2020-12 $defs references and evaluates $ref siblings', () => {
    const schema = {
      $schema: DRAFT_2020,
      $defs: { positive: { type: 'integer', minimum: 1 } },
      type: 'object',
      properties: { n: { $ref: '#/$defs/positive', maximum: 10 } },
    };
    expect(verdict(schema, { n: 5 })).toBe(true);
    expect(verdict(schema, { n: 0 })).toBe(false);
    expect(verdict(schema, { n: 11 })).toBe(false);
  });

  it('ignores keywords 2020-12 does not define (additionalItems) and honours unevaluatedProperties', () => {
    expect(verdict({ prefixItems: [true], additionalItems: false }, [1, 2, 3])).toBe(true);
    const closed = { allOf: [{ properties: { a: true } }], unevaluatedProperties: false };
    expect(verdict(closed, { a: 1 })).toBe(true);
    expect(verdict(closed, { a: 1, b: 2 })).toBe(false);
  });

  it('reads a draft-07 tuple written as items: [...] in a 2020-12 schema as prefixItems', () => {
    const schema = { type: 'array', items: [{ type: 'string' }], additionalItems: false };
    expect(verdict(schema, ['a'])).toBe(true);
    expect(verdict(schema, [1])).toBe(false);
    expect(verdict(schema, ['a', 'b'])).toBe(false);
  });

  it('resolves a 2020-12 $dynamicRef to its $dynamicAnchor', () => {
    const tree = {
      $schema: DRAFT_2020,
      $ref: '#/$defs/node',
      $defs: {
        node: {
          $dynamicAnchor: 'node',
          type: 'object',
          properties: { children: { type: 'array', items: { $dynamicRef: '#node' } } },
        },
      },
    };
    expect(verdict(tree, { children: [{ children: [] }] })).toBe(true);
    expect(check(tree, { children: [{ children: [1] }] })).toEqual({
      valid: false,
      issues: [{ path: '/children/0/children/0', message: 'must be object, got number' }],
    });
  });

  it('honours draft-07 semantics: definitions, dependencies, items arrays, $ref siblings ignored', () => {
    const schema = {
      $schema: DRAFT_07,
      definitions: { name: { type: 'string', minLength: 1 } },
      type: 'object',
      properties: {
        name: { $ref: '#/definitions/name', type: 'number' },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      },
      dependencies: { card: ['billing'], vip: { required: ['level'] } },
    };
    expect(verdict(schema, { name: 'ada' })).toBe(true);
    expect(verdict(schema, { name: '' })).toBe(false);
    expect(verdict(schema, { pair: ['x', 1] })).toBe(true);
    expect(verdict(schema, { pair: ['x', 1, true] })).toBe(false);
    expect(verdict(schema, { card: 1 })).toBe(false);
    expect(verdict(schema, { card: 1, billing: 'x' })).toBe(true);
    expect(verdict(schema, { vip: true })).toBe(false);
    expect(verdict(schema, { vip: true, level: 3 })).toBe(true);
  });

  it('ignores 2019+ keywords in a draft-07 schema', () => {
    const schema = {
      $schema: DRAFT_07,
      prefixItems: [{ type: 'string' }],
      dependentRequired: { a: ['b'] },
      unevaluatedProperties: false,
    };
    expect(verdict(schema, [1])).toBe(true);
    expect(verdict(schema, { a: 1, z: 2 })).toBe(true);
  });

  it('accepts the https and no-# spellings of draft-07', () => {
    expect(verdict({ $schema: 'https://json-schema.org/draft-07/schema', type: 'string' }, 1)).toBe(false);
  });

  it('honours 2019-09 $recursiveRef and items arrays, and ignores prefixItems', () => {
    const schema = {
      $schema: DRAFT_2019,
      $recursiveAnchor: true,
      type: 'object',
      properties: {
        next: { $recursiveRef: '#' },
        pair: { items: [{ type: 'string' }], prefixItems: [false] },
      },
    };
    expect(verdict(schema, { next: { next: {} }, pair: ['x'] })).toBe(true);
    expect(verdict(schema, { next: { next: 1 } })).toBe(false);
    expect(verdict(schema, { pair: [1] })).toBe(false);
  });

  it('honours draft-06 without if/then/else and draft-04 boolean exclusiveMinimum', () => {
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here.
    const draft06 = { $schema: 'http://json-schema.org/draft-06/schema#', if: true, then: false, const: 1 };
    expect(verdict(draft06, 1)).toBe(true);
    expect(verdict(draft06, 2)).toBe(false);
    const draft04 = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      minimum: 3,
      exclusiveMinimum: true,
    };
    expect(verdict(draft04, 3)).toBe(false);
    expect(verdict(draft04, 3.5)).toBe(true);
    expect(check(draft04, 3)).toEqual({ valid: false, issues: [{ path: '', message: 'must be > 3' }] });
  });

  it('throws UnsupportedDialectError from compile for an unknown $schema, naming it', () => {
    const custom = { $schema: 'https://example.com/my-dialect', type: 'object' };
    expect(() => validator.compile(custom)).toThrow(UnsupportedDialectError);
    expect(() => validator.compile(custom)).toThrow(/https:\/\/example\.com\/my-dialect/);
  });
});

describe('cfworkerValidator issues', () => {
  const echo = {
    type: 'object',
    properties: {
      text: { type: 'string' },
      mode: { type: 'string' },
      count: { type: 'integer', minimum: 1 },
    },
    required: ['text', 'mode'],
    additionalProperties: false,
  };

  it('returns the value itself when valid', () => {
    const value = { text: 'hi', mode: 'x' };
    const result = check({ ...echo, additionalProperties: true }, value);
    expect(result).toEqual({ valid: true, value });
    expect(result.valid && result.value).toBe(value);
  });

  it('points at the failing property and says what was expected', () => {
    expect(issuesOf(check(echo, { text: 1, mode: 'x', count: 0 }))).toEqual([
      { path: '/text', message: 'must be string, got number' },
      { path: '/count', message: 'must be >= 1' },
    ]);
  });

  it('names each missing required property and each unexpected one', () => {
    expect(issuesOf(check(echo, { extra: true }))).toEqual([
      { path: '', message: 'missing required property "text"' },
      { path: '', message: 'missing required property "mode"' },
      { path: '', message: 'unexpected property "extra"' },
    ]);
  });

  it('escapes property names in paths as JSON Pointers', () => {
    const schema = {
      properties: { 'a/b': { type: 'string' }, 'c d': { type: 'string' }, 'e~f': { type: 'string' } },
    };
    expect(issuesOf(check(schema, { 'a/b': 1, 'c d': 1, 'e~f': 1 })).map((issue) => issue.path)).toEqual([
      '/a~1b',
      '/c d',
      '/e~0f',
    ]);
  });

  it.each<[string, JsonSchema, unknown, string]>([
    ['enum', { enum: ['red', 'green'] }, 'blue', 'must be one of "red", "green"'],
    ['const', { const: 'on' }, 'off', 'must equal "on"'],
    ['minLength', { minLength: 3 }, 'ab', 'must be at least 3 characters long'],
    ['maxItems', { maxItems: 1 }, [1, 2], 'must have at most 1 item'],
    ['pattern', { pattern: '^[a-z]+$' }, 'A1', 'must match pattern "^[a-z]+$"'],
    ['format', { format: 'email' }, 'not-an-email', 'must be a valid email'],
    ['format date-time', { format: 'date-time' }, '2025-13-01T00:00:00Z', 'must be a valid date-time'],
    ['multipleOf', { multipleOf: 5 }, 7, 'must be a multiple of 5'],
    ['exclusiveMaximum', { exclusiveMaximum: 3 }, 3, 'must be < 3'],
    ['uniqueItems', { uniqueItems: true }, [1, 1], 'must not contain duplicate items'],
    ['type list', { type: ['string', 'null'] }, 1, 'must be string or null, got number'],
    [
      'anyOf',
      { anyOf: [{ type: 'string' }, { type: 'number' }] },
      true,
      'must match at least one of the allowed schemas (anyOf)',
    ],
    [
      'oneOf',
      { oneOf: [{ type: 'number' }, { type: 'integer' }] },
      1,
      'must match exactly one of the allowed schemas (oneOf)',
    ],
    ['not', { not: { type: 'string' } }, 'x', 'must not match the schema in "not"'],
    [
      'dependentRequired',
      { dependentRequired: { card: ['cvc'] } },
      { card: 1 },
      'property "card" requires property "cvc"',
    ],
    ['propertyNames', { propertyNames: { maxLength: 2 } }, { long: 1 }, 'invalid property name "long"'],
    ['tuple length', { prefixItems: [true], items: false }, [1, 2, 3], 'must have at most 1 item'],
    ['false schema', false, 1, 'no value is allowed here'],
  ])('words a %s failure for a model', (_name, schema, value, message) => {
    expect(issuesOf(check(schema, value))).toEqual([{ path: '', message }]);
  });

  it('reports failures inside if/then, $ref and additionalProperties schemas at their own path', () => {
    const schema = {
      $defs: { port: { type: 'integer' } },
      properties: { port: { $ref: '#/$defs/port' } },
      additionalProperties: { type: 'string' },
      if: { properties: { kind: { const: 'tcp' } }, required: ['kind'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here.
      then: { required: ['port'] },
    };
    expect(issuesOf(check(schema, { kind: 'tcp' }))).toEqual([
      { path: '', message: 'missing required property "port"' },
    ]);
    expect(issuesOf(check(schema, { port: 'x', kind: 'udp', other: 1 }))).toEqual([
      { path: '/port', message: 'must be integer, got string' },
      { path: '/other', message: 'must be string, got number' },
    ]);
  });

  it('stops at maxIssues and says how many were left out', () => {
    const many = { required: Array.from({ length: 5 }, (_, index) => `p${index}`) };
    expect(issuesOf(cfworkerValidator({ maxIssues: 2 }).compile(many)({}))).toEqual([
      { path: '', message: 'missing required property "p0"' },
      { path: '', message: 'missing required property "p1"' },
      { path: '', message: '3 more issue(s) not shown' },
    ]);
    expect(() => cfworkerValidator({ maxIssues: 0 })).toThrow(RangeError);
  });

  it('stops at the first failing property when allErrors is false', () => {
    const strict = cfworkerValidator({ allErrors: false }).compile({
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    });
    expect(issuesOf(strict({ a: 1, b: 2 }))).toHaveLength(1);
  });

  it('skips format checks when formats is false', () => {
    expect(cfworkerValidator({ formats: false }).compile({ format: 'email' })('nope').valid).toBe(true);
  });

  it('treats undefined properties as absent and rejects values JSON cannot carry', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['m'] };
    expect(issuesOf(check(schema, { n: undefined }))).toEqual([
      { path: '', message: 'missing required property "m"' },
    ]);
    expect(check({ type: 'object' }, { m: 1, n: undefined }).valid).toBe(true);
    expect(issuesOf(check(schema, undefined))).toEqual([{ path: '', message: 'a value is required' }]);
    expect(issuesOf(check({ properties: { n: { type: 'number' } } }, { n: 10n }))).toEqual([
      { path: '', message: 'must be JSON data' },
    ]);
  });
});

describe('cfworkerValidator compile', () => {
  it('never modifies the schema it is given, so frozen schemas compile', () => {
    const schema = deepFreeze({
      $schema: DRAFT_2020,
      $defs: { s: { type: 'string' } },
      properties: { a: { $ref: '#/$defs/s' } },
      additionalProperties: false,
    });
    const before = JSON.stringify(schema);
    const validate = validator.compile(schema);
    expect(validate({ a: 'x' }).valid).toBe(true);
    expect(validate({ a: 1 }).valid).toBe(false);
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema.$defs.s)).toEqual(['type']);
  });

  it('fails at compile, not at validation, on an unresolvable $ref or a bad pattern', () => {
    expect(() => validator.compile({ $ref: '#/$defs/missing' })).toThrow(InvalidSchemaError);
    expect(() => validator.compile({ $ref: 'https://example.com/remote.json' })).toThrow(/remote references/);
    expect(() => validator.compile({ properties: { a: { pattern: '(' } } })).toThrow(
      /Invalid regular expression "\(" \(at schema \/properties\/a\/pattern\)/,
    );
    expect(() => validator.compile({ patternProperties: { '[': true } })).toThrow(InvalidSchemaError);
  });

  it('resolves $ref by $id across embedded resources', () => {
    const schema = {
      $id: 'https://example.com/root',
      properties: { b: { $ref: 'b' } },
      $defs: { b: { $id: 'https://example.com/b', type: 'string' } },
    };
    expect(verdict(schema, { b: 'x' })).toBe(true);
    expect(issuesOf(check(schema, { b: 1 }))).toEqual([
      { path: '/b', message: 'must be string, got number' },
    ]);
  });

  it('compiles the same $id twice without conflict', () => {
    const schema = { $id: 'https://example.com/same', type: 'string' };
    expect(validator.compile(schema)('x').valid).toBe(true);
    expect(validator.compile({ ...schema, type: 'number' })(1).valid).toBe(true);
  });

  it('refuses a cyclic schema object instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(() => validator.compile(cyclic)).toThrow(/nested too deeply/);
  });

  it('validates boolean schemas', () => {
    expect(verdict(true, { anything: 1 })).toBe(true);
    expect(verdict(false, null)).toBe(false);
  });
});

describe('defaultValidator', () => {
  it('is one shared cfworker validator', () => {
    expect(defaultValidator()).toBe(defaultValidator());
    expect(defaultValidator().compile({ type: 'string', format: 'uuid' })('nope').valid).toBe(false);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

describe('cfworkerValidator and hostile property names', () => {
  it('keeps a property named __proto__ as a property of the schema copy', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    );
    const validate = validator.compile(schema);
    expect(validate(JSON.parse('{"__proto__":"x"}')).valid).toBe(true);
    expect(issuesOf(validate(JSON.parse('{"__proto__":1}')))).toEqual([
      { path: '/__proto__', message: 'must be string, got number' },
    ]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
