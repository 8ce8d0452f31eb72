import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ajvValidator } from './ajv.js';
import { cfworkerValidator, InvalidSchemaError, type JsonSchema, UnsupportedDialectError } from './index.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_06 = 'http://json-schema.org/draft-06/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

interface Case {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly valid: readonly unknown[];
  readonly invalid: readonly unknown[];
  /** The two validators agree on the verdict but word this failure differently. */
  readonly wordingDiffers?: boolean;
}

const echo = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

/** Cases on which the JSON Schema specification leaves no room for the two validators to differ. */
const SHARED_CASES: readonly Case[] = [
  {
    name: 'echo tool arguments',
    schema: echo,
    valid: [{ text: 'hi' }, { text: '', x: 1 }],
    invalid: [{}, { text: 1 }, 'hi', null],
  },
  {
    name: 'closed object',
    schema: { ...echo, additionalProperties: false },
    valid: [{ text: 'a' }],
    invalid: [{ text: 'a', extra: 1 }],
  },
  { name: 'integer', schema: { type: 'integer' }, valid: [1, -3, 2.0], invalid: [1.5, '1', null] },
  { name: 'type list', schema: { type: ['string', 'null'] }, valid: ['a', null], invalid: [1, {}] },
  {
    name: 'enum',
    schema: { enum: ['a', 1, null, { k: 1 }] },
    valid: ['a', 1, null, { k: 1 }],
    invalid: ['b', { k: 2 }],
  },
  { name: 'const', schema: { const: { a: [1, 2] } }, valid: [{ a: [1, 2] }], invalid: [{ a: [2, 1] }] },
  {
    name: 'string lengths',
    schema: { minLength: 2, maxLength: 3 },
    valid: ['ab', 'abc', 7],
    invalid: ['a', 'abcd'],
  },
  { name: 'astral characters count once', schema: { maxLength: 1 }, valid: ['😀'], invalid: ['😀😀'] },
  { name: 'pattern', schema: { pattern: '^[a-z]+$' }, valid: ['abc'], invalid: ['aB', ''] },
  {
    name: 'numeric bounds',
    schema: { minimum: 1, exclusiveMaximum: 10 },
    valid: [1, 9.5],
    invalid: [0.5, 10],
  },
  { name: 'multipleOf decimals', schema: { multipleOf: 0.01 }, valid: [0.07, 19.99], invalid: [0.005] },
  {
    name: 'array bounds',
    schema: { minItems: 1, maxItems: 2, uniqueItems: true },
    valid: [[1], [1, 2]],
    invalid: [[], [1, 2, 3], [1, 1]],
  },
  {
    name: 'contains with minContains',
    schema: { contains: { type: 'string' }, minContains: 2 },
    valid: [['a', 'b', 1]],
    invalid: [['a', 1]],
    wordingDiffers: true,
  },
  {
    name: '2020-12 prefixItems with items false',
    schema: { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    valid: [['a', 1], ['a']],
    invalid: [[1], ['a', 1, 2]],
  },
  {
    name: '2020-12 $defs and $ref with siblings',
    schema: {
      $defs: { pos: { type: 'integer', minimum: 1 } },
      properties: { n: { $ref: '#/$defs/pos', maximum: 9 } },
    },
    valid: [{ n: 1 }, {}],
    invalid: [{ n: 0 }, { n: 10 }, { n: 1.5 }],
  },
  {
    name: '2020-12 recursive $ref',
    schema: {
      $schema: DRAFT_2020,
      $defs: {
        tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/tree' } } } },
      },
      $ref: '#/$defs/tree',
    },
    valid: [{ kids: [{ kids: [] }] }],
    invalid: [{ kids: [{ kids: [1] }] }],
  },
  {
    name: '2020-12 $dynamicRef without extension',
    schema: {
      $ref: '#/$defs/node',
      $defs: {
        node: { $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } },
      },
    },
    valid: [{ next: { next: {} } }],
    invalid: [{ next: { next: 1 } }],
  },
  {
    name: 'unevaluatedProperties',
    schema: { allOf: [{ properties: { a: true } }], unevaluatedProperties: false },
    valid: [{ a: 1 }],
    invalid: [{ a: 1, b: 1 }],
  },
  {
    name: 'dependentRequired and dependentSchemas',
    schema: { dependentRequired: { card: ['cvc'] }, dependentSchemas: { vip: { required: ['level'] } } },
    valid: [{ card: 1, cvc: 2 }, { vip: 1, level: 2 }, {}],
    invalid: [{ card: 1 }, { vip: 1 }],
  },
  {
    name: 'anyOf / oneOf / not',
    schema: {
      anyOf: [{ type: 'string' }, { type: 'number' }],
      oneOf: [{ type: 'number' }, { type: 'string', minLength: 2 }],
      not: { const: 5 },
    },
    valid: ['ab', 4],
    invalid: [true, 'a', 5],
  },
  {
    name: 'if / then / else',
    schema: {
      if: { properties: { kind: { const: 'a' } } },
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here.
      then: { required: ['x'] },
      else: { required: ['y'] },
    },
    valid: [
      { kind: 'a', x: 1 },
      { kind: 'b', y: 1 },
    ],
    invalid: [{ kind: 'a' }, { kind: 'b' }],
  },
  {
    name: 'propertyNames and patternProperties',
    schema: { propertyNames: { maxLength: 3 }, patternProperties: { '^n_': { type: 'number' } } },
    valid: [{ n_a: 1, b: 'x' }],
    invalid: [{ long: 1 }, { n_a: 'x' }],
  },
  {
    name: 'formats',
    schema: {
      properties: {
        email: { format: 'email' },
        when: { format: 'date-time' },
        day: { format: 'date' },
        id: { format: 'uuid' },
        site: { format: 'uri' },
        ip: { format: 'ipv4' },
      },
    },
    valid: [
      {
        email: 'ada@example.com',
        when: '2025-11-25T10:00:00Z',
        day: '2024-02-29',
        id: '123e4567-e89b-12d3-a456-426614174000',
        site: 'https://example.com/a?b=c',
        ip: '127.0.0.1',
      },
    ],
    invalid: [
      { email: 'nope' },
      { when: '2025-11-25 10:00' },
      { day: '2023-02-29' },
      { id: 'xyz' },
      { site: 'not a uri' },
      { ip: '256.0.0.1' },
    ],
  },
  { name: 'boolean false schema', schema: false, valid: [], invalid: [1, null] },
  { name: 'boolean true schema', schema: true, valid: [1, null, {}], invalid: [] },
  {
    name: 'draft-07 definitions, dependencies and tuple items',
    schema: {
      $schema: DRAFT_07,
      definitions: { name: { type: 'string' } },
      properties: {
        name: { $ref: '#/definitions/name' },
        pair: { items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      },
      dependencies: { card: ['cvc'], vip: { required: ['level'] } },
    },
    valid: [
      { name: 'a', pair: ['a', 1] },
      { card: 1, cvc: 1 },
    ],
    invalid: [{ name: 1 }, { pair: ['a', 1, 2] }, { card: 1 }, { vip: true }],
  },
  {
    name: 'draft-07 ignores prefixItems',
    schema: { $schema: DRAFT_07, prefixItems: [{ type: 'string' }] },
    valid: [[1]],
    invalid: [],
  },
  {
    name: 'draft-06',
    schema: {
      $schema: DRAFT_06,
      properties: { n: { exclusiveMinimum: 0 } },
      propertyNames: { pattern: '^[a-z]+$' },
    },
    valid: [{ n: 1 }],
    invalid: [{ n: 0 }, { N: 1 }],
  },
  {
    name: '2019-09 $recursiveRef',
    schema: {
      $schema: DRAFT_2019,
      $recursiveAnchor: true,
      properties: { next: { $recursiveRef: '#' } },
      required: ['v'],
    },
    valid: [{ v: 1, next: { v: 2 } }],
    invalid: [{ v: 1, next: {} }],
  },
];

describe('ajvValidator and cfworkerValidator agree', () => {
  const cfworker = cfworkerValidator();
  const ajv = ajvValidator();

  it.each(SHARED_CASES)('$name', ({ schema, valid, invalid, wordingDiffers }) => {
    const byCfworker = cfworker.compile(schema);
    const byAjv = ajv.compile(schema);
    for (const value of valid) {
      expect(byCfworker(value), `cfworker accepts ${JSON.stringify(value)}`).toEqual({ valid: true, value });
      expect(byAjv(value), `ajv accepts ${JSON.stringify(value)}`).toEqual({ valid: true, value });
    }
    for (const value of invalid) {
      const fromCfworker = byCfworker(value);
      const fromAjv = byAjv(value);
      expect(fromCfworker.valid, `cfworker rejects ${JSON.stringify(value)}`).toBe(false);
      expect(fromAjv.valid, `ajv rejects ${JSON.stringify(value)}`).toBe(false);
      if (!wordingDiffers) expect(fromAjv, `same issues for ${JSON.stringify(value)}`).toEqual(fromCfworker);
    }
  });
});

describe('ajvValidator', () => {
  const ajv = ajvValidator();

  it('words issues like the default validator', () => {
    expect(ajv.compile(echo)({ text: 1 })).toEqual({
      valid: false,
      issues: [{ path: '/text', message: 'must be string, got number' }],
    });
  });

  it('caches the compiled validator per schema object', () => {
    const schema = { type: 'string' };
    expect(ajv.compile(schema)).toBe(ajv.compile(schema));
    expect(ajv.compile({ type: 'string' })).not.toBe(ajv.compile(schema));
  });

  it('compiles two schemas with the same $id', () => {
    expect(ajv.compile({ $id: 'https://example.com/s', type: 'string' })('x').valid).toBe(true);
    expect(ajv.compile({ $id: 'https://example.com/s', type: 'number' })(1).valid).toBe(true);
  });

  it('accepts the https and no-# spellings of draft-07', () => {
    expect(ajv.compile({ $schema: 'https://json-schema.org/draft-07/schema', type: 'string' })(1).valid).toBe(
      false,
    );
  });

  it('refuses draft-04 and unknown dialects with UnsupportedDialectError', () => {
    expect(() => ajv.compile({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(
      UnsupportedDialectError,
    );
    expect(() => ajv.compile({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(
      /cfworkerValidator/,
    );
    expect(() => ajv.compile({ $schema: 'https://example.com/mine' })).toThrow(UnsupportedDialectError);
  });

  it('turns schemas Ajv rejects into InvalidSchemaError', () => {
    expect(() => ajv.compile({ $ref: '#/$defs/missing' })).toThrow(InvalidSchemaError);
    expect(() => ajv.compile({ type: 'no-such-type' })).toThrow(InvalidSchemaError);
  });

  it('honours formats: false and maxIssues', () => {
    expect(ajvValidator({ formats: false }).compile({ format: 'email' })('nope').valid).toBe(true);
    const result = ajvValidator({ maxIssues: 1 }).compile({ required: ['a', 'b'] })({});
    expect(result).toEqual({
      valid: false,
      issues: [
        { path: '', message: 'missing required property "a"' },
        { path: '', message: '1 more issue(s) not shown' },
      ],
    });
  });
});

describe('bundle boundary', () => {
  it('the main entry point never loads Ajv and needs no Node built-ins', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['@mcpkit/source'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('@cfworker/json-schema'))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/ajv/.test(input))).toEqual([]);
  });
});
