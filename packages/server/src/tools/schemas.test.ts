import { UnsupportedDialectError } from '@mcpkit/core';
import { defaultValidator } from '@mcpkit/schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareObjectSchema } from './schemas.js';

const validator = defaultValidator();

describe('prepareObjectSchema', () => {
  it('lists a raw JSON Schema as written, as a copy the caller cannot change afterwards', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
    };
    const prepared = prepareObjectSchema(schema, 'input', validator, 'Tool "x" inputSchema');
    expect(JSON.stringify(prepared.json)).toBe(JSON.stringify(schema));
    schema.additionalProperties = true;
    expect(prepared.json.additionalProperties).toBe(false);
    expect(prepared.validate({ extra: 1 })).toMatchObject({ valid: false });
  });

  it('validates a Standard Schema with its own library (defaults applied) and lists its JSON Schema', async () => {
    const prepared = prepareObjectSchema(z.object({ n: z.number().default(1) }), 'input', validator, 'x');
    expect(prepared.json).toMatchObject({
      type: 'object',
      properties: { n: { type: 'number', default: 1 } },
    });
    expect(await prepared.validate({})).toEqual({ valid: true, value: { n: 1 } });
  });

  it('describes output schemas by what validation produces', () => {
    const prepared = prepareObjectSchema(z.object({ n: z.number().default(1) }), 'output', validator, 'x');
    expect(prepared.json.required).toEqual(['n']);
  });

  it('names the schema in every registration error and keeps the cause', () => {
    expect(() => prepareObjectSchema({ type: 'string' }, 'input', validator, 'Tool "x" inputSchema')).toThrow(
      'Tool "x" inputSchema must describe an object: its root needs "type": "object" (got "string")',
    );
    expect(() => prepareObjectSchema({ properties: {} }, 'input', validator, 'T')).toThrow(/got no type/);
    let caught: unknown;
    try {
      prepareObjectSchema(
        { $schema: 'https://example.com/my-dialect', type: 'object' },
        'input',
        validator,
        'T',
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as Error).message).toMatch(
      /^T: Unsupported JSON Schema dialect "https:\/\/example.com\/my-dialect"/,
    );
    expect((caught as Error).cause).toBeInstanceOf(UnsupportedDialectError);
    expect(() =>
      prepareObjectSchema(
        { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
        'input',
        validator,
        'T',
      ),
    ).toThrow(/^T: /);
    expect(() => prepareObjectSchema([] as never, 'input', validator, 'T')).toThrow(
      /Standard Schema .* or a JSON Schema/,
    );
  });
});
