/**
 * A small key-based redactor for what loggers write: values under sensitive keys are replaced,
 * whatever they hold. It looks at keys only (a substring test, no regular expression), so no
 * value, however crafted, costs more than its size.
 * @module
 */

/** Key fragments (lower case) whose values never reach a log. */
const SENSITIVE = [
  'authorization',
  'cookie',
  'token',
  'secret',
  'password',
  'passwd',
  'apikey',
  'api_key',
  'api-key',
  'credential',
];

/** How deep {@link redact} copies before it stops (logs need no deeper, and cycles end here). */
const MAX_DEPTH = 8;

/**
 * What a redacted value is replaced with.
 *
 * @example
 * ```ts
 * redact({ password: 'x' }); // { password: REDACTED }
 * ```
 */
export const REDACTED = '[Redacted]';

/**
 * Whether values under `key` are secret: it contains `authorization`, `cookie`, `token`,
 * `secret`, `password`, `passwd`, `apikey`/`api_key`/`api-key` or `credential` (any case), or
 * one of `extra` (lower case).
 *
 * @example
 * ```ts
 * isSensitiveKey('Authorization'); // true
 * isSensitiveKey('refresh_token'); // true
 * isSensitiveKey('name'); // false
 * ```
 */
export function isSensitiveKey(key: string, extra: readonly string[] = []): boolean {
  const lower = key.toLowerCase();
  return SENSITIVE.some((part) => lower.includes(part)) || extra.some((part) => lower.includes(part));
}

/**
 * A copy of `value` with every sensitive key's value (see {@link isSensitiveKey}) replaced by
 * `[Redacted]`, through plain objects and arrays, at most 8 levels deep.
 *
 * @example
 * ```ts
 * redact({ headers: { authorization: 'Bearer abc', accept: '*' } });
 * // { headers: { authorization: '[Redacted]', accept: '*' } }
 * ```
 */
export function redact(value: unknown, extra: readonly string[] = [], depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (Array.isArray(value)) return value.map((item) => redact(item, extra, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSensitiveKey(key, extra) ? REDACTED : redact(item, extra, depth + 1);
  }
  return copy;
}
