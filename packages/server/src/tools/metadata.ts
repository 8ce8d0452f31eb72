/**
 * Registration-time checks of the metadata tools, resources and prompts carry (titles, icons,
 * annotations, `_meta`). A mistake here is the server author's, so it fails at registration with a
 * message naming the item, rather than reaching a client.
 * @module
 */
import { validateIcons, validateMeta } from '@mcpkit/core/internal';

/**
 * A deep copy of JSON data, so what a peer is shown cannot change behind the server's back when
 * the caller later edits the object it registered.
 *
 * @example
 * ```ts
 * const icons = cloneJson(config.icons);
 * ```
 */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Throws a `TypeError` naming `what` when `value` is present and not a string.
 *
 * @example
 * ```ts
 * checkOptionalString('Tool "x"', 'title', config.title);
 * ```
 */
export function checkOptionalString(what: string, field: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') {
    throw new TypeError(`${what}: "${field}" must be a string`);
  }
}

/**
 * Checks `icons` (https/data sources only, sizes, theme) and `_meta` (key grammar, reserved
 * prefixes).
 *
 * @throws {TypeError} listing every problem.
 * @example
 * ```ts
 * checkIconsAndMeta('Tool "x"', { icons: [{ src: 'http://example.com/i.png' }] }); // throws: icons[0]: ...
 * ```
 */
export function checkIconsAndMeta(what: string, config: { icons?: unknown; _meta?: unknown }): void {
  const problems: string[] = [];
  if (config.icons !== undefined) problems.push(...validateIcons(config.icons));
  if (config._meta !== undefined) problems.push(...validateMeta(config._meta));
  if (problems.length > 0) throw new TypeError(`${what}: ${problems.join('; ')}`);
}

/**
 * Checks resource-style `annotations`: `audience` ⊆ {user, assistant}, `priority` in [0, 1],
 * `lastModified` an ISO 8601 date-time.
 *
 * @throws {TypeError} naming the first problem.
 * @example
 * ```ts
 * checkAnnotations('Resource "x"', { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' });
 * ```
 */
export function checkAnnotations(what: string, annotations: unknown): void {
  if (annotations === undefined) return;
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) {
    throw new TypeError(`${what}: "annotations" must be an object`);
  }
  const { audience, priority, lastModified } = annotations as Record<string, unknown>;
  if (
    audience !== undefined &&
    (!Array.isArray(audience) || !audience.every((role) => role === 'user' || role === 'assistant'))
  ) {
    throw new TypeError(`${what}: annotations.audience must be an array of "user" and/or "assistant"`);
  }
  if (priority !== undefined && (typeof priority !== 'number' || !(priority >= 0 && priority <= 1))) {
    throw new TypeError(`${what}: annotations.priority must be a number from 0 to 1`);
  }
  if (lastModified !== undefined && (typeof lastModified !== 'string' || !isIsoDateTime(lastModified))) {
    throw new TypeError(
      `${what}: annotations.lastModified must be an ISO 8601 date-time such as "2025-01-12T15:00:58Z"`,
    );
  }
}

const TOOL_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * Checks `ToolAnnotations`: boolean hints and a string `title`.
 *
 * @throws {TypeError} naming the first problem.
 * @example
 * ```ts
 * checkToolAnnotations('Tool "x"', { readOnlyHint: true });
 * ```
 */
export function checkToolAnnotations(what: string, annotations: unknown): void {
  if (annotations === undefined) return;
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) {
    throw new TypeError(`${what}: "annotations" must be an object`);
  }
  const fields = annotations as Record<string, unknown>;
  checkOptionalString(what, 'annotations.title', fields.title);
  for (const hint of TOOL_HINTS) {
    if (fields[hint] !== undefined && typeof fields[hint] !== 'boolean') {
      throw new TypeError(`${what}: annotations.${hint} must be a boolean`);
    }
  }
}

function isDigits(text: string, from: number, count: number): boolean {
  for (let i = from; i < from + count; i++) {
    const code = text.charCodeAt(i);
    if (!(code >= 48 && code <= 57)) return false;
  }
  return true;
}

/** `YYYY-MM-DD` optionally followed by `Thh:mm[:ss[.fff]]` and `Z` or `±hh:mm`, and a real date. */
function isIsoDateTime(text: string): boolean {
  if (text.length < 10 || text.length > 40) return false;
  if (
    !isDigits(text, 0, 4) ||
    text[4] !== '-' ||
    !isDigits(text, 5, 2) ||
    text[7] !== '-' ||
    !isDigits(text, 8, 2)
  ) {
    return false;
  }
  if (text.length > 10) {
    if (text[10] !== 'T' && text[10] !== 't') return false;
    if (!isDigits(text, 11, 2) || text[13] !== ':' || !isDigits(text, 14, 2)) return false;
  }
  return !Number.isNaN(Date.parse(text));
}
