// The test server on Node: each mode's handler served by @mcpkit/node/http, as a Node user serves it.
import { serve } from '@mcpkit/node/http';
import { createHandler, MODES } from '../app/mcp-server.mjs';

const urls = {};
for (const mode of Object.keys(MODES)) {
  const { url } = await serve(createHandler(mode), { port: 0, path: '/mcp' });
  urls[mode] = url;
}
console.log(JSON.stringify({ urls }));
