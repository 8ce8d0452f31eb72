/**
 * SDK Streamable HTTP server in the SDK's documented patterns:
 * - json / sse (stateful): a map of session id → transport, one McpServer per session, created on
 *   `initialize` (`enableJsonResponse` selects JSON or SSE responses);
 * - stateless: a new McpServer and transport per request (`sessionIdGenerator: undefined`), closed when
 *   the response closes.
 * It sits on bare node:http (not Express, as the SDK examples do) so the SDK pays no framework cost the
 * baseline does not pay; that only makes the comparison harder for mcpkit.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { httpServerOptions, listenAndAnnounce, readBody, sendJson } from '../lib/serve.mjs';
import { createSdkEchoServer } from './sdk-echo.mjs';

const options = httpServerOptions();
// Under bench/lib/sentry-instrument.mjs (observe-cpu.mjs MODE=sentry), every McpServer is wrapped
// the way Sentry's MCP users do it.
const sentry = globalThis.benchSentry;
const echoServer = () =>
  sentry ? sentry.wrapMcpServerWithSentry(createSdkEchoServer()) : createSdkEchoServer();
/** @type {Map<string, StreamableHTTPServerTransport>} */
const sessions = new Map();

function rpcError(res, status, code, message) {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}

async function handleStateful(req, res, body) {
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const transport = sessions.get(sessionId);
    if (!transport) return rpcError(res, 404, -32001, 'Session not found');
    return transport.handleRequest(req, res, body);
  }
  if (req.method !== 'POST' || !isInitializeRequest(body)) {
    return rpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: options.mode === 'json',
    onsessioninitialized: (id) => sessions.set(id, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await echoServer().connect(transport);
  return transport.handleRequest(req, res, body);
}

async function handleStateless(req, res, body) {
  const server = echoServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

const httpServer = createServer(async (req, res) => {
  try {
    if (req.url !== options.path) return rpcError(res, 404, -32000, 'Not found');
    let body;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return rpcError(res, 400, -32700, 'Parse error');
      }
    }
    if (options.mode === 'stateless') await handleStateless(req, res, body);
    else await handleStateful(req, res, body);
  } catch {
    if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
  }
});

await listenAndAnnounce(httpServer, options);
