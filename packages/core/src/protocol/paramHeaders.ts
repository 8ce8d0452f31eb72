/**
 * The header rules of revision 2026-07-28 that both sides apply (Streamable HTTP, "Request
 * Metadata" and "Custom Headers from Tool Parameters"): which request param `Mcp-Name` carries,
 * where a tool's `x-mcp-header` annotations are and whether they are valid, how a value is
 * encoded as a header (`=?base64?…?=` when it is not plain ASCII) and decoded again. The server
 * checks annotations at registration and headers against bodies; the client learns annotations
 * from `tools/list` and sends the headers. Each side words its own errors.
 * @module
 */
import { isAsciiAlphanumeric, isBase64Char, isRecord } from '../shared.js';

/** One valid annotation: the argument's property path from the schema root, and its header name. */
export interface ParamHeader {
  readonly path: readonly string[];
  readonly name: string;
}

/**
 * Why a schema's annotations break the rules: `unreachable` (not on a parameter reached through
 * `properties` alone), `empty` (empty or not a string), `token` (not an HTTP token), `type` (not on
 * a `string`, `integer` or `boolean` parameter), `twice` (a name repeated, case-insensitively) or
 * `depth` (the schema nests deeper than {@link MAX_PARAM_HEADER_DEPTH}; nothing below is searched).
 */
export interface ParamHeaderProblem {
  readonly reason: 'unreachable' | 'empty' | 'token' | 'type' | 'twice' | 'depth';
  /** The property path of the node (the keys of `properties` only). */
  readonly path: readonly string[];
  /** Every key from the root to the node, `/`-separated (`''` at the root). */
  readonly pointer: string;
  /** The annotation's value (absent for `depth`). */
  readonly name?: unknown;
}

/** A schema's annotations in document order, and the first problem (the annotations then stop there). */
export interface ParamHeaderScan {
  readonly headers: readonly ParamHeader[];
  readonly problem: ParamHeaderProblem | undefined;
}

/** Deeper schemas are not searched: the scan reports `depth` instead. */
export const MAX_PARAM_HEADER_DEPTH = 32;

/** The types `x-mcp-header` may annotate (no `number`, no containers). */
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Members whose values are data, not schemas: an `x-mcp-header` key inside them is not an annotation. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);
/** RFC 9110 `tchar` besides letters and digits. */
const TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';

/**
 * The `x-mcp-header` annotations of a tool's input schema and the first rule they break, if any.
 *
 * @example
 * ```ts
 * const scan = scanParamHeaders({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
 * scan.headers; // [{ path: ['region'], name: 'Region' }]
 * scan.problem; // undefined
 * ```
 */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const headers: ParamHeader[] = [];
  return { headers, problem: visit(inputSchema, [], '', true, 0, headers) };
}

/**
 * Visits a schema node (arrays: each item, at the same path). `reachable`: the node is the root or
 * reached from it through `properties` keys only, the one place an annotation is allowed.
 */
function visit(
  node: unknown,
  path: readonly string[],
  pointer: string,
  reachable: boolean,
  depth: number,
  found: ParamHeader[],
): ParamHeaderProblem | undefined {
  if (depth > MAX_PARAM_HEADER_DEPTH) return { reason: 'depth', path, pointer };
  if (typeof node !== 'object' || node === null) return undefined;
  const list = Array.isArray(node);
  const record = node as Record<string, unknown>;
  if (!list && Object.hasOwn(record, 'x-mcp-header')) {
    const name = record['x-mcp-header'];
    const reason = annotationProblem(name, record.type, reachable && path.length > 0, found);
    if (reason) return { reason, path, pointer, name };
    found.push({ path, name: name as string });
  }
  for (const key of Object.keys(record)) {
    if (key === 'x-mcp-header' || DATA_KEYWORDS.has(key)) continue;
    const child = record[key];
    let problem: ParamHeaderProblem | undefined;
    if (key === 'properties' && isRecord(child) && !list) {
      for (const name of Object.keys(child)) {
        problem = visit(child[name], [...path, name], `${pointer}/${name}`, reachable, depth + 1, found);
        if (problem) break;
      }
    } else problem = visit(child, path, list ? pointer : `${pointer}/${key}`, false, depth + 1, found);
    if (problem) return problem;
  }
  return undefined;
}

/** What is wrong with one annotation, the ones `found` before it included (a tool has a handful). */
function annotationProblem(
  name: unknown,
  type: unknown,
  reachable: boolean,
  found: readonly ParamHeader[],
): ParamHeaderProblem['reason'] | undefined {
  if (!reachable) return 'unreachable';
  if (typeof name !== 'string' || name === '') return 'empty';
  if (!isHeaderToken(name)) return 'token';
  if (!HEADER_TYPES.has(type)) return 'type';
  const folded = name.toLowerCase();
  return found.some((header) => header.name.toLowerCase() === folded) ? 'twice' : undefined;
}

/**
 * True for an RFC 9110 `token` (1*tchar): what an `x-mcp-header` name may be.
 *
 * @example
 * ```ts
 * isHeaderToken('Rows.Max'); // true
 * isHeaderToken('My Region'); // false
 * ```
 */
export function isHeaderToken(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    if (!isAsciiAlphanumeric(value.charCodeAt(i)) && !TOKEN_SYMBOLS.includes(value[i]!)) return false;
  }
  return true;
}

/**
 * The request param that `Mcp-Name` carries for a method (`name` or `uri`, SEP-2243; the tasks
 * extension adds its `taskId`), or `undefined` for a method without one.
 *
 * @example
 * ```ts
 * nameParamOf('resources/read'); // 'uri'
 * nameParamOf('tasks/get'); // 'taskId'
 * nameParamOf('tools/list'); // undefined
 * ```
 */
export function nameParamOf(method: string): 'name' | 'uri' | 'taskId' | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return 'name';
  if (method === 'resources/read') return 'uri';
  return method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel'
    ? 'taskId'
    : undefined;
}

/**
 * The value at a property path (own members only), or `undefined` when a step is missing.
 *
 * @example
 * ```ts
 * valueAtPath({ where: { zone: 'b' } }, ['where', 'zone']); // 'b'
 * ```
 */
export function valueAtPath(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * A header value as sent: plain when it is header-safe ASCII without surrounding whitespace and
 * does not look like the sentinel itself, else `=?base64?{UTF-8 as base64}?=`.
 *
 * @example
 * ```ts
 * encodeHeaderValue('us-west1'); // 'us-west1'
 * encodeHeaderValue('Hello, 世界'); // '=?base64?SGVsbG8sIOS4lueVjA==?='
 * ```
 */
export function encodeHeaderValue(value: string): string {
  if (isVisibleAscii(value, false) && value === value.trim() && !isSentinel(value)) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_START}${btoa(binary)}${SENTINEL_END}`;
}

/**
 * A header value as the client meant it: the `=?base64?…?=` form decoded (strict UTF-8), a plain
 * value as it is; `undefined` for a malformed encoding or characters a header value may not hold.
 *
 * @example
 * ```ts
 * decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?='); // 'Hello, 世界'
 * decodeHeaderValue('us-west1'); // 'us-west1'
 * ```
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!isVisibleAscii(value, true)) return undefined;
  if (!isSentinel(value)) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  // atob() forgives missing padding and stray spaces; the revision wants strict Base64.
  if (!isStrictBase64(encoded)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function isSentinel(value: string): boolean {
  return value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END);
}

/** Visible ASCII and space (and tab, where a received value may hold one). */
function isVisibleAscii(value: string, tab: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && !(tab && code === 0x09)) || code > 0x7e) return false;
  }
  return true;
}

/** Canonical Base64: whole quads of the standard alphabet, `=` only as the last one or two. */
function isStrictBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  for (let i = 0; i < text.length - padding; i++) {
    if (!isBase64Char(text.charCodeAt(i))) return false;
  }
  return true;
}
