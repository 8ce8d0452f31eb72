/**
 * Checks values against a schema before they are sent (a tool's arguments, an elicitation
 * answer) and structured results against a tool's `outputSchema`, with @mcpkit/schema's default
 * validator: the page judges exactly as the libraries do.
 * @module
 */
import { type CompiledValidator, defaultValidator, type ValidationIssue } from '@mcpkit/schema';
import type { Schema } from './schema.js';

const validator = defaultValidator();
const compiled = new WeakMap<Schema, CompiledValidator | Error>();

/**
 * The issues of `value` against `schema`: none when it is valid. A schema that cannot be
 * compiled is one issue that says why.
 *
 * @example
 * ```ts
 * issuesOf({ type: 'string' }, 3); // [{ path: '', message: 'must be string, got integer' }]
 * ```
 */
export function issuesOf(schema: Schema, value: unknown): ValidationIssue[] {
  let check = compiled.get(schema);
  if (!check) {
    try {
      check = validator.compile(schema);
    } catch (error) {
      check = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, check);
  }
  if (check instanceof Error) return [{ path: '', message: `The schema cannot be used: ${check.message}` }];
  const result = check(value);
  return result.valid ? [] : [...result.issues];
}
