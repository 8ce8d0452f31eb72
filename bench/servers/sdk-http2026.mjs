/**
 * The sdk column of the `http-2026` rows: SDK v2 (`@modelcontextprotocol/server` 2.4.0) in its
 * documented serving pattern, `createMcpHandler(factory)` (a fresh McpServer from the factory per
 * request; 2026-07-28 per request, 2025-era requests through its stateless legacy fallback), wrapped
 * for node:http with `toNodeHandler` from `@modelcontextprotocol/node`, as its README says for plain
 * `node:http`. Default options: JSON answers unless a handler sends something before its result,
 * which the echo tool never does.
 * @module
 */
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { httpServerOptions, listenAndAnnounce } from '../lib/serve.mjs';
import { createSdkV2EchoServer } from './sdkv2-echo.mjs';

const options = httpServerOptions();
const listener = toNodeHandler(createMcpHandler(() => createSdkV2EchoServer()));

const httpServer = createServer((req, res) => {
  if (req.url !== options.path) {
    res.writeHead(404).end();
    return;
  }
  listener(req, res);
});

await listenAndAnnounce(httpServer, options);
