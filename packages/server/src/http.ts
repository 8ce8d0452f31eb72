/**
 * `@mcpkit/server/http`: serve MCP over HTTP with web-standard `Request`/`Response`.
 *
 * - {@link createStreamableHttpHandler}: the Streamable HTTP endpoint (sessions or stateless, JSON
 *   or SSE answers, resumable streams, SSE polling, DNS-rebinding protection).
 * - {@link createLegacySseHandler}: the deprecated HTTP+SSE transport (2024-11-05) for old clients.
 * - {@link EventStore} / {@link InMemoryEventStore}: where resumable SSE events are kept.
 *
 * Status codes: 202 accepted notification/response; 400 malformed body (`-32700`), invalid
 * message or batch (`-32600`), missing session id, unsupported `MCP-Protocol-Version`, unknown
 * `Last-Event-ID`; 403 `Host`/`Origin` not allowed; 404 unknown or ended session; 405 method not
 * offered; 406 `Accept` lacks a required type; 409 a second standalone GET stream; 413 body too
 * large; 415 not `application/json`; 429 the client holds its quota of sessions, all busy, or the
 * `gate` option (a rate limit) refused the POST, with `Retry-After`; 503 the
 * session cap is reached and every session is busy (an idle one would have been replaced).
 *
 * @example
 * ```ts
 * import { Server } from '@mcpkit/server';
 * import { createStreamableHttpHandler } from '@mcpkit/server/http';
 * import { serve } from '@mcpkit/node/http';
 *
 * const server = new Server({ name: 'demo', version: '1.0.0' });
 * const handler = createStreamableHttpHandler(server);
 * const { url } = await serve(handler, { port: 3000, path: '/mcp' });
 * ```
 * @module
 */

export type { CorsOptions } from './http/cors.js';
export {
  type EventStore,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
  type OrphanedStream,
  type ReplaySink,
} from './http/delivery/eventStore.js';
export type { HttpRequestExtra, McpHttpHandler } from './http/fetchHandler.js';
export {
  createLegacySseHandler,
  type LegacySseHandler,
  type LegacySseHandlerOptions,
} from './http/legacySse.js';
export {
  type AbortSignalLike,
  RAW_HTTP_HANDLER,
  type RawHttpHandler,
  type RawHttpReply,
  type RawHttpRequest,
} from './http/rawHttp.js';
export { type HostSecurityOptions, LOCALHOST_NAMES } from './http/security.js';
export type { SessionStore } from './http/sessions/store.js';
export {
  closeSseStream,
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from './http/streamable.js';
