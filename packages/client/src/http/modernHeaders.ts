/**
 * The request metadata headers of Streamable HTTP under 2026-07-28 (basic/transports/
 * streamable-http.mdx "Request Metadata"): `MCP-Protocol-Version` equal to the envelope's version,
 * `Mcp-Method`, `Mcp-Name` for `tools/call`, `prompts/get` and `resources/read`, and an
 * `Mcp-Param-{Name}` header for each tool argument whose schema carries `x-mcp-header`. Values
 * that are not plain header-safe ASCII are sent as `=?base64?…?=`.
 * @module
 */
import type { JsonRpcMessage } from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** RFC 9110 `token` (1*tchar): what an `x-mcp-header` name may contain. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII and space; anything else (tab, CR, LF, non-ASCII) goes base64. */
const PLAIN = /^[\x20-\x7e]*$/;
const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** The types `x-mcp-header` may annotate (no `number`, no containers). */
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Deeper schemas are not searched for annotations: the tool is refused instead. */
const MAX_SCHEMA_DEPTH = 32;

/** One annotated argument: its property path from the schema root, and its header name. */
interface ParamHeader {
  readonly path: readonly string[];
  readonly name: string;
}

/**
 * The version in a message's envelope when the message is a 2026-07-28 request, else `undefined`.
 *
 * @example
 * ```ts
 * envelopeVersionOf({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }); // '2026-07-28'
 * ```
 */
export function envelopeVersionOf(message: JsonRpcMessage | JsonRpcMessage[]): string | undefined {
  if (Array.isArray(message) || !('method' in message)) return undefined;
  const meta = message.params?._meta;
  const version = isRecord(meta) ? meta[PROTOCOL_VERSION_KEY] : undefined;
  return typeof version === 'string' ? version : undefined;
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
  const sentinel = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  if (PLAIN.test(value) && value === value.trim() && !sentinel) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * What the client learned of each tool's `x-mcp-header` annotations from the `tools/list` results
 * it carried, and the headers of a call. A tool whose annotations break the rules is left out of
 * the listing (the spec: "MUST exclude the invalid tool from the result of tools/list").
 *
 * @example
 * ```ts
 * const headers = new ToolHeaders();
 * const refused = headers.learn(toolsListResult); // names and reasons of the tools left out
 * headers.forCall('execute_sql', { region: 'us-west1' }); // { 'mcp-param-region': 'us-west1' }
 * ```
 */
export class ToolHeaders {
  private readonly byTool = new Map<string, readonly ParamHeader[]>();

  /** Learns the annotations of a `tools/list` result and removes invalid tools from it in place. */
  learn(result: unknown): string[] {
    if (!isRecord(result) || !Array.isArray(result.tools)) return [];
    const refused: string[] = [];
    result.tools = result.tools.filter((tool: unknown) => {
      if (!isRecord(tool) || typeof tool.name !== 'string') return true;
      const found = annotations(tool.inputSchema);
      if (typeof found === 'string') {
        refused.push(`tool "${tool.name.slice(0, 64)}" left out: ${found}`);
        this.byTool.delete(tool.name);
        return false;
      }
      if (found.length > 0) this.byTool.set(tool.name, found);
      else this.byTool.delete(tool.name);
      return true;
    });
    return refused;
  }

  /** The `Mcp-Param-*` headers of a call (lower-case names); arguments absent or null send none. */
  forCall(name: unknown, args: unknown, headers: Record<string, string>): void {
    const annotated = typeof name === 'string' ? this.byTool.get(name) : undefined;
    if (!annotated) return;
    for (const { path, name: header } of annotated) {
      const value = valueAt(args, path);
      const text = headerText(value);
      if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
    }
  }
}

/**
 * The standard headers of a 2026-07-28 request: version, method, and name where the method has one.
 *
 * @example
 * ```ts
 * const headers: Record<string, string> = {};
 * addStandardHeaders(message, '2026-07-28', headers); // mcp-protocol-version, mcp-method, mcp-name
 * ```
 */
export function addStandardHeaders(
  message: JsonRpcMessage,
  version: string,
  headers: Record<string, string>,
): void {
  headers['mcp-protocol-version'] = version;
  if (!('method' in message)) return;
  headers['mcp-method'] = message.method;
  const params = message.params;
  const source = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
}

/** Where `Mcp-Name` comes from, per method (SEP-2243; the tasks extension adds its task id). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The string a header carries for an argument value, or `undefined` to omit the header. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** A schema's valid annotations, or why they are invalid. */
function annotations(schema: unknown): ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const problem = walk(schema, [], true, 0, found);
  if (problem) return problem;
  const seen = new Set<string>();
  for (const { name } of found) {
    const folded = name.toLowerCase();
    if (seen.has(folded)) return `x-mcp-header "${name}" is used twice (names are case-insensitive)`;
    seen.add(folded);
  }
  return found;
}

/**
 * Visits every node of a schema. `reachable`: the node is the root or reached from it through
 * `properties` keys only, the one place an annotation is allowed.
 */
function walk(
  node: unknown,
  path: string[],
  reachable: boolean,
  depth: number,
  found: ParamHeader[],
): string | undefined {
  if (depth > MAX_SCHEMA_DEPTH) return `the inputSchema nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
  if (Array.isArray(node)) {
    for (const item of node) {
      const problem = walk(item, path, false, depth + 1, found);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isRecord(node)) return undefined;
  if (Object.hasOwn(node, 'x-mcp-header')) {
    const problem = checkAnnotation(node, path, reachable);
    if (problem) return problem;
    found.push({ path: [...path], name: node['x-mcp-header'] as string });
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties' && isRecord(child)) {
      for (const [property, schema] of Object.entries(child)) {
        const problem = walk(schema, [...path, property], reachable, depth + 1, found);
        if (problem) return problem;
      }
    } else if (key !== 'x-mcp-header') {
      const problem = walk(child, path, false, depth + 1, found);
      if (problem) return problem;
    }
  }
  return undefined;
}

function checkAnnotation(
  node: Record<string, unknown>,
  path: string[],
  reachable: boolean,
): string | undefined {
  const name = node['x-mcp-header'];
  const where = path.length > 0 ? `"${path.join('.').slice(0, 64)}"` : 'the schema root';
  if (!reachable || path.length === 0) {
    return `x-mcp-header on ${where} is not reachable through "properties" alone`;
  }
  if (typeof name !== 'string' || name === '') return `x-mcp-header on ${where} is empty or not a string`;
  if (!TOKEN.test(name)) return `x-mcp-header on ${where} is not an HTTP header token`;
  if (!HEADER_TYPES.has(node.type))
    return `x-mcp-header on ${where} annotates a non-primitive or number type`;
  return undefined;
}
