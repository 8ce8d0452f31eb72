/**
 * Turning what an author registers (a Standard Schema or a raw JSON Schema) into what a peer sees
 * and a validator compiled once.
 *
 * A raw JSON Schema is listed exactly as written (a deep copy taken at registration, so later edits
 * to the caller's object change nothing): `$schema`, `$defs`, `additionalProperties` and key order
 * survive. Its dialect is honoured, and one the validator cannot handle is refused now, not at the
 * first call. A Standard Schema is validated by its own library (so defaults and transforms apply)
 * and listed through its JSON Schema converter.
 * @module
 */
import type { JsonSchemaValidator, StandardSchemaV1, ToolJsonSchema, ValidationResult } from '@mcpkit/core';
import { isStandardSchema, schemaDialect } from '@mcpkit/core/internal';
import { standardValidator, toJsonSchema } from '@mcpkit/schema';

/**
 * A schema an author may register: a Standard Schema (zod 4, valibot via `toStandardJsonSchema`,
 * arktype...) or a JSON Schema object.
 *
 * @example
 * ```ts
 * const fromZod: SchemaInput = z.object({ text: z.string() });
 * const raw: SchemaInput = { type: 'object', properties: { text: { type: 'string' } } };
 * ```
 */
export type SchemaInput = StandardSchemaV1 | { readonly [keyword: string]: unknown };

/**
 * Validates one value; synchronous unless a Standard Schema library validates asynchronously.
 *
 * @example
 * ```ts
 * declare const prepared: PreparedSchema;
 * const check: SchemaCheck = prepared.validate;
 * const result = await check({ text: 'hi' });
 * ```
 */
export type SchemaCheck = (value: unknown) => ValidationResult | Promise<ValidationResult>;

/**
 * A registered object schema: the JSON Schema peers see and the check compiled for it.
 *
 * @example
 * ```ts
 * declare const prepared: PreparedSchema;
 * prepared.json.type; // 'object'
 * ```
 */
export interface PreparedSchema {
  readonly json: ToolJsonSchema;
  readonly validate: SchemaCheck;
}

/**
 * Converts and compiles an object schema once.
 *
 * @param side `'input'` for arguments, `'output'` for structured results (Standard Schemas are
 *   then described by the type their validation produces).
 * @param what names the schema in error messages, e.g. `Tool "echo" inputSchema`.
 * @throws {TypeError} naming `what` when the schema is not an object schema, uses an unsupported
 *   dialect, or cannot be converted or compiled; the original error is the `cause`.
 * @example
 * ```ts
 * const { json, validate } = prepareObjectSchema({ type: 'object' }, 'input', defaultValidator(), 'Tool "x" inputSchema');
 * ```
 */
export function prepareObjectSchema(
  schema: SchemaInput,
  side: 'input' | 'output',
  validator: JsonSchemaValidator,
  what: string,
): PreparedSchema {
  if (isStandardSchema(schema)) {
    const json = attempt(what, () => toJsonSchema(schema, { io: side }));
    const objectSchema = requireObjectRoot(json, what);
    attempt(what, () => schemaDialect(objectSchema));
    return { json: objectSchema, validate: standardValidator(schema) as SchemaCheck };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError(
      `${what} must be a Standard Schema (zod, valibot, arktype...) or a JSON Schema object`,
    );
  }
  const json = requireObjectRoot(copyJson(schema, what), what);
  const compiled = attempt(what, () => validator.compile(json));
  return { json, validate: compiled };
}

function attempt<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${what}: ${reason}`, { cause: error });
  }
}

function requireObjectRoot(json: unknown, what: string): ToolJsonSchema {
  const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
  if (type !== 'object') {
    throw new TypeError(
      `${what} must describe an object: its root needs "type": "object" (got ${type === undefined ? 'no type' : JSON.stringify(type)})`,
    );
  }
  return json as ToolJsonSchema;
}

/** A deep copy that keeps key order and refuses what JSON cannot carry. */
function copyJson(schema: object, what: string): Record<string, unknown> {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    throw new TypeError(`${what} must be JSON data`, { cause: error });
  }
  return JSON.parse(text as string) as Record<string, unknown>;
}
