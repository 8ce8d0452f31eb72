// The compiled shortcut for simple schemas must never change a verdict: for any schema and any
// value, cfworkerValidator agrees with the @cfworker/json-schema interpreter run on its own.
import { validate as interpret } from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../tests/support/fastCheck.js';
import { cfworkerValidator, type JsonSchema } from './index.js';

const validator = cfworkerValidator();
const verdict = (schema: JsonSchema, value: unknown): boolean => validator.compile(schema)(value).valid;
const oracle = (schema: JsonSchema, value: unknown, draft: '2020-12' | '4' = '2020-12'): boolean =>
  interpret(value, structuredClone(schema) as never, draft, undefined, false).valid;

const NAMES = ['a', 'b', 'text', '__proto__', 'long name'];
const TYPE_NAMES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
const scalar = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -5, max: 5, noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);

/** Extra keywords, rarer: value lists the shortcut handles, and keywords it leaves to the interpreter. */
const extras = fc.oneof(
  { arbitrary: fc.constant({}), weight: 6 },
  { arbitrary: fc.record({ enum: fc.array(scalar, { maxLength: 4 }) }), weight: 1 },
  { arbitrary: fc.record({ const: scalar }), weight: 1 },
  { arbitrary: fc.constantFrom({ pattern: '^a' }, { format: 'email' }, { enum: [{}] }), weight: 1 },
);

/** Schemas mostly inside the shortcut's subset, sometimes outside it (pattern, format, anyOf). */
const schemas = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small' },
    fc
      .tuple(
        fc.record(
          {
            type: fc.oneof(fc.constantFrom(...TYPE_NAMES), fc.subarray([...TYPE_NAMES], { minLength: 1 })),
            minLength: fc.nat(3),
            maxLength: fc.nat(5),
            minimum: fc.integer({ min: -3, max: 3 }),
            maximum: fc.integer({ min: -3, max: 3 }),
            exclusiveMinimum: fc.integer({ min: -3, max: 3 }),
            exclusiveMaximum: fc.integer({ min: -3, max: 3 }),
            description: fc.string(),
          },
          { requiredKeys: [] },
        ),
        extras,
      )
      .map(([schema, extra]) => ({ ...schema, ...extra })),
    fc
      .tuple(
        fc.record(
          {
            type: fc.constant('object'),
            properties: fc.dictionary(fc.constantFrom(...NAMES), tie('schema')),
            required: fc.subarray(NAMES),
            additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
            minProperties: fc.nat(2),
            maxProperties: fc.nat(4),
          },
          { requiredKeys: [] },
        ),
        fc.oneof(
          { arbitrary: fc.constant({}), weight: 6 },
          {
            arbitrary: fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
            weight: 1,
          },
        ),
      )
      .map(([schema, extra]) => ({ ...schema, ...extra })),
    fc.record(
      {
        type: fc.constant('array'),
        items: fc.oneof(fc.boolean(), tie('schema')),
        minItems: fc.nat(2),
        maxItems: fc.nat(4),
      },
      { requiredKeys: [] },
    ),
  ),
}));

/** JSON values shaped like what the schemas describe, so that valid values come up often. */
const values = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 4 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
  ),
}));

describe('cfworkerValidator verdicts with the compiled shortcut', () => {
  it('agree with the interpreter for any schema and value', () => {
    assertProperty(
      fc.property(schemas.schema, values.value, (schema, value) => {
        expect(verdict(schema, value)).toBe(oracle(schema, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('agree on draft-04 exclusive bounds, which are booleans there', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'number',
      minimum: 1,
      exclusiveMinimum: true,
    };
    for (const value of [0, 1, 1.5]) expect(verdict(schema, value)).toBe(oracle(schema, value, '4'));
  });

  it('count string length in code points, a lone surrogate as one', () => {
    const schema = { type: 'string', minLength: 2, maxLength: 2 };
    for (const value of ['ab', '😀', '😀😀', '\ud83d', '\ud83da', 'a\ude00', '\ude00\ud83d']) {
      expect(verdict(schema, value)).toBe(oracle(schema, value));
    }
  });

  it('leave values JSON cannot carry to the interpreter, which reads them as JSON', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    expect(verdict(schema, { a: 1, b: undefined })).toBe(true);
    expect(verdict(schema, { a: Number.NaN })).toBe(oracle(schema, { a: Number.NaN }));
    expect(verdict({ type: 'object' }, new Date(0))).toBe(oracle({ type: 'object' }, new Date(0)));
    expect(validator.compile(schema)({ a: undefined }).valid).toBe(false);
  });

  it('still explain failures the shortcut declined', () => {
    const result = validator.compile({ type: 'object', additionalProperties: false })({ extra: 1 });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.issues).toEqual([{ path: '', message: 'unexpected property "extra"' }]);
  });
});
