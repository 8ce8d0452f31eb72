/**
 * Turns a validator's raw failures into short `{ path, message }` issues a model can act on.
 *
 * Both validators (cfworker and Ajv) are first reduced to a {@link RawFailure}: the failing
 * keyword, where in the value it failed, the schema object that holds the keyword and the failing
 * value. One formatter then words every failure, so the two validators read the same.
 * @module
 */
import type { ValidationIssue } from '@mcpkit/core';

/** One failed keyword, independent of the validator that found it. */
export interface RawFailure {
  /** The JSON Schema keyword that failed, e.g. `type` or `required`. */
  readonly keyword: string;
  /** JSON Pointer to the failing value (`''` is the whole value). */
  readonly path: string;
  /** The schema object that carries `keyword`, when the validator could tell us. */
  readonly schema: Readonly<Record<string, unknown>> | undefined;
  /** The failing value (the object itself for object keywords such as `required`). */
  readonly data: unknown;
  /** A property name the keyword is about (a missing or an unexpected one), when known. */
  readonly property?: string | undefined;
  /** For keywords whose limit is an item count the validator reports directly. */
  readonly limit?: number | undefined;
  /** The validator's own wording, used when we have nothing better. */
  readonly fallback: string;
}

/**
 * Keywords reported on their own: the failures inside them (why each `anyOf` alternative failed,
 * which rule a bad property name broke) would only confuse the reader, so they are dropped.
 */
export const COLLAPSING_KEYWORDS: ReadonlySet<string> = new Set([
  'anyOf',
  'oneOf',
  'not',
  'contains',
  'propertyNames',
]);

/** True when schema location `location` lies strictly below one of `containers`. */
export function isInsideAny(location: string, containers: ReadonlySet<string>): boolean {
  if (containers.size === 0) return false;
  for (let cut = location.lastIndexOf('/'); cut > 0; cut = location.lastIndexOf('/', cut - 1)) {
    if (containers.has(location.slice(0, cut))) return true;
  }
  return false;
}

/** Options that shape how many issues are reported. */
export interface IssueLimits {
  /** At most this many issues are returned; one more line says how many were left out. */
  readonly maxIssues: number;
}

const PREVIEW_LIMIT = 80;

/** JSON text of a schema value, cut short so a huge `enum` cannot flood the message. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}…` : text;
}

/** Comma-separated previews of allowed values, cut short for long lists. */
function listPreview(values: readonly unknown[]): string {
  const text = values.slice(0, 20).map(preview).join(', ') + (values.length > 20 ? ', …' : '');
  return text.length > PREVIEW_LIMIT * 2 ? `${text.slice(0, PREVIEW_LIMIT * 2)}…` : text;
}

/** The JSON type name of a value, as JSON Schema's `type` keyword spells it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Escapes one property name for use as a JSON Pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reverses {@link escapePointerSegment}. */
export function unescapePointerSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The value a JSON Pointer designates inside `root`, or `undefined` when it does not exist. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    const key = unescapePointerSegment(raw);
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The last segment of a JSON Pointer, unescaped: the property name or index it ends on. */
export function lastPointerSegment(pointer: string): string {
  return unescapePointerSegment(pointer.slice(pointer.lastIndexOf('/') + 1));
}

function describeType(failure: RawFailure): string | undefined {
  const expected = failure.schema?.type;
  const names = Array.isArray(expected) ? expected : typeof expected === 'string' ? [expected] : undefined;
  if (!names) return undefined;
  return `must be ${names.join(' or ')}, got ${jsonTypeOf(failure.data)}`;
}

/** Names every required property missing from the object, so one pass reports them all. */
function describeRequired(failure: RawFailure): string[] | undefined {
  if (failure.property !== undefined) return [`missing required property ${preview(failure.property)}`];
  const required = failure.schema?.required;
  const data = failure.data;
  if (!Array.isArray(required) || typeof data !== 'object' || data === null) return undefined;
  const missing = required.filter((name) => typeof name === 'string' && !Object.hasOwn(data, name));
  return missing.length > 0 ? missing.map((name) => `missing required property ${preview(name)}`) : undefined;
}

/** `dependentRequired` and the array form of draft-07 `dependencies`. */
function describeDependencies(failure: RawFailure): string[] | undefined {
  const data = failure.data;
  const table = failure.schema?.[failure.keyword];
  if (typeof table !== 'object' || table === null || typeof data !== 'object' || data === null) {
    return undefined;
  }
  const messages: string[] = [];
  for (const [trigger, needs] of Object.entries(table)) {
    if (!Object.hasOwn(data, trigger) || !Array.isArray(needs)) continue;
    for (const need of needs) {
      if (typeof need === 'string' && !Object.hasOwn(data, need)) {
        messages.push(`property ${preview(trigger)} requires property ${preview(need)}`);
      }
    }
  }
  // Schema-valued dependencies report through their subschema's own failures.
  return messages;
}

/** `1 item`, `2 items`. */
function count(limit: unknown, noun: string, plural = `${noun}s`): string {
  return `${limit} ${limit === 1 ? noun : plural}`;
}

function describeLimit(failure: RawFailure): string | undefined {
  const { keyword, schema } = failure;
  const limit = schema?.[keyword];
  switch (keyword) {
    case 'minLength':
      return `must be at least ${count(limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${count(limit, 'character')} long`;
    case 'minItems':
      return `must have at least ${count(limit, 'item')}`;
    case 'maxItems':
      return `must have at most ${count(limit, 'item')}`;
    case 'minProperties':
      return `must have at least ${count(limit, 'property', 'properties')}`;
    case 'maxProperties':
      return `must have at most ${count(limit, 'property', 'properties')}`;
    case 'minContains':
      return `must contain at least ${count(limit, 'item')} matching the "contains" schema`;
    case 'maxContains':
      return `must contain at most ${count(limit, 'item')} matching the "contains" schema`;
    case 'multipleOf':
      return `must be a multiple of ${limit}`;
    default:
      return undefined;
  }
}

/** Numeric bounds; draft-04 spells exclusivity as a boolean next to `minimum`/`maximum`. */
function describeBound(failure: RawFailure): string | undefined {
  const { keyword, schema } = failure;
  switch (keyword) {
    case 'minimum':
      return `must be ${schema?.exclusiveMinimum === true ? '>' : '>='} ${schema?.minimum}`;
    case 'maximum':
      return `must be ${schema?.exclusiveMaximum === true ? '<' : '<='} ${schema?.maximum}`;
    case 'exclusiveMinimum':
      return `must be > ${schema?.exclusiveMinimum}`;
    case 'exclusiveMaximum':
      return `must be < ${schema?.exclusiveMaximum}`;
    default:
      return undefined;
  }
}

function describeOther(failure: RawFailure): string | undefined {
  const { keyword, schema, property } = failure;
  switch (keyword) {
    case 'enum':
      return Array.isArray(schema?.enum) ? `must be one of ${listPreview(schema.enum)}` : undefined;
    case 'const':
      return schema && 'const' in schema ? `must equal ${preview(schema.const)}` : undefined;
    case 'pattern':
      return typeof schema?.pattern === 'string'
        ? `must match pattern ${preview(schema.pattern)}`
        : undefined;
    case 'format':
      return typeof schema?.format === 'string' ? `must be a valid ${schema.format}` : undefined;
    case 'uniqueItems':
      return 'must not contain duplicate items';
    case 'contains':
      // With minContains/maxContains the validator's own wording carries the counts.
      return schema?.minContains === undefined && schema?.maxContains === undefined
        ? 'must contain at least one item matching the "contains" schema'
        : undefined;
    case 'anyOf':
      return 'must match at least one of the allowed schemas (anyOf)';
    case 'oneOf':
      return 'must match exactly one of the allowed schemas (oneOf)';
    case 'not':
      return 'must not match the schema in "not"';
    case 'false':
      return 'no value is allowed here';
    case 'unexpectedProperty':
      return property === undefined ? 'unexpected property' : `unexpected property ${preview(property)}`;
    case 'propertyNames':
      return property === undefined
        ? 'has an invalid property name'
        : `invalid property name ${preview(property)}`;
    case 'tooManyItems':
      return failure.limit === undefined
        ? 'has too many items'
        : `must have at most ${count(failure.limit, 'item')}`;
    default:
      return undefined;
  }
}

/** Words one failure; a failure may become several issues (e.g. every missing property). */
export function describeFailure(failure: RawFailure): string[] {
  switch (failure.keyword) {
    case 'required':
      return describeRequired(failure) ?? [failure.fallback];
    case 'dependentRequired':
    case 'dependencies':
      return describeDependencies(failure) ?? [failure.fallback];
    case 'type':
      return [describeType(failure) ?? failure.fallback];
    default:
      return [describeLimit(failure) ?? describeBound(failure) ?? describeOther(failure) ?? failure.fallback];
  }
}

/**
 * Words a list of failures as issues: duplicates removed, at most `maxIssues` kept, plus one line
 * saying how many more there were (a model fixes the first ones and retries).
 */
export function toIssues(failures: Iterable<RawFailure>, limits: IssueLimits): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  let hidden = 0;
  for (const failure of failures) {
    for (const message of describeFailure(failure)) {
      const key = `${failure.path}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (issues.length < limits.maxIssues) issues.push({ path: failure.path, message });
      else hidden++;
    }
  }
  if (hidden > 0) issues.push({ path: '', message: `${hidden} more issue(s) not shown` });
  if (issues.length === 0) issues.push({ path: '', message: 'does not match the schema' });
  return issues;
}

/**
 * Options every mcpkit JSON Schema validator accepts.
 *
 * @example
 * ```ts
 * const validator = cfworkerValidator({ formats: false, maxIssues: 5 });
 * ```
 */
export interface ValidatorOptions {
  /**
   * Check `format` (email, date-time, uri...) where the validator knows the format. Default true:
   * a model told "must be a valid date-time" fixes its call; an unchecked format fails later.
   */
  readonly formats?: boolean;
  /** Report every failure rather than stopping at the first one. Default true. */
  readonly allErrors?: boolean;
  /** At most this many issues per failed value. Default 20. */
  readonly maxIssues?: number;
}

/** The issue limits implied by validator options. */
export function issueLimits(options: ValidatorOptions | undefined): IssueLimits {
  const maxIssues = options?.maxIssues ?? 20;
  if (!Number.isInteger(maxIssues) || maxIssues < 1) {
    throw new RangeError(`maxIssues must be a positive integer, got ${maxIssues}`);
  }
  return { maxIssues };
}
