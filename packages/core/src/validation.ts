/**
 * The contracts for validating data against schemas, with no validator attached.
 *
 * The core only defines the shapes; `@mcpkit/schema` supplies implementations (a codegen-free
 * default that runs on edge runtimes, and an Ajv adapter). Standard Schema is described here by
 * its public interface, so any conforming library (zod 4, valibot, arktype...) plugs in without the
 * core depending on any of them.
 * @module
 */

/** A JSON Schema document, as plain JSON. */
export type JsonSchema = { [key: string]: unknown } | boolean;

/** One reason a value failed validation. `path` is a JSON Pointer into the value. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of validating one value. */
export type ValidationResult<T = unknown> =
  | { readonly valid: true; readonly value: T }
  | { readonly valid: false; readonly issues: readonly ValidationIssue[] };

/** A compiled schema: call it once per value. Compiled validators are reused for every call. */
export type CompiledValidator<T = unknown> = (value: unknown) => ValidationResult<T>;

/**
 * A pluggable JSON Schema validator.
 *
 * `compile` is called once per schema (at registration, or when a tool list is cached) and the
 * returned function is called per value. It must honour the schema's `$schema` dialect and throw
 * `UnsupportedDialectError` for one it cannot handle.
 *
 * @example
 * ```ts
 * const validate = validator.compile({ type: 'object', required: ['text'] });
 * const result = validate({ text: 'hi' }); // { valid: true, value: { text: 'hi' } }
 * ```
 */
export interface JsonSchemaValidator {
  compile<T = unknown>(schema: JsonSchema): CompiledValidator<T>;
}

/** The Standard Schema v1 interface (standardschema.dev), described structurally. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/** Types that belong to {@link StandardSchemaV1}. */
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }
  type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
}

/**
 * True when `value` carries a Standard Schema v1 `~standard` property.
 *
 * @example
 * ```ts
 * isStandardSchema(z.string()); // true
 * isStandardSchema({ type: 'string' }); // false
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function'
  );
}
