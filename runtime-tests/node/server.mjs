// The test server on Node: each mode's handler served by @mcpkit/node/http, as a Node user serves it.
// RUNTIME_TESTS_PAGE_ORIGIN, when set, is the origin of the Chromium client's page (lib/chromium.mjs):
// the handlers let it through with the `cors` option, as a server for browser pages must.
import { serve } from '@mcpkit/node/http';
import { createHandler, MODES } from '../app/mcp-server.mjs';

const pageOrigin = process.env.RUNTIME_TESTS_PAGE_ORIGIN;
const options = pageOrigin ? { cors: { allowedOrigins: [pageOrigin] } } : {};
const urls = {};
for (const mode of Object.keys(MODES)) {
  const { url } = await serve(createHandler(mode, options), { port: 0, path: '/mcp' });
  urls[mode] = url;
}
console.log(JSON.stringify({ urls }));
