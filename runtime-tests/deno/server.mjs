// The test server on Deno: the handler passed directly to Deno.serve. The first argument lists the
// modes to serve (all by default): the driver serves JSON mode in a process of its own, because only
// it reads request.signal, for which Deno prints its legacy-abort notice (documented in the README).
import { createHandler, MODES } from '../app/mcp-server.mjs';

const modes = Deno.args[0]?.split(',') ?? Object.keys(MODES);
const urls = {};
for (const mode of modes) {
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, createHandler(mode));
  urls[mode] = `http://127.0.0.1:${server.addr.port}/mcp`;
}
console.log(JSON.stringify({ urls }));
