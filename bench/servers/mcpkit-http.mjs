/**
 * mcpkit Streamable HTTP server: one server definition and one web-standard handler for every
 * session (json / sse modes) or every request (stateless), on node:http through the adapter.
 * @module
 */
import { createServer } from 'node:http';
import { toNodeListener } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { httpServerOptions, listenAndAnnounce } from '../lib/serve.mjs';
import { benchRateLimiter, createMcpkitEchoServer } from './mcpkit-echo.mjs';

const options = httpServerOptions();
const handler = createStreamableHttpHandler(createMcpkitEchoServer(), {
  stateless: options.mode === 'stateless',
  enableJsonResponse: options.mode !== 'sse',
  gate: benchRateLimiter?.httpGate,
});
const listener = toNodeListener(handler);
const httpServer = createServer((req, res) => {
  if (req.url !== options.path) {
    res.writeHead(404).end();
    return;
  }
  listener(req, res);
});

await listenAndAnnounce(httpServer, options);
