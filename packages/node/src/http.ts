/**
 * `@mcpkit/node/http`: run web-standard MCP handlers on `node:http`.
 *
 * - {@link serve}: a server in one call, bound to 127.0.0.1 by default.
 * - {@link toNodeListener}: a `(req, res)` listener for `http.createServer`, Express, Fastify.
 *
 * @example
 * ```ts
 * import { createStreamableHttpHandler } from '@mcpkit/server/http';
 * import { serve } from '@mcpkit/node/http';
 *
 * const { url } = await serve(createStreamableHttpHandler(server), { port: 3000, path: '/mcp' });
 * ```
 * @module
 */
export {
  type ExtraAwareHandler,
  type FetchHandler,
  type NodeListener,
  type NodeListenerOptions,
  toNodeListener,
} from './http/adapter.js';
export { toRequest } from './http/nodeRequest.js';
export { type ServedHandler, type ServeOptions, serve } from './http/serve.js';
