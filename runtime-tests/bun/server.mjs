// The test server on Bun: the handler passed directly as `fetch`, with Bun's default idleTimeout.
import { createHandler, MODES } from '../app/mcp-server.mjs';

const urls = {};
for (const mode of Object.keys(MODES)) {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: createHandler(mode) });
  urls[mode] = `http://127.0.0.1:${server.port}/mcp`;
}
console.log(JSON.stringify({ urls }));
