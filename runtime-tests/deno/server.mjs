// The test server on Deno: the handler passed directly to Deno.serve.
import { createHandler, MODES } from '../app/mcp-server.mjs';

const urls = {};
for (const mode of Object.keys(MODES)) {
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, createHandler(mode));
  urls[mode] = `http://127.0.0.1:${server.addr.port}/mcp`;
}
console.log(JSON.stringify({ urls }));
