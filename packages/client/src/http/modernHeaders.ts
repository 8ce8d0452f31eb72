/**
 * The request metadata headers of Streamable HTTP under 2026-07-28 (basic/transports/
 * streamable-http.mdx "Request Metadata"): `MCP-Protocol-Version` equal to the envelope's version,
 * `Mcp-Method`, `Mcp-Name` for `tools/call`, `prompts/get` and `resources/read`, and an
 * `Mcp-Param-{Name}` header for each tool argument whose schema carries `x-mcp-header`. Values
 * that are not plain header-safe ASCII are sent as `=?base64?…?=`.
 * @module
 */
import type { JsonRpcMessage } from '@mcpkit/core';
import {
  encodeHeaderValue,
  isRecord,
  MAX_PARAM_HEADER_DEPTH,
  nameParamOf,
  type ParamHeader,
  type ParamHeaderProblem,
  scanParamHeaders,
  valueAtPath,
} from '@mcpkit/core/internal';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

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
      const value = valueAtPath(args, path);
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
  const source = nameParamOf(message.method);
  const name = source === undefined ? undefined : message.params?.[source];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
}

/** The string a header carries for an argument value, or `undefined` to omit the header. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A schema's valid annotations, or why they are invalid (in the client's words). */
function annotations(schema: unknown): readonly ParamHeader[] | string {
  const { headers, problem } = scanParamHeaders(schema);
  return problem ? explain(problem) : headers;
}

function explain(problem: ParamHeaderProblem): string {
  const { path, reason } = problem;
  if (reason === 'depth') return `the inputSchema nests deeper than ${MAX_PARAM_HEADER_DEPTH} levels`;
  if (reason === 'twice')
    return `x-mcp-header "${String(problem.name)}" is used twice (names are case-insensitive)`;
  const where = path.length > 0 ? `"${path.join('.').slice(0, 64)}"` : 'the schema root';
  if (reason === 'unreachable') return `x-mcp-header on ${where} is not reachable through "properties" alone`;
  if (reason === 'empty') return `x-mcp-header on ${where} is empty or not a string`;
  if (reason === 'token') return `x-mcp-header on ${where} is not an HTTP header token`;
  return `x-mcp-header on ${where} annotates a non-primitive or number type`;
}
