/**
 * The 2026-07-28 header rules of Streamable HTTP ("Server Validation"): `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` are required and must agree with the body, and every tool parameter
 * marked `x-mcp-header` that has a value must arrive as `Mcp-Param-{Name}` with that value.
 * `Mcp-Name` and `Mcp-Param-*` values may be `=?base64?…?=` (UTF-8), decoded before comparing.
 * @module
 */
import { isBase64Char, isRecord } from '@mcpkit/core/internal';
import type { RawHttpRequest } from './rawHttp.js';

/** What the header check needs of the POST (a subset of `ModernPost`). */
interface PostView {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

/** Header name (lower case, without `mcp-param-`) → the `properties` path of the annotated parameter. */
export type HeaderParams = ReadonlyMap<string, readonly string[]>;

const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension (SEP-2663 "Routing Headers"): Mcp-Name carries the task id.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

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
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code > 0x7e) return undefined;
  }
  if (!value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END)) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  // atob() forgives missing padding and stray spaces; the revision wants strict Base64.
  if (!isStrictBase64(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
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

/**
 * The parameters a tool's `inputSchema` marks with `x-mcp-header`, reachable through
 * `properties` keys only (the spec's rule); `undefined` when there are none.
 *
 * @example
 * ```ts
 * headerParamsOf({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
 * // Map { 'region' => ['region'] }
 * ```
 */
export function headerParamsOf(inputSchema: unknown): HeaderParams | undefined {
  const found = new Map<string, readonly string[]>();
  const walk = (schema: unknown, path: readonly string[], depth: number): void => {
    if (!isRecord(schema) || depth > 32) return;
    const mark = schema['x-mcp-header'];
    if (typeof mark === 'string' && path.length > 0) found.set(mark.toLowerCase(), path);
    const properties = schema.properties;
    if (!isRecord(properties)) return;
    for (const key of Object.keys(properties)) walk(properties[key], [...path, key], depth + 1);
  };
  walk(inputSchema, [], 0);
  return found.size > 0 ? found : undefined;
}

const cache = new WeakMap<object, HeaderParams | null>();

/**
 * {@link headerParamsOf}, computed once per schema object (a tool's schema is immutable once
 * registered; a changed tool has a new one).
 *
 * @example
 * ```ts
 * cachedHeaderParams(undefined); // undefined
 * ```
 */
export function cachedHeaderParams(inputSchema: unknown): HeaderParams | undefined {
  if (typeof inputSchema !== 'object' || inputSchema === null) return undefined;
  let params = cache.get(inputSchema);
  if (params === undefined) {
    params = headerParamsOf(inputSchema) ?? null;
    cache.set(inputSchema, params);
  }
  return params ?? undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Header and body agree: strings exactly, integers numerically (`42.0` is `42`), booleans as `true`/`false`. */
function agrees(header: string, body: unknown): boolean {
  if (typeof body === 'string') return header === body;
  if (typeof body === 'boolean') return header === String(body);
  if (typeof body === 'number') return header.trim() !== '' && Number(header) === body;
  return false;
}

function checkParams(request: RawHttpRequest, post: PostView, params: HeaderParams): string | undefined {
  const args = post.params?.arguments;
  for (const [name, path] of params) {
    const value = valueAt(args, path);
    const raw = request.header(`mcp-param-${name}`);
    if (value === undefined || value === null) {
      if (raw !== null) return `Header mismatch: Mcp-Param-${name} is sent but the argument has no value`;
      continue;
    }
    if (raw === null) return `Header mismatch: the Mcp-Param-${name} header is required for this argument`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Header mismatch: Mcp-Param-${name} is not a valid header value`;
    if (!agrees(decoded, value)) return `Header mismatch: Mcp-Param-${name} does not match the body`;
  }
  return undefined;
}

/**
 * Why the headers of a 2026-07-28 POST disagree with its body, or `undefined` when they agree.
 *
 * @example
 * ```ts
 * declare const request: RawHttpRequest;
 * checkModernHeaders(request, { method: 'tools/list', params: {} }, '2026-07-28', () => undefined);
 * ```
 */
export function checkModernHeaders(
  request: RawHttpRequest,
  post: PostView,
  version: string,
  toolInputSchema: (toolName: string) => unknown,
): string | undefined {
  const header = request.header('mcp-protocol-version');
  if (header === null) return 'Header mismatch: the MCP-Protocol-Version header is required';
  if (header !== version) {
    return `Header mismatch: MCP-Protocol-Version ${JSON.stringify(header.slice(0, 40))} does not match the request's protocol version ${version}`;
  }
  const method = request.header('mcp-method');
  if (method === null) return 'Header mismatch: the Mcp-Method header is required';
  if (method !== post.method) return 'Header mismatch: Mcp-Method does not match the body method';
  const source = Object.hasOwn(NAME_SOURCE, post.method) ? NAME_SOURCE[post.method] : undefined;
  if (source === undefined) return undefined;
  const raw = request.header('mcp-name');
  if (raw === null) return `Header mismatch: the Mcp-Name header is required for ${post.method}`;
  const name = decodeHeaderValue(raw);
  const bodyName = post.params?.[source];
  if (name === undefined) return 'Header mismatch: Mcp-Name is not a valid header value';
  if (name !== bodyName) return `Header mismatch: Mcp-Name does not match the body's params.${source}`;
  if (post.method !== 'tools/call') return undefined;
  const params = cachedHeaderParams(toolInputSchema(name));
  return params ? checkParams(request, post, params) : undefined;
}
