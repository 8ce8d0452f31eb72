/**
 * `@mcpkit/schema`: JSON Schema validation and Standard Schema support for mcpkit.
 *
 * The default validator is codegen-free (`@cfworker/json-schema`), so it runs on Cloudflare
 * Workers and Deno Deploy and keeps a stdio server small. Ajv is available from
 * `@mcpkit/schema/ajv` and is never loaded by this entry point.
 *
 * @example
 * ```ts
 * import { defaultValidator, toJsonSchema } from '@mcpkit/schema';
 * import { z } from 'zod';
 *
 * const inputSchema = toJsonSchema(z.object({ text: z.string() }));
 * const check = defaultValidator().compile(inputSchema);
 * check({ text: 42 }); // { valid: false, issues: [{ path: '/text', message: 'must be string, got integer' }] }
 * ```
 * @module
 */
export type {
  CompiledValidator,
  JsonSchema,
  JsonSchemaDialect,
  JsonSchemaValidator,
  StandardSchemaV1,
  ValidationIssue,
  ValidationResult,
} from '@mcpkit/core';
export { UnsupportedDialectError } from '@mcpkit/core';
export { type CfworkerValidatorOptions, cfworkerValidator, defaultValidator } from './cfworker.js';
export type { ValidatorOptions } from './issues.js';
export { InvalidSchemaError } from './prepare.js';
export {
  SchemaConversionError,
  type SchemaSide,
  type StandardJsonSchemaConverter,
  type StandardSchemaWithJsonSchema,
  type StandardValidator,
  standardValidator,
  type ToJsonSchemaOptions,
  toJsonSchema,
  validateStandard,
  withJsonSchema,
} from './standard.js';
export type {
  InferSchemaInput,
  InferSchemaOutput,
  JsonSchemaType,
  RequireJsonSchemaConverter,
  UnwrappedValibotSchema,
} from './types.js';
