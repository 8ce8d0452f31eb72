/**
 * The framework-free baseline's message handling: parse, check the one argument, answer. It is what any
 * MCP implementation has to do at minimum, so its speed is the physical limit the others are held to.
 * @module
 */
import { ECHO_INPUT_SCHEMA, echoResult, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';
const TOOLS = [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA }];

/**
 * The response to one JSON-RPC message, or undefined for notifications and responses.
 * @param {any} message
 * @example
 * answer({ jsonrpc: '2.0', id: 1, method: 'ping' }); // { jsonrpc: '2.0', id: 1, result: {} }
 */
export function answer(message) {
  if (message === null || typeof message !== 'object' || message.id === undefined || !message.method) return;
  const { id, method, params } = message;
  switch (method) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: SERVER_INFO,
        },
      };
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools: TOOLS } };
    case 'tools/call': {
      if (params?.name !== TOOL_NAME) {
        return { jsonrpc: '2.0', id, error: { code: -32602, message: `Unknown tool: ${params?.name}` } };
      }
      const text = params.arguments?.text;
      if (typeof text !== 'string') {
        return {
          jsonrpc: '2.0',
          id,
          result: { content: [{ type: 'text', text: 'text must be a string' }], isError: true },
        };
      }
      const result = echoResult(text);
      // A 2026-07-28 request (envelope in `_meta`) gets the `resultType` that revision requires.
      if (params._meta?.[ENVELOPE_VERSION] !== undefined) result.resultType = 'complete';
      return { jsonrpc: '2.0', id, result };
    }
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
}
