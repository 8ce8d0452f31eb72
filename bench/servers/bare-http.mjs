/**
 * Baseline HTTP server: node:http and JSON, nothing else. Stateful modes hand out a session id on
 * `initialize` and check it on every later request; `sse` frames the one response as an SSE event, as a
 * Streamable HTTP server does when it answers a POST with a stream.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { httpServerOptions, listenAndAnnounce, readBody, sendJson } from '../lib/serve.mjs';
import { answer } from './bare-echo.mjs';

const options = httpServerOptions();
const stateful = options.mode !== 'stateless';
const sessions = new Set();

const httpServer = createServer(async (req, res) => {
  if (req.url !== options.path || req.method !== 'POST') {
    res.writeHead(req.url === options.path ? 405 : 404).end();
    return;
  }
  let message;
  try {
    message = JSON.parse(await readBody(req));
  } catch {
    return sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  const headers = {};
  if (stateful) {
    if (message?.method === 'initialize') {
      const sessionId = randomUUID();
      sessions.add(sessionId);
      headers['mcp-session-id'] = sessionId;
    } else if (!sessions.has(req.headers['mcp-session-id'])) {
      return sendJson(res, 404, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32001, message: 'Session not found' },
      });
    }
  }
  const reply = answer(message);
  if (!reply) {
    res.writeHead(202, headers).end();
    return;
  }
  const json = JSON.stringify(reply);
  if (options.mode === 'sse') {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`event: message\ndata: ${json}\n\n`);
    return;
  }
  res.writeHead(200, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
});

await listenAndAnnounce(httpServer, options);
