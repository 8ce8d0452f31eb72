/**
 * The legacy HTTP+SSE client transport (MCP 2024-11-05), for servers that predate Streamable HTTP.
 * @module
 */
import type { JsonRpcMessage, MessageSink, SendOptions, Transport } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import type { EventSourceMessage } from 'eventsource-parser';
import { HttpTransportError } from './errors.js';
import { readEventStream, SsePacer } from './eventStream.js';
import { labelOf } from './messages.js';
import type { HttpRequestOptions } from './requester.js';
import { DEFAULT_MAX_MESSAGE_SIZE, HttpRequester } from './requester.js';
import { bodyOf, discardBody, mediaType, type ResponseBody, readFailure } from './responseBody.js';

/**
 * Options of {@link SseClientTransport}.
 *
 * @example
 * ```ts
 * new SseClientTransport('http://127.0.0.1:3001/sse', { endpointTimeout: 5_000, headers: { 'X-Api-Key': key } });
 * ```
 */
export interface SseClientTransportOptions extends HttpRequestOptions {
  /**
   * How long `start()` waits for the server's `endpoint` event, in ms. Default 10 000. A login
   * after the GET's 401 (`authProvider`) is not counted: the wait starts again once it is over.
   */
  endpointTimeout?: number;
  /**
   * Requests and notifications the server may send per second; past it the stream is not read
   * until the current 100 ms window ends, reported once through `onError`. Default 2000.
   */
  maxIncomingPerSecond?: number;
}

const DEFAULT_ENDPOINT_TIMEOUT = 10_000;

/**
 * A client transport for the deprecated HTTP+SSE transport of 2024-11-05.
 *
 * `start()` opens the SSE stream by GET and waits for the `endpoint` event, which names where to
 * POST messages. That URL must have the SSE URL's origin; anything else is refused, so a server
 * cannot redirect the client's messages (and credentials) to a third party. Server messages
 * arrive as `message` events. When the stream ends, the transport closes: the old transport has
 * no resumption.
 *
 * @example
 * ```ts
 * import { Client } from '@mcpkit/client';
 * import { SseClientTransport } from '@mcpkit/client/http';
 *
 * const client = new Client({ name: 'my-host', version: '1.0.0' });
 * await client.connect(new SseClientTransport('http://127.0.0.1:3001/sse'));
 * ```
 */
export class SseClientTransport implements Transport {
  readonly networkTransport = 'tcp';
  /** The SSE endpoint. */
  readonly url: URL;
  private readonly requester: HttpRequester;
  private readonly endpointTimeout: number;
  private readonly maxMessageSize: number;
  private readonly maxIncomingPerSecond: number | undefined;
  private pacer: SsePacer | undefined;
  private sink: MessageSink | undefined;
  private state: 'new' | 'connecting' | 'open' | 'closed' = 'new';
  private endpointUrl: URL | undefined;
  private readonly controller = new AbortController();
  private readonly posts = new Set<AbortController>();
  private endpointWaiter: { resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;

  constructor(url: string | URL, options: SseClientTransportOptions = {}) {
    this.url = new URL(url);
    this.requester = new HttpRequester(options);
    this.endpointTimeout = options.endpointTimeout ?? DEFAULT_ENDPOINT_TIMEOUT;
    this.maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    this.maxIncomingPerSecond = options.maxIncomingPerSecond;
  }

  /** Where messages are POSTed, once the server named it. */
  get endpoint(): URL | undefined {
    return this.endpointUrl;
  }

  /** Opens the SSE stream and resolves once the server sent its `endpoint` event. */
  async start(sink: MessageSink): Promise<void> {
    if (this.state !== 'new') throw new Error('An SseClientTransport starts once');
    this.sink = sink;
    this.requester.sink = sink;
    this.pacer = new SsePacer(this.maxIncomingPerSecond, (error) => sink.error(error));
    this.state = 'connecting';
    const expire = () => {
      this.endpointWaiter?.reject(
        new HttpTransportError(
          `GET ${this.url.href} sent no endpoint event within ${this.endpointTimeout} ms`,
        ),
      );
      this.controller.abort();
    };
    let timer = setTimeout(expire, this.endpointTimeout);
    // A login after the GET's 401 is not the server's time: the wait starts again once it is over.
    const authorizing = (waiting: boolean) => {
      clearTimeout(timer);
      if (!waiting) timer = setTimeout(expire, this.endpointTimeout);
    };
    try {
      const endpoint = new Promise<URL>((resolve, reject) => {
        this.endpointWaiter = { resolve, reject };
      });
      // Racing keeps the timeout effective even while the GET itself hangs.
      await Promise.race([this.open(authorizing), endpoint]);
      await endpoint;
    } catch (error) {
      this.state = 'closed';
      this.controller.abort();
      throw error;
    } finally {
      clearTimeout(timer);
      this.endpointWaiter = undefined;
    }
  }

  /**
   * POSTs one message to the endpoint. The answer arrives on the SSE stream.
   */
  async send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): Promise<void> {
    const endpoint = this.endpointUrl;
    if (this.state !== 'open' || !endpoint) {
      throw new HttpTransportError(
        `The SSE transport ${this.state === 'closed' ? 'is closed' : 'is not connected'}`,
      );
    }
    const controller = new AbortController();
    this.posts.add(controller);
    try {
      const response = await this.requester.send({
        method: 'POST',
        url: endpoint,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        controller,
        message,
      });
      if (!response.ok)
        throw (await readFailure(response, `POST ${endpoint.href} (${labelOf(message)})`)).error;
      discardBody(response);
    } catch (error) {
      // close() aborts POSTs still in flight (a cancel notification, say); that is not a failure
      // anyone needs to hear about.
      if (this.isClosed) return;
      throw error;
    } finally {
      this.posts.delete(controller);
    }
  }

  // A getter, so a check after an await is not narrowed away by the check before it.
  private get isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Closes the SSE stream and aborts messages in flight. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    this.controller.abort();
    for (const post of this.posts) post.abort();
    this.posts.clear();
    if (wasOpen) this.sink?.closed();
  }

  private async open(authorizing: (waiting: boolean) => void): Promise<void> {
    const what = `GET ${this.url.href} (legacy SSE stream)`;
    const response = await this.requester.send({
      method: 'GET',
      url: this.url,
      headers: { accept: 'text/event-stream' },
      controller: this.controller,
      authorizing,
    });
    if (!response.ok) throw (await readFailure(response, what)).error;
    if (mediaType(response) !== 'text/event-stream') {
      discardBody(response);
      throw new HttpTransportError(
        `${what} was answered with "${mediaType(response)}" instead of an SSE stream`,
        response.status,
      );
    }
    void this.read(bodyOf(response));
  }

  private async read(body: ResponseBody | null): Promise<void> {
    let failure: Error | undefined;
    try {
      if (body) {
        const options = {
          maxEventSize: this.maxMessageSize,
          signal: this.controller.signal,
          pace: this.pacer?.pace,
        };
        await readEventStream(body, { onEvent: (event) => this.receive(event) }, options);
      }
    } catch (error) {
      failure = toError(error);
    }
    const ended = new HttpTransportError(
      failure ? `The SSE stream broke off: ${failure.message}` : 'The server ended the SSE stream',
      undefined,
      { cause: failure },
    );
    if (this.state === 'connecting') {
      this.endpointWaiter?.reject(ended);
    } else if (this.state === 'open') {
      this.state = 'closed';
      for (const post of this.posts) post.abort();
      this.sink?.closed(ended);
    }
  }

  private receive(event: EventSourceMessage): boolean | undefined {
    if (event.event === 'endpoint') {
      this.receiveEndpoint(event.data);
      return undefined;
    }
    if (event.event !== undefined && event.event !== 'message') return undefined;
    if (this.state !== 'open' || event.data === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.sink?.parseError(new Error('The server sent an SSE message whose data is not JSON'));
      return undefined;
    }
    this.sink?.message(value);
    this.pacer?.admit(value);
    return undefined;
  }

  private receiveEndpoint(data: string): void {
    const waiter = this.endpointWaiter;
    if (!waiter) return; // only the first endpoint counts
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch {
      waiter.reject(new HttpTransportError('The server sent an endpoint event that is not a URL'));
      return;
    }
    if (endpoint.origin !== this.url.origin) {
      waiter.reject(
        new HttpTransportError(
          `The server named an endpoint on another origin (${endpoint.origin}); messages are only sent to ${this.url.origin}`,
        ),
      );
      return;
    }
    // Open at once: messages may follow the endpoint event in the same chunk.
    this.endpointUrl = endpoint;
    this.state = 'open';
    waiter.resolve(endpoint);
  }
}
