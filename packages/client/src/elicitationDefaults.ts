/**
 * Fills in schema defaults the user left out of an accepted form elicitation (SEP-1034), so the
 * server receives a complete answer even when the host's form UI skipped optional fields.
 * @module
 */
import type { ElicitRequestFormParams, ElicitResult } from '@mcpkit/core';

/**
 * Returns `result` with every missing property that has a `default` in the schema filled in.
 * Only accepted answers change; declines and cancels pass through untouched.
 *
 * @example
 * ```ts
 * applyElicitationDefaults(
 *   { type: 'object', properties: { color: { type: 'string', default: 'blue' } } },
 *   { action: 'accept', content: {} },
 * ); // { action: 'accept', content: { color: 'blue' } }
 * ```
 */
export function applyElicitationDefaults(
  schema: ElicitRequestFormParams['requestedSchema'],
  result: ElicitResult,
): ElicitResult {
  if (result.action !== 'accept') return result;
  const properties = schema?.properties;
  if (!properties) return result;
  let content = result.content;
  for (const [name, property] of Object.entries(properties)) {
    const fallback = (property as { default?: unknown }).default;
    if (fallback === undefined || (content && content[name] !== undefined)) continue;
    content = { ...content, [name]: fallback as never };
  }
  return content === result.content ? result : { ...result, content };
}
