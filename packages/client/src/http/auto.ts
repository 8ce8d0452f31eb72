/**
 * One transport for any MCP URL: Streamable HTTP, falling back to the legacy HTTP+SSE transport
 * the way the spec's backwards-compatibility section describes.
 * @module
 */
import type { JsonRpcMessage, MessageSink, SendOptions, Transport } from '@mcpkit/core';
import type { Client } from '../client.js';
import { HttpTransportError } from './errors.js';
import { isInitializeRequest } from './messages.js';
import { SseClientTransport } from './sse.js';
import {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './streamableHttp.js';

/**
 * Options of {@link HttpClientTransport}: those of both transports it may use.
 *
 * @example
 * ```ts
 * declare const authProvider: AuthProvider;
 * await connectHttp(client, url, { authProvider, endpointTimeout: 5_000 });
 * ```
 */
export interface HttpClientTransportOptions extends StreamableHttpClientTransportOptions {
  /** How long the legacy transport waits for the `endpoint` event, in ms. Default 10 000. */
  endpointTimeout?: number;
}

/**
 * Which transport an {@link HttpClientTransport} settled on.
 *
 * @example
 * ```ts
 * const transport = await connectHttp(client, url);
 * if (transport.kind === 'sse') console.error('this server only speaks the deprecated HTTP+SSE transport');
 * ```
 */
export type HttpTransportKind = 'streamable-http' | 'sse';

/** The statuses that, answering the first `initialize` POST, mean "an HTTP+SSE server" (2025-11-25). */
const LEGACY_SIGNALS = new Set([400, 404, 405]);

/**
 * A transport for a URL whose server may speak either Streamable HTTP or the legacy HTTP+SSE.
 *
 * It POSTs `initialize` with Streamable HTTP. If that POST fails with 400, 404 or 405 (and only
 * those, as 2025-11-25 says), it GETs the same URL as an SSE stream, waits for the `endpoint`
 * event and continues with {@link SseClientTransport}. A JSON-RPC error answer to `initialize` is
 * a Streamable HTTP server speaking, so it does not trigger the fallback.
 *
 * @example
 * ```ts
 * const transport = new HttpClientTransport('http://127.0.0.1:3000/mcp');
 * await client.connect(transport);
 * console.log(transport.kind); // 'streamable-http' or 'sse'
 * ```
 */
export class HttpClientTransport implements Transport {
  readonly networkTransport = 'tcp';
  /** The URL given: the MCP endpoint, or the legacy SSE endpoint. */
  readonly url: URL;
  /** Called after the transport replaced a session the server forgot; see {@link Transport}. */
  onSessionRecovered: (() => void | Promise<void>) | undefined;
  private readonly streamable: StreamableHttpClientTransport;
  private active: Transport;
  private sink: MessageSink | undefined;
  private chosen: HttpTransportKind | undefined;

  constructor(
    url: string | URL,
    private readonly options: HttpClientTransportOptions = {},
  ) {
    this.url = new URL(url);
    this.streamable = new StreamableHttpClientTransport(this.url, options);
    this.streamable.onSessionRecovered = () => this.onSessionRecovered?.();
    this.active = this.streamable;
  }

  /** The transport in use, once the first `initialize` settled it. */
  get kind(): HttpTransportKind | undefined {
    return this.chosen;
  }

  /** The Streamable HTTP session id, if any. */
  get sessionId(): string | undefined {
    return this.active.sessionId;
  }

  start(sink: MessageSink): void {
    this.sink = sink;
    this.streamable.start(this.relay(this.streamable));
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    if (this.chosen !== undefined || !isInitializeRequest(message)) return this.active.send(message, options);
    try {
      await this.streamable.send(message, options);
      this.chosen = 'streamable-http';
    } catch (error) {
      if (!(error instanceof HttpTransportError) || !LEGACY_SIGNALS.has(error.status ?? 0)) throw error;
      await this.fallBack(error);
      await this.active.send(message, options);
    }
  }

  setProtocolVersion(version: string): void {
    // A 2026-07-28 server never saw `initialize`: its answer to the era probe settled the transport.
    if (this.chosen === undefined) this.chosen = 'streamable-http';
    this.active.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.active.close();
  }

  private async fallBack(cause: HttpTransportError): Promise<void> {
    const legacy = new SseClientTransport(this.url, this.options);
    this.active = legacy;
    await this.streamable.close();
    try {
      await legacy.start(this.relay(legacy));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HttpTransportError(
        `${cause.message}; the legacy HTTP+SSE transport did not work either: ${reason}`,
        cause.status,
        { cause: error },
      );
    }
    this.chosen = 'sse';
  }

  /** A sink that forwards only while `source` is the transport in use. */
  private relay(source: Transport): MessageSink {
    const live = () => this.active === source;
    return {
      message: (value, extra) => {
        if (live()) this.sink?.message(value, extra);
      },
      parseError: (error) => {
        if (live()) this.sink?.parseError(error);
      },
      error: (error) => {
        if (live()) this.sink?.error(error);
      },
      closed: (error) => {
        if (live()) this.sink?.closed(error);
      },
      // Told on a 401 only; a wait that began on the transport in use ends on it.
      authorizing: (ids, waiting) => this.sink?.authorizing?.(ids, waiting),
    };
  }
}

/**
 * Connects `client` to the MCP server at `url` over whichever HTTP transport it speaks, and
 * returns the transport. On failure the transport is closed and the error rethrown.
 *
 * @example
 * ```ts
 * import { McpClient } from '@mcpkit/client';
 * import { connectHttp } from '@mcpkit/client/http';
 *
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * const transport = await connectHttp(client, 'https://example.com/mcp');
 * console.log(transport.kind, client.serverInfo?.name);
 * ```
 */
export async function connectHttp(
  client: Pick<Client, 'connect'>,
  url: string | URL,
  options?: HttpClientTransportOptions,
): Promise<HttpClientTransport> {
  const transport = new HttpClientTransport(url, options);
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  }
  return transport;
}
