/**
 * JSON Schema dialect selection (SEP-1613).
 *
 * A schema with no `$schema` is JSON Schema 2020-12. A schema may name another dialect; we honour
 * the ones we can validate and refuse the rest with an error that names the dialect, as the spec
 * requires ("fail gracefully").
 * @module
 */

/** The JSON Schema dialects mcpkit validates. */
export type JsonSchemaDialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06' | 'draft-04';

const DIALECT_BY_URI: Readonly<Record<string, JsonSchemaDialect>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft-06/schema': 'draft-06',
  'http://json-schema.org/draft-04/schema': 'draft-04',
};

/**
 * Raised when a schema names a dialect mcpkit cannot validate.
 *
 * @example
 * ```ts
 * try {
 *   server.tool('t', { inputSchema: { $schema: 'https://example.com/my-dialect', type: 'object' } }, () => 'ok');
 * } catch (error) {
 *   if (error instanceof UnsupportedDialectError) console.error(error.dialect);
 * }
 * ```
 */
export class UnsupportedDialectError extends Error {
  override readonly name = 'UnsupportedDialectError';
  constructor(readonly dialect: string) {
    super(
      `Unsupported JSON Schema dialect "${dialect}". Supported: ${Object.keys(DIALECT_BY_URI).join(', ')} (2020-12 when $schema is absent).`,
    );
  }
}

/**
 * The dialect of a schema without `$schema`, per the 2025-11-25 revision.
 *
 * @example
 * ```ts
 * schemaDialect({ type: 'object' }) === DEFAULT_DIALECT; // true
 * ```
 */
export const DEFAULT_DIALECT: JsonSchemaDialect = '2020-12';

/**
 * Returns the dialect a schema declares, or 2020-12 when it declares none.
 *
 * Trailing `#` and `http`/`https` differences are tolerated, since both spellings circulate.
 *
 * @throws {UnsupportedDialectError} when `$schema` names a dialect mcpkit does not validate.
 * @example
 * ```ts
 * schemaDialect({ type: 'object' }); // '2020-12'
 * schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }); // 'draft-07'
 * ```
 */
export function schemaDialect(schema: unknown): JsonSchemaDialect {
  if (typeof schema !== 'object' || schema === null) return DEFAULT_DIALECT;
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return DEFAULT_DIALECT;
  // Not String(declared): it throws on an object whose toString is not a function (valid JSON).
  if (typeof declared !== 'string') throw new UnsupportedDialectError(`(a ${typeof declared})`);
  const normalized = declared.endsWith('#') ? declared.slice(0, -1) : declared;
  const dialect =
    DIALECT_BY_URI[normalized] ??
    DIALECT_BY_URI[normalized.replace(/^https:/, 'http:')] ??
    DIALECT_BY_URI[normalized.replace(/^http:/, 'https:')];
  if (!dialect) throw new UnsupportedDialectError(declared);
  return dialect;
}
