/**
 * `@mcpkit/schema/ajv`: a JSON Schema validator backed by Ajv.
 *
 * Ajv compiles each schema to JavaScript with `new Function`, so validation is faster than the
 * default interpreter but compiling costs more, the bundle is larger, and it cannot run where code
 * generation is banned (Cloudflare Workers, Deno Deploy). It lives on this subpath so that nothing
 * imports Ajv unless the application asks for it. Requires the optional peers `ajv` and
 * `ajv-formats`.
 * @module
 */
import {
  type CompiledValidator,
  type JsonSchema,
  type JsonSchemaDialect,
  type JsonSchemaValidator,
  UnsupportedDialectError,
  type ValidationResult,
} from '@mcpkit/core';
import { schemaDialect } from '@mcpkit/core/internal';
import { Ajv, type Options as AjvOptions, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import {
  COLLAPSING_KEYWORDS,
  isInsideAny,
  issueLimits,
  type RawFailure,
  toIssues,
  type ValidatorOptions,
} from './issues.js';
import { InvalidSchemaError } from './prepare.js';

/**
 * Options for {@link ajvValidator}.
 *
 * @example
 * ```ts
 * const validator = ajvValidator({ allErrors: false, ajv: { coerceTypes: false } });
 * ```
 */
export interface AjvValidatorOptions extends ValidatorOptions {
  /**
   * Extra Ajv options, applied over mcpkit's (`strict: false`, `verbose: true`,
   * `addUsedSchema: false`, `multipleOfPrecision: 9`, `logger: false`, and `allErrors` and
   * `validateFormats` from the options above).
   */
  readonly ajv?: AjvOptions;
}

type AjvInstance = Ajv | Ajv2019 | Ajv2020;

/**
 * Creates a JSON Schema validator backed by Ajv.
 *
 * The Ajv class follows the schema's `$schema`: `Ajv2020` for 2020-12 (also when absent), `Ajv2019`
 * for 2019-09, and draft-07 Ajv for draft-07 and draft-06. Draft-04 is not supported by Ajv 8 and
 * is refused with `UnsupportedDialectError` (the default `cfworkerValidator` supports it). Compiled
 * schemas are cached per schema object, so treat compiled schemas as immutable. Issues are worded
 * exactly as `cfworkerValidator` words them.
 *
 * @throws {UnsupportedDialectError} from `compile`, for draft-04 or an unknown `$schema`.
 * @throws {InvalidSchemaError} from `compile`, when Ajv rejects the schema.
 * @example
 * ```ts
 * import { ajvValidator } from '@mcpkit/schema/ajv';
 *
 * const check = ajvValidator().compile({ type: 'object', properties: { n: { type: 'integer' } } });
 * check({ n: 1.5 }); // { valid: false, issues: [{ path: '/n', message: 'must be integer, got number' }] }
 * ```
 */
export function ajvValidator(options?: AjvValidatorOptions): JsonSchemaValidator {
  const limits = issueLimits(options);
  const instances = new Map<JsonSchemaDialect, AjvInstance>();
  const compiled = new WeakMap<object, CompiledValidator<unknown>>();
  const instanceFor = (dialect: JsonSchemaDialect): AjvInstance => {
    let instance = instances.get(dialect);
    if (!instance) {
      instance = createAjv(dialect, options);
      instances.set(dialect, instance);
    }
    return instance;
  };
  return {
    compile<T = unknown>(schema: JsonSchema): CompiledValidator<T> {
      const cached = typeof schema === 'object' ? compiled.get(schema) : undefined;
      if (cached) return cached as CompiledValidator<T>;
      const dialect = schemaDialect(schema);
      if (dialect === 'draft-04') throw draft04Unsupported(schema);
      const validate = compileWith(instanceFor(dialect), schema);
      const check = (value: unknown): ValidationResult<T> =>
        validate(value)
          ? { valid: true, value: value as T }
          : { valid: false, issues: toIssues(failuresOf(validate.errors ?? []), limits) };
      if (typeof schema === 'object') compiled.set(schema, check as CompiledValidator<unknown>);
      return check;
    },
  };
}

function createAjv(dialect: JsonSchemaDialect, options: AjvValidatorOptions | undefined): AjvInstance {
  const settings: AjvOptions = {
    strict: false,
    // The failing keyword's schema and data are how issues get worded.
    verbose: true,
    // Registering every compiled `$id` would make a second schema with the same `$id` fail.
    addUsedSchema: false,
    // Without it 0.07 is not a multiple of 0.01 (floating-point division); cfworker is exact.
    multipleOfPrecision: 9,
    // Unknown formats and keywords are ignored by design (strict: false); saying so on stderr for
    // every third-party schema a client compiles is noise.
    logger: false,
    allErrors: options?.allErrors ?? true,
    validateFormats: options?.formats ?? true,
    ...options?.ajv,
  };
  const instance =
    dialect === '2020-12'
      ? new Ajv2020(settings)
      : dialect === '2019-09'
        ? new Ajv2019(settings)
        : new Ajv(settings);
  if (settings.validateFormats !== false) ajvFormats.default(instance);
  return instance;
}

/**
 * Compiles without leaving the schema in Ajv's cache, which would otherwise grow with every tool
 * list a long-lived client receives.
 */
function compileWith(ajv: AjvInstance, schema: JsonSchema): ValidateFunction {
  // The dialect is already chosen by the instance; dropping `$schema` also accepts the http/https
  // and trailing-# spellings that `schemaDialect` tolerates but Ajv's registry does not.
  const target = typeof schema === 'object' ? withoutDialect(schema) : schema;
  try {
    return ajv.compile(target);
  } catch (error) {
    throw new InvalidSchemaError(error instanceof Error ? error.message : String(error), '');
  } finally {
    if (typeof target === 'object') ajv.removeSchema(target);
  }
}

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function draft04Unsupported(schema: JsonSchema): UnsupportedDialectError {
  const declared = typeof schema === 'object' ? String(schema.$schema) : 'draft-04';
  const error = new UnsupportedDialectError(declared);
  error.message = `JSON Schema draft-04 ("${declared}") is not supported by the Ajv validator; use cfworkerValidator() from @mcpkit/schema, or declare draft-07 or later.`;
  return error;
}

/** Reduces Ajv errors (compiled with `verbose: true`) to the failures worth telling a model about. */
function* failuresOf(errors: readonly ErrorObject[]): Generator<RawFailure> {
  const collapsed = new Set<string>();
  for (const error of errors) if (COLLAPSING_KEYWORDS.has(error.keyword)) collapsed.add(error.schemaPath);
  for (const error of errors) {
    if (error.keyword === 'if' || isInsideAny(error.schemaPath, collapsed)) continue;
    yield toFailure(error);
  }
}

function toFailure(error: ErrorObject): RawFailure {
  const params = error.params as Record<string, unknown>;
  const failure: RawFailure = {
    keyword: error.keyword,
    path: error.instancePath,
    schema: error.parentSchema as Record<string, unknown> | undefined,
    data: error.data,
    fallback: error.message ?? `failed "${error.keyword}"`,
  };
  switch (error.keyword) {
    case 'false schema':
      return { ...failure, keyword: 'false' };
    case 'required':
      return { ...failure, property: params.missingProperty as string };
    case 'propertyNames':
      return { ...failure, property: params.propertyName as string | undefined };
    case 'additionalProperties':
      return { ...failure, keyword: 'unexpectedProperty', property: params.additionalProperty as string };
    case 'unevaluatedProperties':
      return { ...failure, keyword: 'unexpectedProperty', property: params.unevaluatedProperty as string };
    case 'items':
    case 'additionalItems':
    case 'unevaluatedItems': {
      const limit = params.limit ?? params.len;
      return typeof limit === 'number' ? { ...failure, keyword: 'tooManyItems', limit } : failure;
    }
    default:
      return failure;
  }
}
