/**
 * The single tool every implementation serves in every scenario, kept in one place so all sides
 * (servers, drivers, load generator, validators) agree on names, schema and the expected result.
 * @module
 */

/** Name of the benchmark tool. */
export const TOOL_NAME = 'echo';

/** Description advertised by every implementation for the benchmark tool. */
export const TOOL_DESCRIPTION = 'Returns the given text unchanged';

/**
 * Input schema of the benchmark tool as plain JSON Schema, for implementations that take JSON Schema.
 * The SDK expresses the same shape with zod (`{ text: z.string() }`).
 */
export const ECHO_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
});

/** Text sent in every benchmark call; validators check that exactly this comes back. */
export const PROBE_TEXT = 'hello bench';

/** Protocol revision the harness negotiates. */
export const PROTOCOL_VERSION = '2025-11-25';

/** The per-request revision of the `http-2026` scenario: no session, the envelope in every request. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** clientInfo used by every benchmark client. */
export const CLIENT_INFO = Object.freeze({ name: 'mcpkit-bench', version: '0.0.0' });

/** serverInfo used by every benchmark server. */
export const SERVER_INFO = Object.freeze({ name: 'mcpkit-bench-echo', version: '0.0.0' });

/**
 * The CallToolResult the echo tool returns for `text`.
 * @param {string} text
 * @example
 * echoResult('hi'); // { content: [{ type: 'text', text: 'hi' }] }
 */
export function echoResult(text) {
  return { content: [{ type: 'text', text }] };
}

/**
 * Whether `result` is a successful echo of `text`: the check that keeps a broken server from "winning".
 * @param {unknown} result
 * @param {string} text
 * @example
 * isEchoOf({ content: [{ type: 'text', text: 'hi' }] }, 'hi'); // true
 */
export function isEchoOf(result, text) {
  const first = result?.content?.[0];
  return result?.isError !== true && first?.type === 'text' && first.text === text;
}

/**
 * The JSON-RPC `tools/call` request for the echo tool.
 * @param {string | number} id
 * @param {string} text
 * @example
 * JSON.stringify(echoCallRequest(1, PROBE_TEXT));
 */
export function echoCallRequest(id, text) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: TOOL_NAME, arguments: { text } } };
}

/**
 * The 2026-07-28 `tools/call` request for the echo tool: the echo call with the per-request `_meta`
 * envelope (version, client info, capabilities) a client of that revision sends on every request.
 * @param {string | number} id
 * @param {string} text
 * @example
 * JSON.stringify(modernEchoCallRequest(1, PROBE_TEXT));
 */
export function modernEchoCallRequest(id, text) {
  const request = echoCallRequest(id, text);
  request.params._meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return request;
}

/**
 * The headers a 2026-07-28 client sends with the echo call besides the base ones: the version, and
 * `Mcp-Method` / `Mcp-Name`, which the server must check against the body.
 * @example
 * fetch(url, { method: 'POST', headers: { ...BASE_HEADERS, ...MODERN_ECHO_HEADERS }, body });
 */
export const MODERN_ECHO_HEADERS = Object.freeze({
  'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': TOOL_NAME,
});

/**
 * The JSON-RPC `initialize` request the harness's own clients send.
 * @param {string | number} id
 * @example
 * JSON.stringify(initializeRequest(0));
 */
export function initializeRequest(id) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
  };
}

/** The `notifications/initialized` message that completes the handshake. */
export const INITIALIZED_NOTIFICATION = Object.freeze({
  jsonrpc: '2.0',
  method: 'notifications/initialized',
});

/**
 * `calls` echo calls through an McpClient, `inFlight` at a time (the CPU-per-call scripts' load);
 * an `isError` result throws.
 * @param {{ callTool(name: string, args: object): Promise<{ isError?: boolean }> }} client
 * @param {number} calls
 * @param {number} inFlight
 * @example
 * await echoCallsInFlight(client, 40_000, 16);
 */
export async function echoCallsInFlight(client, calls, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const result = await client.callTool(TOOL_NAME, { text: 'hello bench' });
      if (result.isError) throw new Error(JSON.stringify(result));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}
