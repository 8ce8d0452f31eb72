/**
 * Standard Schema support: turning a zod 4 / valibot / arktype schema into the JSON Schema a peer
 * sees, and validating with the library's own `~standard.validate`.
 *
 * Nothing here imports a schema library: everything is read off the schema object (duck typing),
 * preferably through the Standard JSON Schema interface (`~standard.jsonSchema`).
 * @module
 */

import type { JsonSchema, StandardSchemaV1, ValidationIssue, ValidationResult } from '@mcpkit/core';
import { isPromiseLike, isStandardSchema } from '@mcpkit/core/internal';
import { escapePointerSegment } from './issues.js';
import type { RequireJsonSchemaConverter } from './types.js';

/**
 * Which side of a transforming schema to describe.
 *
 * @example
 * ```ts
 * const side: SchemaSide = 'output';
 * toJsonSchema(z.string().default('x'), { io: side });
 * ```
 */
export type SchemaSide = 'input' | 'output';

/**
 * Options for {@link toJsonSchema}.
 *
 * @example
 * ```ts
 * const Result = z.object({ sum: z.number() });
 * const outputSchema = toJsonSchema(Result, { io: 'output' } satisfies ToJsonSchemaOptions);
 * ```
 */
export interface ToJsonSchemaOptions {
  /**
   * `'input'` (default) describes what a caller must send: right for a tool's `inputSchema`.
   * `'output'` describes what validation produces: right for an `outputSchema` whose values are
   * the parsed result.
   */
  readonly io?: SchemaSide;
}

/**
 * The Standard JSON Schema converter (standardschema.dev, `StandardJSONSchemaV1`), which zod 4,
 * arktype 2 and `@valibot/to-json-schema`'s `toStandardJsonSchema` expose on `~standard.jsonSchema`.
 *
 * @example
 * ```ts
 * const converter: StandardJsonSchemaConverter = z.string()['~standard'].jsonSchema;
 * converter.input({ target: 'draft-2020-12' }); // { $schema: '...', type: 'string' }
 * ```
 */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/**
 * A Standard Schema that can also describe itself as JSON Schema, as {@link withJsonSchema} returns.
 *
 * @example
 * ```ts
 * const Text: StandardSchemaWithJsonSchema<string> = withJsonSchema(v.string(), { type: 'string' });
 * ```
 */
export interface StandardSchemaWithJsonSchema<Input = unknown, Output = Input>
  extends StandardSchemaV1<Input, Output> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & {
    readonly jsonSchema: StandardJsonSchemaConverter;
  };
}

/**
 * Raised when a Standard Schema cannot be turned into JSON Schema; the message says how to fix it.
 *
 * @example
 * ```ts
 * try {
 *   toJsonSchema(z.object({ when: z.date() })); // JSON Schema has no dates
 * } catch (error) {
 *   if (error instanceof SchemaConversionError) console.error(error.vendor, error.message);
 * }
 * ```
 */
export class SchemaConversionError extends Error {
  override readonly name = 'SchemaConversionError';
  /**
   * @param message what went wrong and what to do about it.
   * @param vendor the schema library's `~standard.vendor`, e.g. `'valibot'`.
   */
  constructor(
    message: string,
    readonly vendor: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TARGET = 'draft-2020-12';

/**
 * Returns the JSON Schema (2020-12) for a Standard Schema, or a raw JSON Schema unchanged.
 *
 * A raw JSON Schema (any object without `~standard`, or a boolean) is returned as the very same
 * object: its `$schema`, `$defs` and `additionalProperties` are exactly what the author wrote. A
 * Standard Schema is converted through `~standard.jsonSchema` (zod 4.2+, arktype 2.1+, valibot
 * wrapped in `toStandardJsonSchema` from `@valibot/to-json-schema`), falling back to zod's
 * `.toJSONSchema()` and arktype's `.toJsonSchema()` on older versions.
 *
 * @throws {SchemaConversionError} when the schema carries no converter or its library refuses to
 * convert it (e.g. a zod `z.date()`); the message names the fix. An unwrapped valibot schema is
 * already a type error ({@link RequireJsonSchemaConverter}).
 * @throws {TypeError} when `schema` is neither a Standard Schema nor a JSON Schema.
 * @example
 * ```ts
 * import { z } from 'zod';
 *
 * toJsonSchema(z.object({ text: z.string() }));
 * // { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object',
 * //   properties: { text: { type: 'string' } }, required: ['text'] }
 *
 * const raw = { type: 'object', additionalProperties: false };
 * toJsonSchema(raw) === raw; // true
 * ```
 */
export function toJsonSchema<S extends StandardSchemaV1 | JsonSchema>(
  schema: S & RequireJsonSchemaConverter<S>,
  options?: ToJsonSchemaOptions,
): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  if (
    (typeof schema === 'object' || typeof schema === 'function') &&
    schema !== null &&
    '~standard' in schema
  ) {
    return convertStandardSchema(schema as StandardSchemaV1, options?.io ?? 'input');
  }
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) return schema;
  throw new TypeError(
    `Expected a Standard Schema (zod, valibot, arktype...) or a JSON Schema object, got ${describeValue(schema)}`,
  );
}

/**
 * Attaches a JSON Schema to a Standard Schema whose library cannot produce one, so
 * {@link toJsonSchema} (and every mcpkit API taking a schema) can use it. Validation still runs
 * through the original schema's `~standard.validate`.
 *
 * @param schema the Standard Schema that validates.
 * @param input the JSON Schema describing accepted input.
 * @param output the JSON Schema describing validated output; defaults to `input`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 *
 * const Echo = withJsonSchema(v.object({ text: v.string() }), {
 *   type: 'object',
 *   properties: { text: { type: 'string' } },
 *   required: ['text'],
 * });
 * toJsonSchema(Echo); // the JSON Schema above
 * ```
 */
export function withJsonSchema<Input, Output>(
  schema: StandardSchemaV1<Input, Output>,
  input: JsonSchema,
  output: JsonSchema = input,
): StandardSchemaWithJsonSchema<Input, Output> {
  const props = schema['~standard'];
  const asObject = (json: JsonSchema): Record<string, unknown> =>
    typeof json === 'boolean' ? booleanSchema(json) : json;
  return {
    '~standard': {
      version: 1,
      vendor: props.vendor,
      validate: (value: unknown) => props.validate(value),
      ...(props.types ? { types: props.types } : {}),
      jsonSchema: { input: () => asObject(input), output: () => asObject(output) },
    },
  };
}

/** `true`/`false` as equivalent object schemas, since the Standard JSON Schema converters return objects. */
function booleanSchema(value: boolean): Record<string, unknown> {
  return value ? {} : { not: {} };
}

function convertStandardSchema(schema: StandardSchemaV1, io: SchemaSide): JsonSchema {
  const props = schema['~standard'] as StandardSchemaV1.Props & {
    jsonSchema?: Partial<StandardJsonSchemaConverter>;
  };
  const vendor = typeof props?.vendor === 'string' ? props.vendor : 'unknown';
  const standardConverter = props?.jsonSchema?.[io];
  const convert =
    typeof standardConverter === 'function'
      ? () => standardConverter.call(props.jsonSchema, { target: TARGET })
      : legacyConverter(schema, vendor, io);
  if (!convert) throw new SchemaConversionError(noConverterMessage(vendor), vendor);
  let converted: unknown;
  try {
    converted = convert();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaConversionError(
      `The ${vendor} schema cannot be converted to JSON Schema (${reason}). Describe the ${io} with types JSON Schema can express, or attach a JSON Schema with withJsonSchema(schema, jsonSchema).`,
      vendor,
      { cause: error },
    );
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new SchemaConversionError(
      `The ${vendor} schema's JSON Schema converter returned ${describeValue(converted)} instead of an object.`,
      vendor,
    );
  }
  return converted as Record<string, unknown>;
}

/** Library-specific converters from before the Standard JSON Schema interface existed. */
function legacyConverter(
  schema: StandardSchemaV1,
  vendor: string,
  io: SchemaSide,
): (() => unknown) | undefined {
  const methods = schema as { toJSONSchema?: unknown; toJsonSchema?: unknown };
  if (vendor === 'zod' && typeof methods.toJSONSchema === 'function') {
    const toJSONSchema = methods.toJSONSchema as (options: object) => unknown;
    return () => toJSONSchema.call(schema, { target: TARGET, io });
  }
  if (vendor === 'arktype' && typeof methods.toJsonSchema === 'function') {
    const toJsonSchemaMethod = methods.toJsonSchema as () => unknown;
    return () => toJsonSchemaMethod.call(schema);
  }
  return undefined;
}

function noConverterMessage(vendor: string): string {
  const attach = 'or attach a JSON Schema with withJsonSchema(schema, jsonSchema) from @mcpkit/schema';
  switch (vendor) {
    case 'valibot':
      return `Valibot schemas do not carry a JSON Schema converter: wrap the schema with toStandardJsonSchema(schema) from "@valibot/to-json-schema", ${attach}.`;
    case 'zod':
      return `This zod schema has no JSON Schema converter (zod 3?): upgrade to zod 4, ${attach}.`;
    default:
      return `The ${vendor} schema does not implement the Standard JSON Schema interface (~standard.jsonSchema): ${attach}, or pass a JSON Schema directly.`;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A validator that may finish later: Standard Schema libraries may validate asynchronously.
 * Await the result unless you know the schema is synchronous.
 *
 * @example
 * ```ts
 * const check: StandardValidator<{ text: string }> = standardValidator(z.object({ text: z.string() }));
 * const result = await check({ text: 'hi' });
 * ```
 */
export type StandardValidator<T = unknown> = (
  value: unknown,
) => ValidationResult<T> | Promise<ValidationResult<T>>;

/**
 * Validates `value` with a Standard Schema, mapping its issues to `{ path, message }`.
 *
 * Returns synchronously when the library does (zod without async refinements, valibot's sync
 * schemas, arktype), and a Promise only when the library returns one. On success `value` is the
 * library's output (defaults applied, transforms run).
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 *
 * validateStandard(z.object({ n: z.number() }), { n: 'x' });
 * // { valid: false, issues: [{ path: '/n', message: 'Invalid input: expected number, received string' }] }
 * ```
 */
export function validateStandard<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
):
  | ValidationResult<StandardSchemaV1.InferOutput<S>>
  | Promise<ValidationResult<StandardSchemaV1.InferOutput<S>>> {
  return toValidationResult(schema['~standard'].validate(value)) as
    | ValidationResult<StandardSchemaV1.InferOutput<S>>
    | Promise<ValidationResult<StandardSchemaV1.InferOutput<S>>>;
}

/**
 * Wraps a Standard Schema as a reusable validator, the Standard Schema counterpart of
 * `JsonSchemaValidator.compile`.
 *
 * @throws {TypeError} when `schema` is not a Standard Schema.
 * @example
 * ```ts
 * import { type } from 'arktype';
 *
 * const check = standardValidator(type({ text: 'string' }));
 * const result = await check({ text: 'hi' }); // { valid: true, value: { text: 'hi' } }
 * ```
 */
export function standardValidator<S extends StandardSchemaV1>(
  schema: S,
): StandardValidator<StandardSchemaV1.InferOutput<S>> {
  if (!isStandardSchema(schema)) {
    throw new TypeError(
      `Expected a Standard Schema (an object with "~standard".validate), got ${describeValue(schema)}`,
    );
  }
  const props = schema['~standard'];
  return (value) =>
    toValidationResult(props.validate(value)) as
      | ValidationResult<StandardSchemaV1.InferOutput<S>>
      | Promise<ValidationResult<StandardSchemaV1.InferOutput<S>>>;
}

function toValidationResult(
  result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>,
): ValidationResult | Promise<ValidationResult> {
  if (result instanceof Promise || isPromiseLike(result)) return Promise.resolve(result).then(settle);
  return settle(result);
}

function settle(result: StandardSchemaV1.Result<unknown>): ValidationResult {
  if (!result.issues) return { valid: true, value: result.value };
  const issues: ValidationIssue[] = result.issues.map((issue) => ({
    path: pointerOf(issue.path),
    message: issue.message,
  }));
  return { valid: false, issues: issues.length > 0 ? issues : [{ path: '', message: 'is invalid' }] };
}

/** A Standard Schema issue path (keys or `{ key }` segments) as a JSON Pointer. */
function pointerOf(path: StandardSchemaV1.Issue['path']): string {
  if (!path || path.length === 0) return '';
  let pointer = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    pointer += `/${escapePointerSegment(typeof key === 'symbol' ? (key.description ?? '') : String(key))}`;
  }
  return pointer;
}
