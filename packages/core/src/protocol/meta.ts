/**
 * `_meta` key rules: the key grammar, the prefixes MCP reserves for itself, and a validator for
 * `_meta` objects that users attach to tools, resources, prompts, results and so on.
 *
 * Hand-written character checks rather than regular expressions: linear, and no backtracking on
 * hostile keys.
 * @module
 */
import { isAsciiAlphanumeric } from '../shared.js';
import type { ProtocolVersion } from './revisions.js';
import { MODEL_IMMEDIATE_RESPONSE_META_KEY, RELATED_TASK_META_KEY } from './types.js';

/** Reserved-prefix keys each revision defines; other keys under a reserved prefix are MCP's alone. */
const DEFINED_RESERVED_KEYS: Readonly<Record<ProtocolVersion, readonly string[]>> = {
  '2025-11-25': [RELATED_TASK_META_KEY, MODEL_IMMEDIATE_RESPONSE_META_KEY],
  '2025-06-18': [],
  '2025-03-26': [],
  '2024-11-05': [],
};

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** A prefix label: starts with a letter, ends with a letter or digit, hyphens inside. */
function isValidLabel(label: string): boolean {
  const last = label.length - 1;
  if (last < 0 || !isLetter(label.charCodeAt(0)) || !isAsciiAlphanumeric(label.charCodeAt(last)))
    return false;
  for (let i = 1; i < last; i++) {
    const code = label.charCodeAt(i);
    if (!isAsciiAlphanumeric(code) && code !== 45) return false;
  }
  return true;
}

/** A name: empty, or alphanumeric at both ends with `-`, `_`, `.` allowed inside. */
function isValidName(name: string): boolean {
  const last = name.length - 1;
  if (last < 0) return true;
  if (!isAsciiAlphanumeric(name.charCodeAt(0)) || !isAsciiAlphanumeric(name.charCodeAt(last))) return false;
  for (let i = 1; i < last; i++) {
    const code = name.charCodeAt(i);
    if (!isAsciiAlphanumeric(code) && code !== 45 && code !== 95 && code !== 46) return false;
  }
  return true;
}

/** The prefix labels of a valid key (empty when it has no prefix), or `undefined` when invalid. */
function parseKey(key: string): string[] | undefined {
  const slash = key.indexOf('/');
  if (slash === -1) return isValidName(key) ? [] : undefined;
  if (key.indexOf('/', slash + 1) !== -1 || !isValidName(key.slice(slash + 1))) return undefined;
  const labels = key.slice(0, slash).split('.');
  return labels.every(isValidLabel) ? labels : undefined;
}

/**
 * True when `key` follows the `_meta` key grammar: an optional prefix of dot-separated labels
 * ending in `/`, then a name.
 *
 * @example
 * ```ts
 * isValidMetaKey('com.example/cache-hint'); // true
 * isValidMetaKey('progressToken'); // true
 * isValidMetaKey('-bad'); // false
 * isValidMetaKey('com.example/a/b'); // false
 * ```
 */
export function isValidMetaKey(key: string): boolean {
  return parseKey(key) !== undefined;
}

function isMcpLabel(label: string | undefined): boolean {
  if (label === undefined) return false;
  // Prefixes are DNS-like, and DNS is case-insensitive: treat `IO.MCP/` as reserved too.
  const lower = label.toLowerCase();
  return lower === 'modelcontextprotocol' || lower === 'mcp';
}

/**
 * True when `key` is valid and its prefix is reserved for MCP in `version`.
 *
 * - 2025-11-25: the prefix's second label is `modelcontextprotocol` or `mcp`
 *   (`io.modelcontextprotocol/`, `dev.mcp/`, `com.mcp.tools/`; not `com.example.mcp/`).
 * - 2025-06-18: `modelcontextprotocol` or `mcp` followed by another label, anywhere in the prefix
 *   (`modelcontextprotocol.io/`, `tools.mcp.com/`).
 * - 2025-03-26 and 2024-11-05 define no key rules, so nothing is reserved by prefix.
 *
 * Labels are compared without regard to case.
 *
 * @example
 * ```ts
 * isReservedMetaKey('io.modelcontextprotocol/related-task'); // true
 * isReservedMetaKey('com.example.mcp/x'); // false
 * isReservedMetaKey('mcp.dev/x', '2025-06-18'); // true
 * ```
 */
export function isReservedMetaKey(key: string, version: ProtocolVersion = '2025-11-25'): boolean {
  const labels = parseKey(key);
  if (labels === undefined || labels.length === 0) return false;
  if (version === '2025-11-25') return isMcpLabel(labels[1]);
  if (version === '2025-06-18') return labels.slice(0, -1).some(isMcpLabel);
  return false;
}

/**
 * Options of {@link validateMeta}.
 *
 * @example
 * ```ts
 * validateMeta(meta, { version: '2025-06-18', allowReservedKeys: false });
 * ```
 */
export interface ValidateMetaOptions {
  /** The revision whose reserved prefixes apply (default 2025-11-25). */
  version?: ProtocolVersion;
  /** Accept keys under a reserved prefix that the revision does not define (default false). */
  allowReservedKeys?: boolean;
}

function describeKey(key: string): string {
  return JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key);
}

function problemWithKnownKey(key: string, value: unknown): string | undefined {
  switch (key) {
    case 'progressToken':
      return typeof value === 'string' || Number.isSafeInteger(value)
        ? undefined
        : `_meta.progressToken must be a string or an integer`;
    case RELATED_TASK_META_KEY: {
      const taskId =
        typeof value === 'object' && value !== null ? (value as { taskId?: unknown }).taskId : undefined;
      return typeof taskId === 'string'
        ? undefined
        : `_meta["${key}"] must be an object with a string "taskId"`;
    }
    case MODEL_IMMEDIATE_RESPONSE_META_KEY:
      return typeof value === 'string' ? undefined : `_meta["${key}"] must be a string`;
    default:
      return undefined;
  }
}

/**
 * Lists what is wrong with a `_meta` object: keys that break the grammar, keys under a prefix MCP
 * reserves that the revision does not define, and MCP-defined keys with values of the wrong type.
 * An empty list means it is fine.
 *
 * @example
 * ```ts
 * validateMeta({ 'com.example/trace': 'abc' }); // []
 * validateMeta({ 'io.modelcontextprotocol/mine': 1 });
 * // ['_meta key "io.modelcontextprotocol/mine" uses a prefix reserved for MCP']
 * validateMeta({ 'bad key': 1 }); // ['_meta key "bad key" is not a valid key ...']
 * ```
 */
export function validateMeta(meta: unknown, options: ValidateMetaOptions = {}): string[] {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return ['_meta must be an object'];
  const version = options.version ?? '2025-11-25';
  const defined = DEFINED_RESERVED_KEYS[version];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(meta)) {
    if (!isValidMetaKey(key)) {
      problems.push(
        `_meta key ${describeKey(key)} is not a valid key (an optional "label.label/" prefix, then a name of letters, digits, "-", "_", ".")`,
      );
      continue;
    }
    const knownProblem = problemWithKnownKey(key, value);
    if (knownProblem) problems.push(knownProblem);
    if (!options.allowReservedKeys && isReservedMetaKey(key, version) && !defined.includes(key)) {
      problems.push(`_meta key ${describeKey(key)} uses a prefix reserved for MCP`);
    }
  }
  return problems;
}
