/**
 * `@mcpkit/node/http-client`: the MCP HTTP client transports with undici underneath, the default
 * on Node. `@mcpkit/client/http` keeps the global `fetch` for other runtimes.
 *
 * @example
 * ```ts
 * import { McpClient } from '@mcpkit/client';
 * import { StreamableHttpClientTransport } from '@mcpkit/node/http-client';
 *
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * await client.connect(new StreamableHttpClientTransport('https://example.com/mcp'));
 * ```
 * @module
 */
export {
  connectHttp,
  defaultNodeFetch,
  HttpClientTransport,
  StreamableHttpClientTransport,
} from './httpClient/transports.js';
export { createUndiciFetch, type UndiciFetchOptions } from './httpClient/undiciFetch.js';
