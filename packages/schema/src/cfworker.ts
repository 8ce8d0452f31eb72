/**
 * The default validator: `@cfworker/json-schema`, an interpreter with no code generation, so it
 * runs where `new Function` is banned (Cloudflare Workers, Deno Deploy) and costs little to load.
 * @module
 */
import { dereference, type OutputUnit, type Schema, type SchemaDraft, validate } from '@cfworker/json-schema';
import type {
  CompiledValidator,
  JsonSchema,
  JsonSchemaDialect,
  JsonSchemaValidator,
  ValidationResult,
} from '@mcpkit/core';
import { schemaDialect } from '@mcpkit/core/internal';
import { compileFastCheck } from './fastCheck.js';
import {
  COLLAPSING_KEYWORDS,
  isInsideAny,
  issueLimits,
  lastPointerSegment,
  type RawFailure,
  toIssues,
  unescapePointerSegment,
  type ValidatorOptions,
  valueAtPointer,
} from './issues.js';
import { InvalidSchemaError, prepareSchema } from './prepare.js';

/**
 * Options for {@link cfworkerValidator}.
 *
 * @example
 * ```ts
 * const options: CfworkerValidatorOptions = { allErrors: false };
 * const validator = cfworkerValidator(options);
 * ```
 */
export type CfworkerValidatorOptions = ValidatorOptions;

const CFWORKER_DRAFT: Readonly<Record<JsonSchemaDialect, SchemaDraft>> = {
  '2020-12': '2020-12',
  '2019-09': '2019-09',
  'draft-07': '7',
  // draft-06 is draft-07 without if/then/else, which preparation has already removed.
  'draft-06': '7',
  'draft-04': '4',
};

type Lookup = Record<string, Schema | boolean>;

/**
 * Creates a JSON Schema validator backed by `@cfworker/json-schema`.
 *
 * `compile` reads the schema's `$schema` (2020-12 when absent), copies and prepares the schema for
 * that dialect, resolves its `$ref`s and checks its regular expressions; the function it returns
 * only validates. Failures come back as `{ path, message }` issues such as
 * `{ path: '/text', message: 'must be string, got number' }`.
 *
 * @throws {UnsupportedDialectError} from `compile`, for a `$schema` it cannot validate.
 * @throws {InvalidSchemaError} from `compile`, for an unresolvable `$ref` or a bad pattern.
 * @example
 * ```ts
 * const validator = cfworkerValidator();
 * const check = validator.compile<{ text: string }>({
 *   type: 'object',
 *   properties: { text: { type: 'string' } },
 *   required: ['text'],
 * });
 * check({ text: 'hi' }); // { valid: true, value: { text: 'hi' } }
 * check({}); // { valid: false, issues: [{ path: '', message: 'missing required property "text"' }] }
 * ```
 */
export function cfworkerValidator(options?: CfworkerValidatorOptions): JsonSchemaValidator {
  const limits = issueLimits(options);
  const formats = options?.formats ?? true;
  const shortCircuit = !(options?.allErrors ?? true);
  return {
    compile<T = unknown>(schema: JsonSchema): CompiledValidator<T> {
      const dialect = schemaDialect(schema);
      const prepared = prepareSchema(schema, dialect, { formats });
      const lookup = resolveReferences(prepared);
      const draft = CFWORKER_DRAFT[dialect];
      // Most values are valid and most tool schemas are simple: a compiled check confirms those
      // without the interpreter; anything it is unsure of goes to the interpreter, which reports.
      const certainlyValid = compileFastCheck(prepared, draft);
      const check = (value: unknown, data: unknown): ValidationResult<T> => {
        const result = validate(data, prepared, draft, lookup, shortCircuit);
        if (result.valid) return { valid: true, value: value as T };
        return { valid: false, issues: toIssues(failuresOf(result.errors, prepared, lookup, data), limits) };
      };
      return (value: unknown): ValidationResult<T> => {
        try {
          if (certainlyValid?.(value)) return { valid: true, value: value as T };
          return check(value, value);
        } catch {
          return checkAsJson(value, check);
        }
      };
    },
  };
}

/**
 * The interpreter throws on values JSON cannot carry. Such values only come from in-process
 * callers, so validate what the value would be on the wire, where `{ a: undefined }` is `{}`.
 */
function checkAsJson<T>(
  value: unknown,
  check: (value: unknown, data: unknown) => ValidationResult<T>,
): ValidationResult<T> {
  if (value === undefined) return { valid: false, issues: [{ path: '', message: 'a value is required' }] };
  let data: unknown;
  try {
    data = JSON.parse(JSON.stringify(value));
  } catch {
    return { valid: false, issues: [{ path: '', message: 'must be JSON data' }] };
  }
  return check(value, data);
}

let sharedValidator: JsonSchemaValidator | undefined;

/**
 * The validator mcpkit uses when none is configured: one shared {@link cfworkerValidator} with
 * default options (formats checked, all errors reported).
 *
 * @example
 * ```ts
 * const check = defaultValidator().compile({ type: 'string' });
 * check(42).valid; // false
 * ```
 */
export function defaultValidator(): JsonSchemaValidator {
  sharedValidator ??= cfworkerValidator();
  return sharedValidator;
}

/** Indexes every subschema by URI and fails now, not mid-request, on a `$ref` that goes nowhere. */
function resolveReferences(prepared: JsonSchema): Lookup {
  let lookup: Lookup;
  try {
    lookup = dereference(prepared as Schema);
  } catch (error) {
    throw new InvalidSchemaError(error instanceof Error ? error.message : String(error), '');
  }
  for (const node of Object.values(lookup)) {
    if (typeof node !== 'object') continue;
    const target = node.__absolute_ref__;
    if (typeof target === 'string' && lookup[target] === undefined) {
      throw new InvalidSchemaError(
        `Unresolved $ref ${JSON.stringify(node.$ref)}: it must point inside the schema (remote references are not fetched)`,
        '',
      );
    }
  }
  return lookup;
}

/** Keywords whose output unit only announces the errors of a subschema, which follow it. */
const WRAPPERS = new Set([
  '$ref',
  '$recursiveRef',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'if',
  'dependentSchemas',
]);
const UNEXPECTED_PROPERTY_WRAPPERS = new Set(['additionalProperties', 'unevaluatedProperties']);
const EXTRA_ITEM_WRAPPERS = new Set(['items', 'prefixItems', 'additionalItems', 'unevaluatedItems']);

/** Reduces cfworker output units to the failures worth telling a model about. */
function* failuresOf(units: readonly OutputUnit[], root: JsonSchema, lookup: Lookup, value: unknown) {
  const collapsed = collapsedLocations(units);
  const arraysTooLong = new Set<string>();
  for (let index = 0; index < units.length; index++) {
    const unit = units[index]!;
    if (isInsideAny(unit.keywordLocation, collapsed)) continue;
    const path = toPointer(unit.instanceLocation);
    const next = units[index + 1];
    const falseChild = falseSchemaChild(next, path);
    if (WRAPPERS.has(unit.keyword)) {
      if (falseChild === undefined) continue;
      index++;
      const wrapped = wrappedFalseSchema(unit.keyword, path, falseChild);
      // Every extra item is its own unit; the first one says all there is to say.
      if (wrapped.keyword === 'tooManyItems') {
        if (arraysTooLong.has(path)) continue;
        arraysTooLong.add(path);
      }
      yield wrapped;
      continue;
    }
    const failure: RawFailure = {
      keyword: unit.keyword,
      path,
      schema: schemaHolding(unit.keywordLocation, root, lookup),
      data: valueAtPointer(value, path),
      fallback: unit.error,
    };
    if (unit.keyword !== 'propertyNames') {
      yield failure;
      continue;
    }
    // The units after a propertyNames failure are about the offending name: take it from them.
    if (falseChild !== undefined) index++;
    const nameAt = falseChild ?? (next && childPointer(toPointer(next.instanceLocation), path));
    yield { ...failure, property: nameAt === undefined ? undefined : lastPointerSegment(nameAt) };
  }
}

/** A wrapper followed by a `false` schema means a property or an item that may not be there. */
function wrappedFalseSchema(keyword: string, path: string, child: string): RawFailure {
  const base = { path, schema: undefined, data: undefined, fallback: 'no value is allowed here' };
  if (UNEXPECTED_PROPERTY_WRAPPERS.has(keyword)) {
    return { ...base, keyword: 'unexpectedProperty', property: lastPointerSegment(child) };
  }
  if (EXTRA_ITEM_WRAPPERS.has(keyword)) {
    return { ...base, keyword: 'tooManyItems', limit: Number(lastPointerSegment(child)) };
  }
  return { ...base, keyword: 'false', path: child };
}

/** The instance pointer of `unit` when it is a `false`-schema failure one level below `parent`. */
function falseSchemaChild(unit: OutputUnit | undefined, parent: string): string | undefined {
  if (unit?.keyword !== 'false') return undefined;
  return childPointer(toPointer(unit.instanceLocation), parent);
}

function childPointer(pointer: string, parent: string): string | undefined {
  return pointer.startsWith(`${parent}/`) && !pointer.includes('/', parent.length + 1) ? pointer : undefined;
}

/** Schema locations under which failures are summarised by the keyword itself. */
function collapsedLocations(units: readonly OutputUnit[]): Set<string> {
  const locations = new Set<string>();
  for (const unit of units) {
    if (COLLAPSING_KEYWORDS.has(unit.keyword)) locations.add(unit.keywordLocation);
    else if (unit.keyword === 'minContains' || unit.keyword === 'maxContains') {
      locations.add(`${unit.keywordLocation.slice(0, unit.keywordLocation.lastIndexOf('/'))}/contains`);
    }
  }
  return locations;
}

/** cfworker locations are URI fragments (`#/a%20b`); issues use plain JSON Pointers (`/a b`). */
function toPointer(location: string): string {
  const pointer = location.slice(1);
  return pointer.includes('%') ? pointer.split('/').map(decodeSegment).join('/') : pointer;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The schema object holding the keyword at `location`, following `$ref`s through `lookup`.
 * Used only to word a message, so anything unexpected just yields `undefined`.
 */
function schemaHolding(
  location: string,
  root: JsonSchema,
  lookup: Lookup,
): Record<string, unknown> | undefined {
  const segments = location.split('/');
  let node: unknown = root;
  for (let index = 1; index < segments.length - 1; index++) {
    if (typeof node !== 'object' || node === null) return undefined;
    const segment = segments[index]!;
    const holder = node as Record<string, unknown>;
    if (segment === '$ref' && typeof holder.$ref === 'string') {
      node = lookup[(holder.__absolute_ref__ as string | undefined) ?? holder.$ref];
    } else if (segment === '$recursiveRef' && typeof holder.$recursiveRef === 'string') {
      // The static target; right unless the schema is extended, and only used for wording.
      node = lookup[holder.__absolute_recursive_ref__ as string];
    } else {
      const key = unescapePointerSegment(decodeSegment(segment));
      node = Object.hasOwn(holder, key) ? holder[key] : undefined;
    }
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node)
    ? (node as Record<string, unknown>)
    : undefined;
}
