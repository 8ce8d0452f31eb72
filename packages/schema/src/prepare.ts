/**
 * Compile-time schema preparation shared by the validators.
 *
 * `@cfworker/json-schema` evaluates every keyword it knows whatever the dialect, and it writes
 * bookkeeping properties into the schema it is given. So before handing a schema over we copy it,
 * and in the copy drop the keywords the declared dialect does not have (the spec says unknown
 * keywords are ignored, so a draft-07 schema's `prefixItems` must not constrain anything). The
 * caller's schema object is never touched, which keeps `toJsonSchema` pass-through exact and lets
 * frozen schemas compile.
 * @module
 */
import type { JsonSchema, JsonSchemaDialect } from '@mcpkit/core';
import { isRecord, setOwn } from '@mcpkit/core/internal';
import { escapePointerSegment } from './issues.js';

/**
 * Raised by `compile` when a schema cannot be used as given (bad pattern, unresolved `$ref`...).
 *
 * @example
 * ```ts
 * try {
 *   defaultValidator().compile({ $ref: '#/$defs/missing' });
 * } catch (error) {
 *   if (error instanceof InvalidSchemaError) console.error(error.message);
 * }
 * ```
 */
export class InvalidSchemaError extends Error {
  override readonly name = 'InvalidSchemaError';
  /**
   * @param message what is wrong, in terms a schema author can act on.
   * @param schemaPath JSON Pointer to the offending place in the schema.
   */
  constructor(
    message: string,
    readonly schemaPath: string,
  ) {
    super(schemaPath === '' ? message : `${message} (at schema ${schemaPath})`);
  }
}

type SchemaObject = Record<string, unknown>;

/** Keywords whose value is one subschema. */
const SINGLE_SCHEMA = new Set([
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP = new Set(['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas']);

/** Keywords that only exist from 2019-09 on. */
const MODERN_ONLY = [
  'prefixItems',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minContains',
  'maxContains',
  '$recursiveRef',
  '$recursiveAnchor',
  '$dynamicRef',
  '$dynamicAnchor',
];

/**
 * Keywords each dialect does not define, which must therefore not constrain anything.
 * `dependencies` is kept in 2019-09/2020-12, as Ajv does: it has a single meaning, and schemas
 * written for draft-07 without a `$schema` would otherwise silently lose their constraints.
 */
const FOREIGN_KEYWORDS: Readonly<Record<JsonSchemaDialect, ReadonlySet<string>>> = {
  'draft-04': new Set([...MODERN_ONLY, 'const', 'contains', 'propertyNames', 'if', 'then', 'else']),
  'draft-06': new Set([...MODERN_ONLY, 'if', 'then', 'else']),
  'draft-07': new Set(MODERN_ONLY),
  '2019-09': new Set(['prefixItems', '$dynamicRef', '$dynamicAnchor']),
  '2020-12': new Set(['additionalItems', '$recursiveRef', '$recursiveAnchor']),
};

/** How deep a schema may nest; deeper is almost surely a cycle in a hand-built object. */
const MAX_DEPTH = 256;

/** What {@link prepareSchema} should do besides copying. */
export interface PrepareOptions {
  /** Keep `format` (true) or drop it so formats are not checked (false). */
  readonly formats: boolean;
}

/**
 * Returns a private, dialect-normalized deep copy of `schema`.
 *
 * @throws {InvalidSchemaError} for an invalid regular expression or a schema nested too deeply.
 * @example
 * ```ts
 * prepareSchema({ $schema: 'http://json-schema.org/draft-07/schema#', prefixItems: [] }, 'draft-07', { formats: true });
 * // { $schema: 'http://json-schema.org/draft-07/schema#' }
 * ```
 */
export function prepareSchema(
  schema: JsonSchema,
  dialect: JsonSchemaDialect,
  options: PrepareOptions,
): JsonSchema {
  return new SchemaCopier(dialect, options).schema(schema, '', 0);
}

class SchemaCopier {
  readonly #foreign: ReadonlySet<string>;

  readonly #dialect: JsonSchemaDialect;
  readonly #options: PrepareOptions;
  constructor(dialect: JsonSchemaDialect, options: PrepareOptions) {
    this.#dialect = dialect;
    this.#options = options;
    this.#foreign = FOREIGN_KEYWORDS[dialect];
  }

  schema(node: unknown, path: string, depth: number): JsonSchema {
    if (depth > MAX_DEPTH) throw new InvalidSchemaError('Schema is nested too deeply (or is cyclic)', path);
    if (typeof node === 'boolean') return node;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      // Not a schema; copied as data so the validator sees what the author wrote and can complain.
      return cloneData(node, path, depth) as JsonSchema;
    }
    const source = this.#dialect === '2020-12' ? upgradeTo2020(node as SchemaObject) : (node as SchemaObject);
    const copy: SchemaObject = {};
    for (const [keyword, value] of Object.entries(source)) {
      if (this.#foreign.has(keyword)) continue;
      if (keyword === 'format' && !this.#options.formats) continue;
      setOwn(
        copy,
        keyword,
        this.#keyword(keyword, value, `${path}/${escapePointerSegment(keyword)}`, depth + 1),
      );
    }
    return copy;
  }

  #keyword(keyword: string, value: unknown, path: string, depth: number): unknown {
    if (SINGLE_SCHEMA.has(keyword)) return this.schema(value, path, depth);
    if (SCHEMA_LIST.has(keyword) && Array.isArray(value)) return this.#list(value, path, depth);
    if (keyword === 'items') {
      return Array.isArray(value) ? this.#list(value, path, depth) : this.schema(value, path, depth);
    }
    if (SCHEMA_MAP.has(keyword) && isRecord(value)) {
      if (keyword === 'patternProperties') checkPatterns(Object.keys(value), path);
      return this.#map(value, path, depth);
    }
    if (keyword === 'dependencies' && isRecord(value)) return this.#dependencies(value, path, depth);
    if (keyword === 'pattern' && typeof value === 'string') checkPatterns([value], path);
    return cloneData(value, path, depth);
  }

  #list(value: readonly unknown[], path: string, depth: number): JsonSchema[] {
    return value.map((item, index) => this.schema(item, `${path}/${index}`, depth));
  }

  #map(value: SchemaObject, path: string, depth: number): SchemaObject {
    const copy: SchemaObject = {};
    for (const [name, sub] of Object.entries(value)) {
      setOwn(copy, name, this.schema(sub, `${path}/${escapePointerSegment(name)}`, depth));
    }
    return copy;
  }

  #dependencies(value: SchemaObject, path: string, depth: number): SchemaObject {
    const copy: SchemaObject = {};
    for (const [name, sub] of Object.entries(value)) {
      const subPath = `${path}/${escapePointerSegment(name)}`;
      setOwn(
        copy,
        name,
        Array.isArray(sub) ? cloneData(sub, subPath, depth) : this.schema(sub, subPath, depth),
      );
    }
    return copy;
  }
}

/**
 * Reads pre-2020 spellings in a 2020-12 schema the way their author meant them.
 *
 * The validator we wrap has no `$dynamicRef`; outside recursive schema extension (which tool
 * schemas do not use) a dynamic reference resolves exactly like a static one, so it becomes a
 * `$ref` to a plain `$anchor`. A tuple written as `items: [...]` (draft-07 style, invalid in
 * 2020-12) is read as `prefixItems`, rather than silently accepting anything.
 */
function upgradeTo2020(node: SchemaObject): SchemaObject {
  let upgraded = node;
  if (typeof node.$dynamicAnchor === 'string' && node.$anchor === undefined) {
    upgraded = { ...upgraded, $anchor: node.$dynamicAnchor };
  }
  if (typeof node.$dynamicRef === 'string') {
    upgraded =
      node.$ref === undefined
        ? { ...upgraded, $ref: node.$dynamicRef }
        : { ...upgraded, allOf: [...asArray(node.allOf), { $ref: node.$dynamicRef }] };
  }
  if (Array.isArray(node.items) && node.prefixItems === undefined) {
    const { items, additionalItems, ...rest } = upgraded;
    upgraded =
      additionalItems === undefined
        ? { ...rest, prefixItems: items }
        : { ...rest, prefixItems: items, items: additionalItems };
  }
  return upgraded;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function checkPatterns(patterns: readonly string[], path: string): void {
  for (const pattern of patterns) {
    try {
      new RegExp(pattern, 'u');
    } catch {
      throw new InvalidSchemaError(`Invalid regular expression ${JSON.stringify(pattern)}`, path);
    }
  }
}

/** Deep copy of plain JSON data (`const`, `enum`, `default`, unknown keywords...). */
function cloneData(value: unknown, path: string, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) throw new InvalidSchemaError('Schema is nested too deeply (or is cyclic)', path);
  if (Array.isArray(value)) return value.map((item) => cloneData(item, path, depth + 1));
  const copy: SchemaObject = {};
  for (const [key, item] of Object.entries(value)) setOwn(copy, key, cloneData(item, path, depth + 1));
  return copy;
}
