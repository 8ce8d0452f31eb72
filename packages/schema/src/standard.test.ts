import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defaultValidator,
  type JsonSchema,
  SchemaConversionError,
  type StandardSchemaV1,
  standardValidator,
  toJsonSchema,
  validateStandard,
  withJsonSchema,
} from './index.js';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

describe('toJsonSchema with raw JSON Schema', () => {
  it('returns the very same object, with $schema, $defs and additionalProperties untouched', () => {
    const raw = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $defs: { name: { type: 'string' } },
      type: 'object',
      properties: { name: { $ref: '#/$defs/name' } },
      additionalProperties: { type: 'number' },
    };
    const snapshot = structuredClone(raw);
    const converted = toJsonSchema(raw);
    expect(converted).toBe(raw);
    expect(converted).toStrictEqual(snapshot);
  });

  it('passes boolean and frozen schemas through', () => {
    const frozen = Object.freeze({ type: 'string' });
    expect(toJsonSchema(frozen)).toBe(frozen);
    expect(toJsonSchema(true)).toBe(true);
    expect(toJsonSchema(false)).toBe(false);
  });

  it('rejects values that are no schema at all', () => {
    for (const notASchema of [null, 'string', 3, ['type']]) {
      expect(() => toJsonSchema(notASchema as unknown as JsonSchema)).toThrow(TypeError);
    }
  });
});

describe('toJsonSchema with zod 4', () => {
  const Echo = z.object({ text: z.string().min(1), count: z.number().int().optional() });

  it('converts through ~standard.jsonSchema to 2020-12', () => {
    const schema = toJsonSchema(Echo) as Record<string, unknown>;
    expect(schema.$schema).toBe(DRAFT_2020);
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['text']);
    expect(schema.properties).toMatchObject({
      text: { type: 'string', minLength: 1 },
      count: { type: 'integer' },
    });
  });

  it('produces a schema the default validator enforces like zod does', () => {
    const check = defaultValidator().compile(toJsonSchema(Echo));
    for (const value of [
      { text: 'hi' },
      { text: 'hi', count: 2 },
      { text: '' },
      { count: 1 },
      { text: 'a', count: 1.5 },
    ]) {
      expect(check(value).valid, JSON.stringify(value)).toBe(Echo.safeParse(value).success);
    }
  });

  it('describes the input or the output side of a transform', () => {
    const Port = z.string().transform(Number);
    expect(toJsonSchema(Port)).toMatchObject({ type: 'string' });
    expect(() => toJsonSchema(Port, { io: 'output' })).toThrow(SchemaConversionError);
    expect(toJsonSchema(z.object({ n: z.number().default(1) }), { io: 'output' })).toMatchObject({
      required: ['n'],
    });
  });

  it('explains how to fix a schema zod cannot express', () => {
    const convert = () => toJsonSchema(z.object({ at: z.date() }));
    expect(convert).toThrow(SchemaConversionError);
    expect(convert).toThrow(/zod schema cannot be converted .*Date.*withJsonSchema/);
  });

  it('falls back to .toJSONSchema() when ~standard.jsonSchema is missing (zod before 4.2)', () => {
    const { jsonSchema: _converter, ...props } = Echo['~standard'];
    expect(toJsonSchema(withStandardProps(Echo, props))).toEqual(toJsonSchema(Echo));
  });
});

describe('toJsonSchema with arktype 2', () => {
  const Echo = type({ text: 'string', 'count?': 'number.integer' });

  it('converts through ~standard.jsonSchema', () => {
    expect(toJsonSchema(Echo)).toEqual({
      $schema: DRAFT_2020,
      type: 'object',
      properties: { text: { type: 'string' }, count: { type: 'integer' } },
      required: ['text'],
    });
  });

  it('falls back to .toJsonSchema() when ~standard.jsonSchema is missing', () => {
    const { jsonSchema: _converter, ...props } = Echo['~standard'] as (typeof Echo)['~standard'] & {
      jsonSchema: unknown;
    };
    expect(toJsonSchema(withStandardProps(Echo, props))).toEqual(toJsonSchema(Echo));
  });
});

describe('toJsonSchema with valibot', () => {
  const Echo = v.object({ text: v.string(), count: v.optional(v.pipe(v.number(), v.integer())) });
  const echoJson = {
    type: 'object',
    properties: { text: { type: 'string' }, count: { type: 'integer' } },
    required: ['text'],
  };

  it('explains that plain valibot schemas need @valibot/to-json-schema', () => {
    // @ts-expect-error an unwrapped valibot schema is a type error too; plain JavaScript gets this message
    const convert = () => toJsonSchema(Echo);
    expect(convert).toThrow(SchemaConversionError);
    expect(convert).toThrow(/toStandardJsonSchema\(schema\) from "@valibot\/to-json-schema"/);
  });

  it('converts a schema wrapped with toStandardJsonSchema', () => {
    expect(toJsonSchema(toStandardJsonSchema(Echo))).toEqual({ ...echoJson, $schema: DRAFT_2020 });
  });

  it('uses a JSON Schema attached with withJsonSchema and still validates with valibot', async () => {
    const Attached = withJsonSchema(Echo, echoJson);
    expect(toJsonSchema(Attached)).toBe(echoJson);
    expect(await standardValidator(Attached)({ text: 'hi' })).toEqual({ valid: true, value: { text: 'hi' } });
    expect(await standardValidator(Attached)({ text: 1 })).toMatchObject({
      valid: false,
      issues: [{ path: '/text' }],
    });
  });

  it('gives withJsonSchema a separate output schema when one is passed', () => {
    const Attached = withJsonSchema(Echo, echoJson, true);
    expect(toJsonSchema(Attached, { io: 'output' })).toEqual({});
  });
});

describe('toJsonSchema with other libraries', () => {
  const bare: StandardSchemaV1 = {
    '~standard': { version: 1, vendor: 'acme', validate: (value) => ({ value }) },
  };

  it('says the library lacks the Standard JSON Schema interface', () => {
    expect(() => toJsonSchema(bare)).toThrow(
      /acme schema does not implement the Standard JSON Schema interface/,
    );
  });

  it('reports a converter that returns something other than an object', () => {
    const broken = {
      '~standard': { ...bare['~standard'], jsonSchema: { input: () => 'nope', output: () => 'nope' } },
    };
    expect(() => toJsonSchema(broken as unknown as StandardSchemaV1)).toThrow(
      /returned a string instead of an object/,
    );
  });
});

describe('standardValidator and validateStandard', () => {
  it('validate synchronously when the library does, returning its output value', () => {
    const Args = z.object({ port: z.string().transform(Number), tags: z.array(z.string()).default([]) });
    const result = standardValidator(Args)({ port: '80' });
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ valid: true, value: { port: 80, tags: [] } });
  });

  it('map issue paths of zod, arktype and valibot to JSON Pointers', () => {
    const value = { a: { 'b/c': [1] } };
    const zod = z.object({ a: z.object({ 'b/c': z.array(z.string()) }) });
    const ark = type({ a: { 'b/c': 'string[]' } });
    const vali = v.object({ a: v.object({ 'b/c': v.array(v.string()) }) });
    for (const schema of [zod, ark, vali] as StandardSchemaV1[]) {
      const result = validateStandard(schema, value);
      expect(result).not.toBeInstanceOf(Promise);
      expect(result).toMatchObject({
        valid: false,
        issues: [{ path: '/a/b~1c/0', message: expect.any(String) }],
      });
    }
  });

  it('return a Promise when the library validates asynchronously', async () => {
    const Name = z.string().refine(async (name) => name !== 'taken', 'name is taken');
    const check = standardValidator(Name);
    const pending = check('taken');
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ valid: false, issues: [{ path: '', message: 'name is taken' }] });
    expect(await validateStandard(Name, 'free')).toEqual({ valid: true, value: 'free' });
  });

  it('refuses something that is not a Standard Schema', () => {
    expect(() => standardValidator({ type: 'string' } as unknown as StandardSchemaV1)).toThrow(TypeError);
  });
});

/** A schema that inherits everything from `schema` but has different `~standard` props (an older release). */
function withStandardProps(schema: object, props: object): StandardSchemaV1 {
  return Object.defineProperty(Object.create(schema), '~standard', { value: props }) as StandardSchemaV1;
}
