/**
 * The Streamable HTTP client transport (MCP 2025-03-26 and later).
 *
 * Every message is its own POST; answers come back as JSON or as an SSE stream; a GET stream
 * carries what the server sends outside requests. Dropped SSE streams resume by GET with
 * `Last-Event-ID`, after the server's `retry:` delay; an expired session is re-initialized
 * behind the client's back.
 * @module
 */
import type { JsonRpcMessage, MessageSink, RequestId, SendOptions, Transport } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import { HttpTransportError } from './errors.js';
import { SsePacer } from './eventStream.js';
import { HttpLink } from './link.js';
import {
  forEachResponse,
  isInitializeRequest,
  isNotification,
  labelOf,
  type Outgoing,
  requestIdsOf,
} from './messages.js';
import { envelopeVersionOf } from './modernHeaders.js';
import { ModernRequests } from './modernRequests.js';
import { type ReconnectionOptions, resolveReconnection } from './reconnect.js';
import { DEFAULT_MAX_MESSAGE_SIZE, HttpRequester, type HttpRequestOptions } from './requester.js';
import { bodyOf, discardBody, mediaType, readFailure, readText } from './responseBody.js';
import { SessionRecovery } from './sessionRecovery.js';
import { SseStreams } from './sseStreams.js';

/**
 * Options of {@link StreamableHttpClientTransport}: HTTP options, reconnection options, and these.
 *
 * @example
 * ```ts
 * const options: StreamableHttpClientTransportOptions = {
 *   headers: { 'X-Api-Key': key },
 *   openGetStream: false, // this host needs no server-initiated messages outside requests
 *   initialReconnectionDelay: 500,
 * };
 * ```
 */
export interface StreamableHttpClientTransportOptions extends HttpRequestOptions, ReconnectionOptions {
  /**
   * Open the standalone GET stream once initialized, so the server can send notifications and
   * requests outside any request. A server without one answers 405, which is fine. Default true.
   */
  openGetStream?: boolean;
  /** Send DELETE to end the session on `close()`. Default true. */
  terminateOnClose?: boolean;
  /**
   * Requests and notifications the server may send per second over its SSE streams; past it,
   * they are not read until the current 100 ms window ends (backpressure, nothing dropped),
   * reported once through `onError`. Default {@link DEFAULT_MAX_INCOMING_PER_SECOND} (2000);
   * `Infinity` turns it off.
   */
  maxIncomingPerSecond?: number;
  /**
   * The most answers to the server's requests (POSTs of responses) in flight at once. A server
   * that floods requests and leaves our answers hanging is cut off past it: the connection
   * closes with an error naming this limit. Default {@link DEFAULT_MAX_ANSWERS_IN_FLIGHT} (64).
   */
  maxAnswersInFlight?: number;
}

/**
 * The default bound on answers to the server's requests in flight at once.
 *
 * @example
 * ```ts
 * new StreamableHttpClientTransport(url, { maxAnswersInFlight: 2 * DEFAULT_MAX_ANSWERS_IN_FLIGHT });
 * ```
 */
export const DEFAULT_MAX_ANSWERS_IN_FLIGHT = 64;

/** How long `close()` waits for the DELETE that ends the session. */
const TERMINATE_TIMEOUT = 5000;

/**
 * A client transport for MCP's Streamable HTTP.
 *
 * - POSTs every message with `Accept: application/json, text/event-stream` and reads JSON or SSE
 *   answers; requests and notifications the server sends before its answer are delivered in order.
 * - Keeps the `Mcp-Session-Id` the server assigns at `initialize` and sends it, with
 *   `MCP-Protocol-Version` once negotiated, on every later request.
 * - On a 404 for a request that carried the session id (the session expired), replays the
 *   `initialize` it saw, sends `notifications/initialized`, calls {@link onSessionRecovered} (an
 *   `McpClient` re-subscribes and re-applies its log level there), then retries the request once.
 * - Opens the standalone GET stream after initialization (405 means the server has none).
 * - Resumes dropped SSE streams by GET with `Last-Event-ID`, waiting the server's `retry:` time
 *   first, with exponential backoff for failed attempts; see {@link ReconnectionOptions}.
 * - Ends the session with DELETE on `close()`.
 *
 * @example
 * ```ts
 * import { McpClient } from '@mcpkit/client';
 * import { StreamableHttpClientTransport } from '@mcpkit/client/http';
 *
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * await client.connect(new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
 *   headers: { 'X-Api-Key': process.env.API_KEY! },
 * }));
 * ```
 */
export class StreamableHttpClientTransport implements Transport {
  readonly networkTransport = 'tcp';
  /** The MCP endpoint. */
  readonly url: URL;
  /** Called after the transport replaced a session the server forgot; see {@link Transport}. */
  onSessionRecovered: (() => void | Promise<void>) | undefined;
  /** Endpoint, state, sink, session and fetches in flight, shared with the parts below. */
  private readonly link: HttpLink;
  /** The POST answer streams and the standalone GET stream. */
  private readonly streams: SseStreams;
  private readonly recovery: SessionRecovery;
  private readonly terminateOnClose: boolean;
  private readonly maxIncomingPerSecond: number | undefined;
  private readonly maxAnswersInFlight: number;
  private answersInFlight = 0;
  /** True once the client settled on a per-request revision (2026-07-28): no session, no GET stream. */
  private modern = false;
  /** The 2026-07-28 requests in flight, and the `x-mcp-header` annotations learnt. */
  private readonly modernRequests = new ModernRequests();
  /**
   * Requests whose POST still awaits the response (2025), true once cancelled: their answer
   * stream does not exist yet, so the cancellation cannot stop it; the response then goes unread.
   */
  private readonly posting = new Map<RequestId, boolean>();

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.url = new URL(url);
    const maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    this.link = new HttpLink(this.url, new HttpRequester(options), maxMessageSize);
    const deliver = (value: unknown, about?: RequestId) => this.deliver(value, about);
    this.streams = new SseStreams(
      this.link,
      resolveReconnection(options),
      options.openGetStream ?? true,
      deliver,
    );
    this.recovery = new SessionRecovery(this.link, this.streams, {
      post: (message, mayRecover) => this.post(message, mayRecover),
      recovered: () => this.onSessionRecovered?.(),
    });
    this.terminateOnClose = options.terminateOnClose ?? true;
    this.maxIncomingPerSecond = options.maxIncomingPerSecond;
    this.maxAnswersInFlight = options.maxAnswersInFlight ?? DEFAULT_MAX_ANSWERS_IN_FLIGHT;
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.link.session;
  }

  start(sink: MessageSink): void {
    if (this.link.state !== 'new') throw new Error('A StreamableHttpClientTransport starts once');
    this.link.sink = sink;
    this.link.requester.sink = sink;
    this.link.state = 'open';
    this.link.pacer = new SsePacer(this.maxIncomingPerSecond, (error) => sink.error(error));
  }

  setProtocolVersion(version: string): void {
    this.link.protocolVersion = version;
    // Revisions are dates: 2026-07-28 and later are spoken per request.
    this.modern = version >= '2026-07-28';
  }

  /**
   * POSTs one message. Resolves once the server accepted it; the answer, if any, arrives through
   * the sink. Rejects on network failure or an HTTP error that is not a JSON-RPC error answer.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): Promise<void> {
    if (this.link.state !== 'open') {
      const why = this.link.state === 'new' ? 'has not been started' : 'is closed';
      return Promise.reject(new HttpTransportError(`The Streamable HTTP transport ${why}`));
    }
    if (isInitializeRequest(message)) this.link.initializeRequest = message;
    else if (isNotification(message, 'notifications/cancelled')) {
      this.forgetRequest(message);
      // 2026-07-28: closing the request's stream is the cancellation; nothing is POSTed.
      if (this.modern) return Promise.resolve();
    }
    const answer = !Array.isArray(message) && !('method' in message);
    if (answer && this.answersInFlight >= this.maxAnswersInFlight) return this.cutOff();
    if (answer) this.answersInFlight++;
    const sent = this.post(message, true).catch((error: unknown) => {
      // `close()` aborts every POST in flight (a cancellation sent just before, say): what the
      // caller cut off on purpose is no failure to report.
      if (this.link.state === 'closed') return;
      throw error;
    });
    return answer ? sent.finally(() => this.answersInFlight--) : sent;
  }

  /** Closes at once with an error: the server floods requests and leaves our answers hanging. */
  private cutOff(): Promise<void> {
    const error = new HttpTransportError(
      `The server is not taking our answers: ${this.maxAnswersInFlight} are in flight (maxAnswersInFlight)`,
    );
    const sink = this.link.sink;
    this.link.sink = undefined; // close() below must not report a plain close as well
    sink?.closed(error);
    void this.close();
    return Promise.resolve();
  }

  /**
   * Ends the session with DELETE. A server that does not allow it (405) or already forgot the
   * session (404) is fine.
   *
   * @example
   * ```ts
   * declare const transport: StreamableHttpClientTransport;
   * await transport.terminateSession();
   * ```
   */
  async terminateSession(): Promise<void> {
    const session = this.link.session;
    if (session === undefined) return;
    this.streams.stopStandalone();
    const controller = this.link.track();
    const timer = setTimeout(() => controller.abort(), TERMINATE_TIMEOUT);
    try {
      const response = await this.link.requester.send({
        method: 'DELETE',
        url: this.url,
        headers: this.link.sessionHeaders(session),
        controller,
      });
      if (!response.ok && response.status !== 404 && response.status !== 405) {
        throw (await readFailure(response, `DELETE ${this.url.href} (end the session)`)).error;
      }
      discardBody(response);
      if (this.link.session === session) this.link.session = undefined;
    } finally {
      clearTimeout(timer);
      this.link.untrack(controller);
    }
  }

  /** Stops every stream and fetch, ends the session (unless `terminateOnClose` is false), and closes. */
  async close(): Promise<void> {
    if (this.link.state === 'closed') return;
    const wasOpen = this.link.state === 'open';
    this.link.state = 'closed';
    this.streams.stopAll();
    for (const controller of [...this.link.controllers]) controller.abort();
    this.link.controllers.clear();
    this.recovery.failAll('the transport closed');
    if (this.terminateOnClose && this.link.session !== undefined) {
      await this.terminateSession().catch((error: unknown) => this.link.sink?.error(toError(error)));
    }
    if (wasOpen) this.link.sink?.closed();
  }

  // ---------------------------------------------------------------- POST

  private async post(message: Outgoing, mayRecover: boolean): Promise<void> {
    const version = envelopeVersionOf(message);
    if (version !== undefined) return this.postModern(message as JsonRpcMessage, version);
    const initializing = isInitializeRequest(message);
    const session = initializing ? undefined : this.link.session;
    const what = `POST ${this.url.href} (${labelOf(message)})`;
    const controller = this.link.track();
    const ids = requestIdsOf(message);
    for (const id of ids) if (!this.posting.has(id)) this.posting.set(id, false);
    let handedOver = false;
    try {
      const response = await this.link.requester.send({
        method: 'POST',
        url: this.url,
        headers: this.link.postHeaders(session, initializing),
        body: JSON.stringify(message),
        controller,
        message,
      });
      if (initializing && response.ok) this.link.adoptSession(response);
      if (response.status === 404 && session !== undefined && mayRecover) {
        discardBody(response);
        await this.recovery.recover(session);
        return await this.post(message, false);
      }
      if (!response.ok) return await this.failed(response, message, what);
      handedOver = await this.accepted(response, message, what, controller);
    } finally {
      if (!handedOver) this.link.untrack(controller);
      for (const id of ids) this.posting.delete(id);
    }
  }

  /**
   * POSTs a 2026-07-28 request: no session, the request metadata headers, and an answer that is
   * JSON or a stream scoped to the request (never resumed: the revision has no event ids).
   */
  private async postModern(message: JsonRpcMessage, version: string): Promise<void> {
    const what = `POST ${this.url.href} (${labelOf(message)})`;
    const controller = this.link.track();
    const headers = this.modernRequests.begin(message, version, controller);
    let handedOver = false;
    try {
      const response = await this.link.requester.send({
        method: 'POST',
        url: this.url,
        headers,
        body: JSON.stringify(message),
        controller,
        message,
      });
      if (!response.ok) return await this.failed(response, message, what);
      if (mediaType(response) === 'application/json') this.modernRequests.arrived(message);
      handedOver = await this.accepted(response, message, what, controller, false);
    } finally {
      if (!handedOver) {
        this.link.untrack(controller);
        this.modernRequests.end(message);
      }
    }
  }

  /** Handles a 2xx answer to a POST. True when its body became a stream that owns `controller`. */
  private async accepted(
    response: Response,
    message: Outgoing,
    what: string,
    controller: AbortController,
    resumable = true,
  ) {
    // Requests cancelled while the POST was in flight are not waited for (nor resumed): with none
    // left, the answer is read no further, like a notification's.
    const requestIds = requestIdsOf(message).filter((id) => this.posting.get(id) !== true);
    if (requestIds.length === 0) {
      discardBody(response);
      if (isNotification(message, 'notifications/initialized')) this.streams.openStandalone();
      return false;
    }
    const type = mediaType(response);
    if (type === 'text/event-stream') {
      this.streams.readAnswers(labelOf(message), requestIds, resumable, controller, bodyOf(response));
      return true;
    }
    if (type === 'application/json') {
      await this.deliverJson(response, what);
      return false;
    }
    discardBody(response);
    // A bare 202 to a request breaks the spec, yet the answer may still come on the GET stream.
    if (response.status === 202) return false;
    throw new HttpTransportError(
      `${what} was answered with an unexpected content type "${type}"`,
      response.status,
    );
  }

  /** A non-2xx answer: a JSON-RPC error for the request goes to the client, anything else rejects. */
  private async failed(response: Response, message: Outgoing, what: string): Promise<void> {
    const { error, json } = await readFailure(response, what);
    const ids = requestIdsOf(message);
    let answered = false;
    forEachResponse(json, (candidate) => {
      answered ||= 'error' in candidate && ids.includes(candidate.id);
    });
    if (!answered) throw error;
    this.deliver(json);
  }

  private async deliverJson(response: Response, what: string): Promise<void> {
    const { text, complete } = await readText(response, this.link.maxMessageSize);
    if (!complete) {
      throw new HttpTransportError(
        `${what} was answered with a body that broke off or exceeds ${this.link.maxMessageSize} characters`,
        response.status,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpTransportError(
        `${what} was answered with a body that is not valid JSON`,
        response.status,
      );
    }
    this.deliver(value);
  }

  // ---------------------------------------------------------------- plumbing

  /** The client cancelled a request: stop waiting for (and resuming) its answer. */
  private forgetRequest(message: Outgoing): void {
    const id = (message as { params?: { requestId?: unknown } }).params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    if (this.posting.has(id)) this.posting.set(id, true);
    this.modernRequests.cancel(id);
    this.streams.forget(id);
  }

  /**
   * Hands a message from the server to the client, unless the transport itself waited for it. A
   * server request sent on the stream of our request `about` says so (`relatedRequestId`): a
   * gateway routes it to whoever made that request.
   */
  private deliver(value: unknown, about?: RequestId): void {
    if (this.modernRequests.active) this.modernRequests.settle(value, this.link.sink);
    if (this.recovery.intercepts(value)) return;
    if (about !== undefined && isServerRequest(value))
      this.link.sink?.message(value, { relatedRequestId: about });
    else this.link.sink?.message(value);
  }
}

/** A JSON-RPC request (a method and an id), not a response, notification or batch. */
function isServerRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'method' in value && 'id' in value;
}
