/**
 * mcpkit Streamable HTTP server: one server definition and one web-standard handler for every
 * session (json / sse modes) or every request (stateless), on node:http through the adapter.
 * bench/servers/mcpkit-http-cluster.mjs serves the same with its state in Redis.
 * @module
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { toNodeListener } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { httpServerOptions, listenAndAnnounce } from '../lib/serve.mjs';
import { benchRateLimiter, createMcpkitEchoServer } from './mcpkit-echo.mjs';

/**
 * Serves the echo server as the harness asks; `handlerOptions` join the handler's own.
 * @param {import('@mcpkit/server/http').StreamableHttpHandlerOptions} [handlerOptions]
 */
export async function serveEcho(handlerOptions = {}) {
  const options = httpServerOptions();
  const handler = createStreamableHttpHandler(createMcpkitEchoServer(), {
    stateless: options.mode === 'stateless',
    enableJsonResponse: options.mode !== 'sse',
    gate: benchRateLimiter?.httpGate,
    ...handlerOptions,
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
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serveEcho();
