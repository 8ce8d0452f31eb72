/**
 * The 2026-07-28 header rules of Streamable HTTP ("Server Validation"): `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` are required and must agree with the body, and every tool parameter
 * marked `x-mcp-header` that has a value must arrive as `Mcp-Param-{Name}` with that value.
 * `Mcp-Name` and `Mcp-Param-*` values may be `=?base64?…?=` (UTF-8), decoded before comparing.
 * @module
 */
import { decodeHeaderValue, nameParamOf, scanParamHeaders, valueAtPath } from '@mcpkit/core/internal';
import type { RawHttpRequest } from './rawHttp.js';

/** What the header check needs of the POST (a subset of `ModernPost`). */
interface PostView {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** The revision its envelope names (`MCP-Protocol-Version` must equal it). */
  readonly version: unknown;
}

/** Header name (lower case, without `mcp-param-`) → the `properties` path of the annotated parameter. */
export type HeaderParams = ReadonlyMap<string, readonly string[]>;

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
  const { headers } = scanParamHeaders(inputSchema);
  if (headers.length === 0) return undefined;
  return new Map(headers.map(({ name, path }) => [name.toLowerCase(), path]));
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
    const value = valueAtPath(args, path);
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
 * checkModernHeaders(request, { method: 'tools/list', params: {}, version: '2026-07-28' }, { toolInputSchema: () => undefined });
 * ```
 */
export function checkModernHeaders(
  request: RawHttpRequest,
  post: PostView,
  tools: { toolInputSchema(toolName: string): unknown },
): string | undefined {
  const version = String(post.version);
  const header = request.header('mcp-protocol-version');
  if (header === null) return 'Header mismatch: the MCP-Protocol-Version header is required';
  if (header !== version) {
    return `Header mismatch: MCP-Protocol-Version ${JSON.stringify(header.slice(0, 40))} does not match the request's protocol version ${version}`;
  }
  const method = request.header('mcp-method');
  if (method === null) return 'Header mismatch: the Mcp-Method header is required';
  if (method !== post.method) return 'Header mismatch: Mcp-Method does not match the body method';
  const source = nameParamOf(post.method);
  if (source === undefined) return undefined;
  const raw = request.header('mcp-name');
  if (raw === null) return `Header mismatch: the Mcp-Name header is required for ${post.method}`;
  const name = decodeHeaderValue(raw);
  const bodyName = post.params?.[source];
  if (name === undefined) return 'Header mismatch: Mcp-Name is not a valid header value';
  if (name !== bodyName) return `Header mismatch: Mcp-Name does not match the body's params.${source}`;
  if (post.method !== 'tools/call') return undefined;
  const params = cachedHeaderParams(tools.toolInputSchema(name));
  return params ? checkParams(request, post, params) : undefined;
}
