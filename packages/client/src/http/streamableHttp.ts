/**
 * The Streamable HTTP client transport (MCP 2025-03-26 and later).
 *
 * Every message is its own POST; answers come back as JSON or as an SSE stream; a GET stream
 * carries what the server sends outside requests. Dropped SSE streams resume by GET with
 * `Last-Event-ID`, after the server's `retry:` delay; an expired session is re-initialized
 * behind the client's back.
 * @module
 */
import {
  ErrorCode,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type MessageSink,
  type RequestId,
  type SendOptions,
  type Transport,
} from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import type { EventSourceMessage } from 'eventsource-parser';
import { HttpTransportError } from './errors.js';
import { readEventStream, SsePacer } from './eventStream.js';
import {
  asResponse,
  forEachResponse,
  isInitializeRequest,
  isNotification,
  labelOf,
  type Outgoing,
  requestIdsOf,
} from './messages.js';
import { addStandardHeaders, envelopeVersionOf, ToolHeaders } from './modernHeaders.js';
import {
  type ReconnectionOptions,
  type ResolvedReconnectionOptions,
  reconnectionDelay,
  resolveReconnection,
} from './reconnect.js';
import {
  bodyOf,
  DEFAULT_MAX_MESSAGE_SIZE,
  discardBody,
  HttpRequester,
  type HttpRequestOptions,
  mediaType,
  type ResponseBody,
  readFailure,
  readText,
} from './requester.js';

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

/** A response the transport waits for itself (re-initialization), kept from the client. */
interface Interception {
  readonly deliver: (response: JsonRpcResponse) => void;
  readonly fail: (error: Error) => void;
}

/** One logical SSE stream: a POST's answer stream (across its resumptions) or the GET stream. */
interface SseStream {
  readonly kind: 'post' | 'get';
  /** What opened the stream, for error texts. */
  readonly label: string;
  /** False for 2026-07-28 answer streams: the revision has no `Last-Event-ID` resumption. */
  readonly resumable: boolean;
  /** Requests whose responses are still due on this stream (POST streams only). */
  readonly awaiting: Set<RequestId>;
  /** The last event id seen; it survives resumptions until a newer id arrives (sdk#2499). */
  lastEventId: string | undefined;
  /** The server's `retry:` value, in ms. */
  retry: number | undefined;
  /** Reconnection attempts in a row that did not open a stream. */
  failures: number;
  /** Connections in a row that opened but ended without a single event. */
  idle: number;
  controller: AbortController | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  stopped: boolean;
}

const POST_ACCEPT = 'application/json, text/event-stream';
/** Visible ASCII only, as the spec requires of session ids. */
const SESSION_ID = /^[\x21-\x7e]+$/;
/** Statuses worth another reconnection attempt; any other failure is final. */
const TRANSIENT_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
/**
 * Answers to the standalone GET that mean "no stream here": 405 per the spec, 404 from servers
 * that only route POST (or whose session just expired; the next POST re-initializes), 400 from
 * servers that reject GET outright (reported once, since it breaks the spec).
 */
const NO_STANDALONE_STREAM = new Set([400, 404, 405]);
/** How long `close()` waits for the DELETE that ends the session. */
const TERMINATE_TIMEOUT = 5000;
/** How long a transparent re-initialization may take. */
const REINITIALIZE_TIMEOUT = 30_000;

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
  private readonly requester: HttpRequester;
  private readonly reconnection: ResolvedReconnectionOptions;
  private readonly openGetStream: boolean;
  private readonly terminateOnClose: boolean;
  private readonly maxMessageSize: number;
  private sink: MessageSink | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private session: string | undefined;
  private protocolVersion: string | undefined;
  /** The client's `initialize`, replayed when the session expires. */
  private initializeRequest: JsonRpcMessage | undefined;
  private standalone: SseStream | undefined;
  private readonly streams = new Set<SseStream>();
  /** Controllers of every fetch in flight, so `close()` can abort them all. */
  private readonly controllers = new Set<AbortController>();
  /** Responses the transport itself waits for (re-initialization); they never reach the client. */
  private readonly intercepted = new Map<RequestId, Interception>();
  private recovery: Promise<void> | undefined;
  private reinitializations = 0;
  private pacer: SsePacer | undefined;
  private readonly maxIncomingPerSecond: number | undefined;
  private readonly maxAnswersInFlight: number;
  private answersInFlight = 0;
  /** True once the client settled on a per-request revision (2026-07-28): no session, no GET stream. */
  private modern = false;
  /** The `x-mcp-header` annotations of the tools listed through this transport (2026-07-28). */
  private readonly toolHeaders = new ToolHeaders();
  /** Ids of `tools/list` requests in flight under 2026-07-28, whose results teach `toolHeaders`. */
  private readonly toolLists = new Set<RequestId>();
  /** The fetch of each 2026-07-28 request in flight: aborting it is how HTTP cancels (no notification). */
  private readonly modernPosts = new Map<RequestId, AbortController>();
  /**
   * Requests whose POST still awaits the response (2025), true once cancelled: their answer
   * stream does not exist yet, so the cancellation cannot stop it; the response then goes unread.
   */
  private readonly posting = new Map<RequestId, boolean>();

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.url = new URL(url);
    this.requester = new HttpRequester(options);
    this.reconnection = resolveReconnection(options);
    this.openGetStream = options.openGetStream ?? true;
    this.terminateOnClose = options.terminateOnClose ?? true;
    this.maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    this.maxIncomingPerSecond = options.maxIncomingPerSecond;
    this.maxAnswersInFlight = options.maxAnswersInFlight ?? DEFAULT_MAX_ANSWERS_IN_FLIGHT;
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.session;
  }

  start(sink: MessageSink): void {
    if (this.state !== 'new') throw new Error('A StreamableHttpClientTransport starts once');
    this.sink = sink;
    this.state = 'open';
    this.pacer = new SsePacer(this.maxIncomingPerSecond, (error) => sink.error(error));
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    // Revisions are dates: 2026-07-28 and later are spoken per request.
    this.modern = version >= '2026-07-28';
  }

  /**
   * POSTs one message. Resolves once the server accepted it; the answer, if any, arrives through
   * the sink. Rejects on network failure or an HTTP error that is not a JSON-RPC error answer.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): Promise<void> {
    if (this.state !== 'open') {
      const why = this.state === 'new' ? 'has not been started' : 'is closed';
      return Promise.reject(new HttpTransportError(`The Streamable HTTP transport ${why}`));
    }
    if (isInitializeRequest(message)) this.initializeRequest = message;
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
      if (this.state === 'closed') return;
      throw error;
    });
    return answer ? sent.finally(() => this.answersInFlight--) : sent;
  }

  /** Closes at once with an error: the server floods requests and leaves our answers hanging. */
  private cutOff(): Promise<void> {
    const error = new HttpTransportError(
      `The server is not taking our answers: ${this.maxAnswersInFlight} are in flight (maxAnswersInFlight)`,
    );
    const sink = this.sink;
    this.sink = undefined; // close() below must not report a plain close as well
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
    const session = this.session;
    if (session === undefined) return;
    if (this.standalone) this.stop(this.standalone);
    const controller = this.track();
    const timer = setTimeout(() => controller.abort(), TERMINATE_TIMEOUT);
    try {
      const response = await this.requester.send({
        method: 'DELETE',
        url: this.url,
        headers: this.sessionHeaders(session),
        signal: controller.signal,
      });
      if (!response.ok && response.status !== 404 && response.status !== 405) {
        throw (await readFailure(response, `DELETE ${this.url.href} (end the session)`)).error;
      }
      discardBody(response);
      if (this.session === session) this.session = undefined;
    } finally {
      clearTimeout(timer);
      this.untrack(controller);
    }
  }

  /** Stops every stream and fetch, ends the session (unless `terminateOnClose` is false), and closes. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    for (const stream of [...this.streams]) this.stop(stream);
    for (const controller of [...this.controllers]) controller.abort();
    this.controllers.clear();
    for (const interception of [...this.intercepted.values()])
      interception.fail(new Error('the transport closed'));
    if (this.terminateOnClose && this.session !== undefined) {
      await this.terminateSession().catch((error: unknown) => this.sink?.error(toError(error)));
    }
    if (wasOpen) this.sink?.closed();
  }

  // ---------------------------------------------------------------- POST

  private async post(message: Outgoing, mayRecover: boolean): Promise<void> {
    const version = envelopeVersionOf(message);
    if (version !== undefined) return this.postModern(message as JsonRpcMessage, version);
    const initializing = isInitializeRequest(message);
    const session = initializing ? undefined : this.session;
    const what = `POST ${this.url.href} (${labelOf(message)})`;
    const controller = this.track();
    const ids = requestIdsOf(message);
    for (const id of ids) if (!this.posting.has(id)) this.posting.set(id, false);
    let handedOver = false;
    try {
      const response = await this.requester.send({
        method: 'POST',
        url: this.url,
        headers: this.postHeaders(session, initializing),
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      if (initializing && response.ok) this.adoptSession(response);
      if (response.status === 404 && session !== undefined && mayRecover) {
        discardBody(response);
        await this.recoverSession(session);
        return await this.post(message, false);
      }
      if (!response.ok) return await this.failed(response, message, what);
      handedOver = await this.accepted(response, message, what, controller);
    } finally {
      if (!handedOver) this.untrack(controller);
      for (const id of ids) this.posting.delete(id);
    }
  }

  /**
   * POSTs a 2026-07-28 request: no session, the request metadata headers, and an answer that is
   * JSON or a stream scoped to the request (never resumed: the revision has no event ids).
   */
  private async postModern(message: JsonRpcMessage, version: string): Promise<void> {
    const what = `POST ${this.url.href} (${labelOf(message)})`;
    const controller = this.track();
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined) this.modernPosts.set(id, controller);
    if (id !== undefined && 'method' in message && message.method === 'tools/list') this.toolLists.add(id);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: POST_ACCEPT };
    addStandardHeaders(message, version, headers);
    if ('method' in message && message.method === 'tools/call') {
      this.toolHeaders.forCall(message.params?.name, message.params?.arguments, headers);
    }
    let handedOver = false;
    try {
      const response = await this.requester.send({
        method: 'POST',
        url: this.url,
        headers,
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      if (!response.ok) return await this.failed(response, message, what);
      handedOver = await this.accepted(response, message, what, controller, false);
    } finally {
      if (!handedOver) this.untrack(controller);
      if (id !== undefined && !handedOver) this.modernPosts.delete(id);
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
      if (isNotification(message, 'notifications/initialized')) this.openStandaloneStream();
      return false;
    }
    const type = mediaType(response);
    if (type === 'text/event-stream') {
      const stream = this.createStream('post', labelOf(message), requestIds, resumable);
      stream.controller = controller;
      void this.consume(stream, bodyOf(response));
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
    const { text, complete } = await readText(response, this.maxMessageSize);
    if (!complete) {
      throw new HttpTransportError(
        `${what} was answered with a body that broke off or exceeds ${this.maxMessageSize} characters`,
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

  private adoptSession(response: Response): void {
    const session = response.headers.get('mcp-session-id');
    if (session === null) return;
    if (!SESSION_ID.test(session)) {
      discardBody(response);
      throw new HttpTransportError('The server assigned a session id with characters outside visible ASCII');
    }
    this.session = session;
  }

  private postHeaders(session: string | undefined, initializing: boolean): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: POST_ACCEPT };
    // `initialize` starts a session and a negotiation, so it carries neither.
    return initializing ? headers : this.sessionHeaders(session, headers);
  }

  /** Adds the session and protocol version headers to `headers` (a fresh object by default). */
  private sessionHeaders(
    session: string | undefined,
    headers: Record<string, string> = {},
  ): Record<string, string> {
    if (session !== undefined) headers['mcp-session-id'] = session;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  // ---------------------------------------------------------------- session recovery

  /** Re-initializes once for however many requests hit the same expired session. */
  private recoverSession(expired: string): Promise<void> {
    if (this.recovery) return this.recovery;
    if (this.session !== expired) return Promise.resolve(); // recovered already
    const done = () => {
      this.recovery = undefined;
    };
    // The new session is open once re-initialized: requests the client sends to set it up again
    // must not wait for this recovery (they would wait for themselves).
    this.recovery = this.reinitialize().then(
      () => {
        done();
        return this.announceRecovery();
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
    return this.recovery;
  }

  private async announceRecovery(): Promise<void> {
    try {
      await this.onSessionRecovered?.();
    } catch (error) {
      this.sink?.error(toError(error));
    }
  }

  private async reinitialize(): Promise<void> {
    const initialize = this.initializeRequest;
    const fail = (why: string, cause?: unknown) =>
      new HttpTransportError(`The session expired (HTTP 404) and re-initializing failed: ${why}`, 404, {
        cause,
      });
    if (!initialize) throw fail('no initialize request was sent through this transport');
    this.session = undefined;
    if (this.standalone) this.stop(this.standalone);
    const id = `mcpkit-reinitialize-${++this.reinitializations}`;
    const answer = this.intercept(id);
    // A failed POST fails the wait, so there is one place to catch either.
    this.post({ ...initialize, id } as JsonRpcMessage, false).catch((error: unknown) =>
      this.intercepted.get(id)?.fail(toError(error)),
    );
    let response: JsonRpcResponse;
    try {
      response = await answer;
    } catch (error) {
      throw fail(toError(error).message, error);
    }
    if ('error' in response) throw fail(response.error.message);
    const version = response.result.protocolVersion;
    if (this.protocolVersion !== undefined && version !== this.protocolVersion) {
      throw fail(`the server now speaks ${String(version)} instead of ${this.protocolVersion}`);
    }
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, false);
  }

  /** Waits for the response with `id`, which is kept from the client. */
  private intercept(id: RequestId): Promise<JsonRpcResponse> {
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.intercepted.delete(id);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new Error(`no answer within ${REINITIALIZE_TIMEOUT} ms`));
      }, REINITIALIZE_TIMEOUT);
      this.intercepted.set(id, {
        deliver: (response) => {
          settle();
          resolve(response);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      });
    });
  }

  // ---------------------------------------------------------------- SSE streams

  private createStream(
    kind: SseStream['kind'],
    label: string,
    awaiting: RequestId[] = [],
    resumable = true,
  ): SseStream {
    const stream: SseStream = {
      kind,
      label,
      resumable,
      awaiting: new Set(awaiting),
      lastEventId: undefined,
      retry: undefined,
      failures: 0,
      idle: 0,
      controller: undefined,
      timer: undefined,
      stopped: false,
    };
    this.streams.add(stream);
    return stream;
  }

  private openStandaloneStream(): void {
    if (!this.openGetStream || this.standalone || this.state !== 'open') return;
    this.standalone = this.createStream('get', 'standalone GET stream');
    void this.connect(this.standalone);
  }

  /** Reads one connection of `stream`; when it ends early, schedules the next. */
  private async consume(stream: SseStream, body: ResponseBody | null): Promise<void> {
    let sawEvent = false;
    let dropped: unknown;
    try {
      if (body) {
        await readEventStream(
          body,
          {
            onEvent: (event) => {
              sawEvent = true;
              return this.receiveEvent(stream, event);
            },
            onRetry: (milliseconds) => {
              stream.retry = milliseconds;
            },
          },
          { maxEventSize: this.maxMessageSize, signal: stream.controller?.signal, pace: this.pacer?.pace },
        );
      }
    } catch (error) {
      dropped = error;
    } finally {
      this.untrack(stream.controller);
      stream.controller = undefined;
    }
    if (stream.stopped || this.state !== 'open') return;
    if (stream.kind === 'post' && stream.awaiting.size === 0) {
      this.finish(stream);
      return;
    }
    stream.idle = sawEvent ? 0 : stream.idle + 1;
    this.scheduleReconnect(stream, dropped);
  }

  /** Handles one SSE event. True when the stream has delivered everything it owes. */
  private receiveEvent(stream: SseStream, event: EventSourceMessage): boolean {
    // A 2026-07-28 server may still number its events; they are not resume points (GET is 405).
    if (event.id && stream.resumable) stream.lastEventId = event.id;
    if (event.event !== undefined && event.event !== 'message') return false;
    // An event without data is a priming event or a keep-alive: only its id matters.
    if (event.data === '') return false;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.sink?.parseError(
        new Error(`The server sent an SSE event on the ${stream.label} whose data is not JSON`),
      );
      return false;
    }
    forEachResponse(value, (response) => stream.awaiting.delete(response.id));
    this.deliver(value);
    this.pacer?.admit(value);
    return stream.kind === 'post' && stream.awaiting.size === 0;
  }

  /** Schedules the next connection of `stream`, or gives it up. `cause`: why the last one ended or failed. */
  private scheduleReconnect(stream: SseStream, cause: unknown): void {
    const reason = cause === undefined ? undefined : toError(cause).message;
    if (stream.kind === 'post' && stream.lastEventId === undefined) {
      const drop = reason === undefined ? 'it ended' : `it broke off (${reason})`;
      const why = stream.resumable
        ? ', with no event id to resume from'
        : ' (revision 2026-07-28 answer streams cannot be resumed)';
      this.giveUp(stream, new HttpTransportError(`${drop} before the answer${why}`));
      return;
    }
    const retries = this.reconnection.maxRetries;
    if (stream.failures >= retries) {
      const why =
        retries === 0
          ? `${reason === undefined ? 'it ended' : `it broke off (${reason})`} and reconnection is disabled`
          : `${retries} reconnection attempt(s) failed, the last with: ${reason}`;
      this.giveUp(stream, new HttpTransportError(why));
      return;
    }
    const delay = reconnectionDelay(this.reconnection, stream.failures + stream.idle, stream.retry);
    stream.timer = setTimeout(() => {
      stream.timer = undefined;
      void this.connect(stream);
    }, delay);
  }

  /** Opens (or reopens, with `Last-Event-ID`) a stream by GET. */
  private async connect(stream: SseStream): Promise<void> {
    if (stream.stopped || this.state !== 'open') return;
    const controller = this.track();
    stream.controller = controller;
    const what = `GET ${this.url.href} (${stream.kind === 'get' ? stream.label : `resume the answer to ${stream.label}`})`;
    let response: Response;
    try {
      const headers: Record<string, string> = {
        accept: 'text/event-stream',
        ...this.sessionHeaders(this.session),
      };
      if (stream.lastEventId !== undefined) headers['last-event-id'] = stream.lastEventId;
      response = await this.requester.send({
        method: 'GET',
        url: this.url,
        headers,
        signal: controller.signal,
      });
    } catch (error) {
      this.untrack(controller);
      stream.controller = undefined;
      if (stream.stopped || this.state !== 'open') return;
      if (error instanceof HttpTransportError && error.status !== undefined) this.giveUp(stream, error);
      else this.retryAfterFailure(stream, error);
      return;
    }
    if (response.ok && mediaType(response) === 'text/event-stream' && !stream.stopped) {
      stream.failures = 0;
      void this.consume(stream, bodyOf(response));
      return;
    }
    this.untrack(controller);
    stream.controller = undefined;
    if (stream.stopped || this.state !== 'open') {
      discardBody(response);
      return;
    }
    await this.refused(stream, response, what);
  }

  private async refused(stream: SseStream, response: Response, what: string): Promise<void> {
    if (stream.kind === 'get' && NO_STANDALONE_STREAM.has(response.status)) {
      // The server offers no standalone stream: nothing to retry, and (but for a 400, which
      // breaks the spec) nothing to report.
      discardBody(response);
      if (response.status === 400) {
        this.sink?.error(
          new HttpTransportError(
            `${what} was refused with HTTP 400 (the spec says 405); going on without a standalone stream`,
            400,
          ),
        );
      }
      this.finish(stream);
      return;
    }
    const { error } = response.ok
      ? {
          error: new HttpTransportError(
            `${what} was answered with content type "${mediaType(response)}" instead of an SSE stream`,
            response.status,
          ),
        }
      : await readFailure(response, what);
    discardBody(response);
    if (TRANSIENT_STATUSES.has(response.status)) this.retryAfterFailure(stream, error);
    else this.giveUp(stream, error);
  }

  private retryAfterFailure(stream: SseStream, error: unknown): void {
    stream.failures++;
    this.scheduleReconnect(stream, error);
  }

  /** Ends a stream that cannot go on: its pending requests fail, or the client hears of it. */
  private giveUp(stream: SseStream, error: HttpTransportError): void {
    this.finish(stream);
    if (stream.kind === 'get') {
      this.sink?.error(
        new HttpTransportError(`The ${stream.label} stopped: ${error.message}`, error.status, {
          cause: error,
        }),
      );
      return;
    }
    const message = `The answer stream of "${stream.label}" was lost: ${error.message}`;
    for (const id of stream.awaiting) {
      this.deliver({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message } });
    }
    stream.awaiting.clear();
  }

  /** The client cancelled a request: stop waiting for (and resuming) its answer stream. */
  private forgetRequest(message: Outgoing): void {
    const id = (message as { params?: { requestId?: unknown } }).params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    if (this.posting.has(id)) this.posting.set(id, true);
    this.modernPosts.get(id)?.abort();
    this.modernPosts.delete(id);
    this.toolLists.delete(id);
    for (const stream of this.streams) {
      if (stream.awaiting.delete(id) && stream.awaiting.size === 0) this.stop(stream);
    }
  }

  private stop(stream: SseStream): void {
    stream.stopped = true;
    if (stream.timer !== undefined) clearTimeout(stream.timer);
    stream.timer = undefined;
    stream.controller?.abort();
    this.finish(stream);
  }

  private finish(stream: SseStream): void {
    this.streams.delete(stream);
    if (this.standalone === stream) this.standalone = undefined;
  }

  // ---------------------------------------------------------------- plumbing

  private deliver(value: unknown): void {
    if (this.modernPosts.size > 0) this.settleModern(value);
    const response = this.intercepted.size > 0 ? asResponse(value) : undefined;
    const interception = response && this.intercepted.get(response.id);
    if (response && interception) interception.deliver(response);
    else this.sink?.message(value);
  }

  /**
   * A 2026-07-28 response arrived: its request is no longer in flight, and a `tools/list` result
   * teaches the `x-mcp-header` annotations (invalid tools are left out of it, with a warning).
   */
  private settleModern(value: unknown): void {
    forEachResponse(value, (response) => {
      this.modernPosts.delete(response.id);
      if (!this.toolLists.delete(response.id) || !('result' in response)) return;
      for (const refused of this.toolHeaders.learn(response.result)) {
        this.sink?.error(new HttpTransportError(`tools/list: ${refused} (x-mcp-header rules of 2026-07-28)`));
      }
    });
  }

  private track(): AbortController {
    const controller = new AbortController();
    this.controllers.add(controller);
    return controller;
  }

  private untrack(controller: AbortController | undefined): void {
    if (controller) this.controllers.delete(controller);
  }
}
