/**
 * The syntax of option and argument values shared by the verbs: server URLs, headers,
 * environment entries, durations, log levels, `--era`, and the "did you mean" of a typo.
 * @module
 */
import { LOGGING_LEVELS, type LoggingLevel } from '@mcpkit/core';
import { usageError } from './errors.js';

/** True for an absolute http(s) URL. */
export function isHttpUrl(word: string): boolean {
  return /^https?:\/\//i.test(word) && URL.canParse(word);
}

/**
 * Parses the URL of an HTTP server, with a suggestion when it is almost one.
 *
 * @example
 * ```ts
 * parseServerUrl('http://127.0.0.1:3000/mcp').port; // '3000'
 * parseServerUrl('localhost:3000/mcp'); // throws: ... Did you mean http://localhost:3000/mcp?
 * ```
 */
export function parseServerUrl(text: string, verb = 'list'): URL {
  let url: URL | undefined;
  if (text.includes('://')) {
    try {
      url = new URL(text);
    } catch {
      throw usageError(`"${text}" is not a valid URL`, 'A server URL looks like http://127.0.0.1:3000/mcp');
    }
  }
  if (url === undefined) {
    const looksLikeHost = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d+)?(\/|$)/.test(text);
    const hint = looksLikeHost
      ? `Did you mean http://${text}?`
      : `To start a server over stdio, put its command after \`--\`: mcpkit ${verb} -- ${text} …`;
    throw usageError(`"${text}" is not a server URL`, hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(
      `"${text}" is not an http or https URL`,
      'MCP servers over the network use http:// or https://',
    );
  }
  return url;
}

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `--header NAME:VALUE`, as a name and a value. */
export function parseHeader(text: string): readonly [string, string] {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  if (colon < 0 || !HEADER_NAME.test(name)) {
    throw usageError(
      `--header expects NAME:VALUE, got "${text}"`,
      'Example: --header "Authorization: Bearer TOKEN"',
    );
  }
  return [name, text.slice(colon + 1).trim()];
}

/** `-e KEY=VALUE` entries, as an environment. */
export function parseEnv(entries: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    if (equals <= 0) throw usageError(`-e expects KEY=VALUE, got "${entry}"`, 'Example: -e API_KEY=secret');
    env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return env;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)?$/;
const DURATION_UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/**
 * Parses a duration: a number of seconds, or a number with `ms`, `s` or `m`.
 *
 * @example
 * ```ts
 * parseDuration('30'); // 30000
 * parseDuration('250ms'); // 250
 * ```
 */
export function parseDuration(text: string, option = 'timeout'): number {
  const match = DURATION.exec(text.trim());
  const ms = match ? Number(match[1]) * (DURATION_UNIT_MS[match[2] ?? 's'] ?? 1000) : Number.NaN;
  if (!(ms > 0) || !Number.isFinite(ms)) {
    throw usageError(`--${option} expects a duration such as 30, 30s, 500ms or 2m; got "${text}"`);
  }
  return Math.ceil(ms);
}

/** `--log-level`, one of the MCP logging levels. */
export function parseLogLevel(text: string | undefined): LoggingLevel | undefined {
  if (text === undefined) return undefined;
  if ((LOGGING_LEVELS as readonly string[]).includes(text)) return text as LoggingLevel;
  throw usageError(`--log-level must be one of ${LOGGING_LEVELS.join(', ')}; got "${text}"`);
}

/** The candidate nearest to `word` by edit distance, if it is a plausible typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= 2 ? best : undefined;
}

function editDistance(a: string, b: string): number {
  if (a.length > 64) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * `--era auto|2026|2025`; `fallback` when absent: `auto` (the client's default) for the commands,
 * `2025` for the gateway's upstreams (the host's default: its policies rest on 2025 sessions).
 */
export function parseEra(text: string | undefined, fallback: 'auto' | '2025'): 'auto' | '2026' | '2025' {
  if (text === undefined) return fallback;
  if (text === 'auto' || text === '2026' || text === '2025') return text;
  throw usageError(`--era must be auto, 2026 or 2025; got "${text}"`);
}
