/**
 * `@mcpkit/client/http`: MCP over HTTP for clients. Streamable HTTP (2025-03-26 and later), the
 * legacy HTTP+SSE transport (2024-11-05), and a transport that picks between them.
 *
 * Web-standard only (`fetch`, streams, `AbortController`): it runs on Node, Bun, Deno, browsers and
 * Workers.
 *
 * @example
 * ```ts
 * import { McpClient } from '@mcpkit/client';
 * import { connectHttp } from '@mcpkit/client/http';
 *
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * await connectHttp(client, 'http://127.0.0.1:3000/mcp');
 * const { tools } = await client.listTools();
 * ```
 * @module
 */
export type { AuthProvider } from './http/auth.js';
export { DEFAULT_AUTHORIZATION_TIMEOUT } from './http/authorizationWait.js';
export {
  connectHttp,
  HttpClientTransport,
  type HttpClientTransportOptions,
  type HttpTransportKind,
} from './http/auto.js';
export { AuthorizationTimeoutError, HttpTransportError } from './http/errors.js';
export { DEFAULT_RECONNECTION, type ReconnectionOptions } from './http/reconnect.js';
export type { FetchLike, HeadersSource, HttpRequestOptions } from './http/requester.js';
export { RAW_BODY, type RawBody } from './http/responseBody.js';
export { SseClientTransport, type SseClientTransportOptions } from './http/sse.js';
export {
  DEFAULT_MAX_ANSWERS_IN_FLIGHT,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './http/streamableHttp.js';
