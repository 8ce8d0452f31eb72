/**
 * The HTTP client transports of `@mcpkit/client/http`, with undici as their default `fetch` on
 * Node. A `fetch` passed in the options still wins.
 * @module
 */
import type { Client } from '@mcpkit/client';
import {
  connectHttp as connectOverFetch,
  HttpClientTransport as FetchHttpClientTransport,
  type FetchLike,
  StreamableHttpClientTransport as FetchStreamableHttpClientTransport,
  type HttpClientTransportOptions,
  type StreamableHttpClientTransportOptions,
} from '@mcpkit/client/http';
import { createUndiciFetch } from './undiciFetch.js';

let shared: FetchLike | undefined;

/**
 * The undici fetch every transport of this module shares unless given its own: one pool per
 * origin for the whole process, proxies from the environment honoured.
 *
 * @example
 * ```ts
 * const transport = new SseClientTransport(url, { fetch: defaultNodeFetch() });
 * ```
 */
export function defaultNodeFetch(): FetchLike {
  shared ??= createUndiciFetch();
  return shared;
}

function withNodeFetch<T extends { fetch?: FetchLike }>(options: T): T {
  return options.fetch ? options : { ...options, fetch: defaultNodeFetch() };
}

/**
 * {@link FetchStreamableHttpClientTransport | StreamableHttpClientTransport} on undici: the same
 * transport, the same options, a faster `fetch` by default.
 *
 * @example
 * ```ts
 * import { StreamableHttpClientTransport } from '@mcpkit/node/http-client';
 * await client.connect(new StreamableHttpClientTransport('https://example.com/mcp'));
 * ```
 */
export class StreamableHttpClientTransport extends FetchStreamableHttpClientTransport {
  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    super(url, withNodeFetch(options));
  }
}

/**
 * {@link FetchHttpClientTransport | HttpClientTransport} (Streamable HTTP, falling back to the
 * legacy HTTP+SSE transport) on undici.
 *
 * @example
 * ```ts
 * import { HttpClientTransport } from '@mcpkit/node/http-client';
 * await client.connect(new HttpClientTransport('https://example.com/mcp'));
 * ```
 */
export class HttpClientTransport extends FetchHttpClientTransport {
  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    super(url, withNodeFetch(options));
  }
}

/**
 * `connectHttp` of `@mcpkit/client/http`, on undici: connects `client` over Streamable HTTP, or
 * the legacy transport when the server only speaks that.
 *
 * @example
 * ```ts
 * import { connectHttp } from '@mcpkit/node/http-client';
 * const transport = await connectHttp(client, 'https://example.com/mcp');
 * ```
 */
export function connectHttp(
  client: Pick<Client, 'connect'>,
  url: string | URL,
  options: HttpClientTransportOptions = {},
): Promise<FetchHttpClientTransport> {
  return connectOverFetch(client, url, withNodeFetch(options));
}
