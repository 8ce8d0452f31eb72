/**
 * A compiled shortcut for the schemas most tools have: `type`, `properties`, `required`,
 * `additionalProperties`, `items`, `enum`/`const` of plain values and the numeric and length
 * bounds. It answers one question, "is this value certainly valid?", and never produces errors:
 * when it says no, or when a schema uses anything else, the full interpreter decides and reports.
 *
 * Why: the interpreter builds JSON Pointer strings and result objects for every property it
 * visits, valid or not, which made validation the largest cost of a `tools/call` on the server
 * (measured: about a fifth of the CPU of an in-process call). Valid arguments are the common case.
 * @module
 */
import type { SchemaDraft } from '@cfworker/json-schema';
import { isPlainObject } from '@mcpkit/core/internal';

/** True only when the value is certainly valid against the schema it was compiled from. */
export type FastCheck = (value: unknown) => boolean;

type SchemaObject = Record<string, unknown>;

const TYPE_NAMES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * Keywords the interpreter acts on that the shortcut does not implement: a schema using any of
 * them is always left to the interpreter. Every other keyword the interpreter ignores too.
 */
const UNSUPPORTED = new Set([
  '$ref',
  '$recursiveRef',
  '$recursiveAnchor',
  'not',
  'anyOf',
  'allOf',
  'oneOf',
  'if',
  'then',
  'else',
  'format',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'multipleOf',
  'pattern',
  '__absolute_ref__',
  '__absolute_recursive_ref__',
]);

const ALWAYS: FastCheck = () => true;
const NEVER: FastCheck = () => false;

/**
 * Thrown inside compilation when the schema leaves the supported subset: one shared object, since
 * building an `Error` per schema (with its stack) would cost more than compiling the shortcut.
 */
const UNSUPPORTED_SCHEMA = Symbol('unsupported schema');

/**
 * Compiles the shortcut for a prepared schema, or returns `undefined` when the schema uses
 * something outside the subset.
 *
 * @example
 * ```ts
 * const check = compileFastCheck({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, '2020-12');
 * check?.({ text: 'hi' }); // true
 * check?.({}); // false: ask the interpreter, which explains what is missing
 * ```
 */
export function compileFastCheck(schema: unknown, draft: SchemaDraft): FastCheck | undefined {
  try {
    return compileNode(schema, draft, 0);
  } catch (error) {
    if (error === UNSUPPORTED_SCHEMA) return undefined;
    throw error;
  }
}

const MAX_DEPTH = 32;

function compileNode(node: unknown, draft: SchemaDraft, depth: number): FastCheck {
  if (node === true) return ALWAYS;
  if (node === false) return NEVER;
  if (depth > MAX_DEPTH || !isPlainObject(node)) throw UNSUPPORTED_SCHEMA;
  const schema = node;
  for (const keyword in schema) if (UNSUPPORTED.has(keyword)) throw UNSUPPORTED_SCHEMA;
  const types = schema.type === undefined ? undefined : typeSet(schema.type);
  const constant = schema.const === undefined ? undefined : valueSet([schema.const]);
  const choices = schema.enum === undefined ? undefined : valueSet(schema.enum);
  const object = objectCheck(schema, draft, depth);
  const array = arrayCheck(schema, draft, depth);
  const number = numberCheck(schema, draft);
  const string = stringCheck(schema);
  return (value) => {
    if (types && !hasType(types, value)) return false;
    if (constant && !constant.has(value)) return false;
    if (choices && !choices.has(value)) return false;
    switch (typeof value) {
      case 'string':
        return string(value);
      case 'number':
        return Number.isFinite(value) && number(value);
      case 'boolean':
        return true;
      case 'object':
        if (value === null) return true;
        return Array.isArray(value) ? array(value) : isPlainObject(value) && object(value);
      default:
        return false; // undefined, functions, bigints: JSON cannot carry them, let the interpreter say
    }
  };
}

function typeSet(type: unknown): ReadonlySet<string> {
  const names = Array.isArray(type) ? type : [type];
  for (const name of names) if (typeof name !== 'string' || !TYPE_NAMES.has(name)) throw UNSUPPORTED_SCHEMA;
  return new Set<string>(names as string[]);
}

function hasType(types: ReadonlySet<string>, value: unknown): boolean {
  const name = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return types.has(name) || (types.has('integer') && Number.isInteger(value));
}

/** `enum` or `const` of strings, finite numbers, booleans and null; structured values are left out. */
function valueSet(values: unknown): ReadonlySet<unknown> {
  if (!Array.isArray(values)) throw UNSUPPORTED_SCHEMA;
  for (const value of values) {
    const scalar =
      value === null || typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value);
    if (!scalar) throw UNSUPPORTED_SCHEMA;
  }
  return new Set<unknown>(values);
}

function objectCheck(
  schema: SchemaObject,
  draft: SchemaDraft,
  depth: number,
): (value: SchemaObject) => boolean {
  const required = schema.required;
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((key) => typeof key === 'string'))
  )
    throw UNSUPPORTED_SCHEMA;
  const properties = schema.properties;
  if (properties !== undefined && !isPlainObject(properties)) throw UNSUPPORTED_SCHEMA;
  const names: string[] = [];
  const checks: FastCheck[] = [];
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    names.push(name);
    checks.push(compileNode((properties as SchemaObject)[name], draft, depth + 1));
  }
  const additional = schema.additionalProperties;
  const extra = additional === undefined ? undefined : compileNode(additional, draft, depth + 1);
  const minProperties = bound(schema.minProperties);
  const maxProperties = bound(schema.maxProperties);
  const countKeys = minProperties !== undefined || maxProperties !== undefined;
  const requiredKeys = (required ?? []) as string[];
  const declared = new Set(names);
  return (value) => {
    for (const key of requiredKeys) if (!Object.hasOwn(value, key)) return false;
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      if (Object.hasOwn(value, name) && !checks[index]!(value[name])) return false;
    }
    if (extra) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) return false;
        if (!declared.has(key) && !extra(value[key])) return false;
      }
    }
    if (countKeys) {
      const count = Object.keys(value).length;
      if (minProperties !== undefined && count < minProperties) return false;
      if (maxProperties !== undefined && count > maxProperties) return false;
    }
    return true;
  };
}

function arrayCheck(schema: SchemaObject, draft: SchemaDraft, depth: number): (value: unknown[]) => boolean {
  const items = schema.items;
  if (Array.isArray(items)) throw UNSUPPORTED_SCHEMA;
  const item = items === undefined ? undefined : compileNode(items, draft, depth + 1);
  const minItems = bound(schema.minItems);
  const maxItems = bound(schema.maxItems);
  return (value) => {
    if (minItems !== undefined && value.length < minItems) return false;
    if (maxItems !== undefined && value.length > maxItems) return false;
    if (item) for (const element of value) if (!item(element)) return false;
    return true;
  };
}

function numberCheck(schema: SchemaObject, draft: SchemaDraft): (value: number) => boolean {
  const minimum = bound(schema.minimum);
  const maximum = bound(schema.maximum);
  const exclusiveMinimum = schema.exclusiveMinimum;
  const exclusiveMaximum = schema.exclusiveMaximum;
  // Draft-04 spells exclusive bounds as booleans beside minimum/maximum; later drafts as numbers.
  if (draft === '4' && (exclusiveMinimum !== undefined || exclusiveMaximum !== undefined))
    throw UNSUPPORTED_SCHEMA;
  const above = bound(exclusiveMinimum);
  const below = bound(exclusiveMaximum);
  return (value) =>
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (above === undefined || value > above) &&
    (below === undefined || value < below);
}

function stringCheck(schema: SchemaObject): (value: string) => boolean {
  const minLength = bound(schema.minLength);
  const maxLength = bound(schema.maxLength);
  if (minLength === undefined && maxLength === undefined) return ALWAYS;
  return (value) => {
    const length = codePointLength(value);
    return (
      (minLength === undefined || length >= minLength) && (maxLength === undefined || length <= maxLength)
    );
  };
}

/** A numeric keyword's value; anything else is not ours to interpret. */
function bound(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) throw UNSUPPORTED_SCHEMA;
  return value;
}

/** String length in code points, counting a lone surrogate as one, as the interpreter does. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      length--;
      index++;
    }
  }
  return length;
}
