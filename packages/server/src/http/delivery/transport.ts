/**
 * The transport behind one Streamable HTTP session (or one stateless request): the engine's side
 * of delivery.
 *
 * A session has many HTTP exchanges in flight: each POST that carries requests is an *exchange*
 * whose answer is a JSON body or an SSE stream, and a GET may hold the *standalone* stream. The
 * engine tags every outgoing message with the request it belongs to (`relatedRequestId`; a
 * response carries its own id), and this transport routes it: onto that request's exchange, or
 * onto the standalone stream when it belongs to no request. The streams themselves (ordering,
 * event store, resumption) are `SessionStreams` (`streams.ts`); what the transport keeps about
 * its session (identity, owner, activity, exchanges and streams in flight) is {@link TransportState}.
 * @module
 */
import {
  CapabilityError,
  ErrorCode,
  type JsonRpcMessage,
  type MessageExtra,
  type MessageSink,
  type RequestId,
  type SendOptions,
  type Transport,
} from '@mcpkit/core';
import { type ClassifiedBody, errorResponse, toError } from '@mcpkit/core/internal';
import { deliverBody } from '../body.js';
import { emptyReply, jsonReply, Refuse, type Reply } from '../responses.js';
import { AnswerRouting } from './answerRouting.js';
import type { OrphanedStream } from './eventStore.js';
import { END, Exchange, type ExchangeOptions, type LogicalStream } from './exchange.js';
import { keepRequest, rerun } from './failover.js';
import { isRequest, isResponse, responseIdOf, utf8Length } from './outbound.js';
import { openStandalone, resumeStream } from './standalone.js';
import type { DeliveryRuntime } from './streams.js';
import { TransportState } from './transportState.js';

export type { ExchangeOptions } from './exchange.js';

/** Handler-wide settings and services that session transports share. */
export interface HttpRuntime extends DeliveryRuntime {
  /** A new session answered `initialize` successfully: it becomes reachable by its id. */
  sessionReady(transport: HttpSessionTransport): void;
  /** A session transport closed. */
  sessionEnded(transport: HttpSessionTransport): void;
  /** A request of the session was answered (its state may have changed). Only with a session store. */
  readonly answered?: (transport: HttpSessionTransport) => void;
}

const CANCELLED = 'notifications/cancelled';
const STATELESS_REQUEST =
  'A stateless Streamable HTTP server cannot send requests to the client (sampling, elicitation, roots, ping): its answer would reach no session';

/**
 * The server-side transport of one HTTP session. Created by the Streamable HTTP handler; not meant
 * to be constructed by applications.
 *
 * @example
 * ```ts
 * const transport = new HttpSessionTransport(runtime, undefined, true); // one stateless request
 * transport.session = server.connect(transport);
 * const json = { preferJson: true, opensSession: false, request: undefined };
 * const reply = transport.handlePost([1], json, body, extra); // open, deliver, watch
 * ```
 */
export class HttpSessionTransport extends TransportState<HttpRuntime> implements Transport {
  readonly networkTransport = 'tcp';
  /** Keep {@link routing}: set by the handler when a session store routes answers between nodes. */
  trackRequests = false;
  /** This copy's requests to the client still unanswered (made on the first one, when tracked). */
  private routing: AnswerRouting | undefined;
  private sink: MessageSink | undefined;

  start(sink: MessageSink): void {
    this.sink = sink;
  }

  // ---------------------------------------------------------------- inbound (from the handler)

  /**
   * Answers a POST that carries the requests `ids`: registers their exchange, hands `body` to the
   * session's connection, then lets a JSON answer still undecided watch for the client leaving.
   * The one way in for requests, so no caller can forget the watch. Without `body` the request was
   * dispatched already (the 2026-07-28 direct path, its handler still running): the exchange and
   * the watch only. The promise settles with the HTTP response to return.
   *
   * @example
   * ```ts
   * declare const transport: HttpSessionTransport;
   * declare const body: ClassifiedBody;
   * const json = { preferJson: true, opensSession: false, request: undefined };
   * const reply = transport.handlePost([1], json, body, {});
   * ```
   */
  handlePost(ids: readonly RequestId[], options: ExchangeOptions): Promise<Reply>;
  handlePost(
    ids: readonly RequestId[],
    options: ExchangeOptions,
    body: ClassifiedBody,
    extra: MessageExtra,
  ): Promise<Reply>;
  handlePost(
    ids: readonly RequestId[],
    options: ExchangeOptions,
    body?: ClassifiedBody,
    extra?: MessageExtra,
  ): Promise<Reply> {
    const response = this.openExchange(ids, options);
    if (body !== undefined) this.deliver(body, extra as MessageExtra);
    this.watchUndecided(ids);
    return response;
  }

  /** Registers the exchange of `ids` before delivering: a handler may answer synchronously. */
  private openExchange(ids: readonly RequestId[], options: ExchangeOptions): Promise<Reply> {
    const exchange = new Exchange(ids, options);
    for (const id of ids) this.exchanges.set(id, exchange);
    // A JSON answer waits for watchUndecided (after delivery); an SSE one opens its stream now,
    // except an initialize, whose stream opens as soon as it is answered (at once).
    if (!options.preferJson && !options.opensSession) this.streams.open(exchange, undefined);
    return exchange.response;
  }

  /**
   * After delivery: a JSON answer still undecided watches for the client leaving (most are decided
   * during delivery and never read the signal, which makes Deno print its legacy-abort notice).
   * Called in line, not queued per request: no closure, no microtask, and an abort cannot fire
   * before a later task anyway.
   */
  private watchUndecided(ids: readonly RequestId[]): void {
    for (const id of ids) {
      const exchange = this.exchanges.get(id);
      if (exchange === undefined) continue; // answered already
      if (!exchange.settled && exchange.options.preferJson) exchange.watch(() => this.abandon(exchange));
      return;
    }
  }

  /** Hands a parsed body (one message or a batch) to the session's connection. */
  deliver(body: ClassifiedBody, extra: MessageExtra): void {
    if (this.cluster) keepRequest(this, body);
    this.received(extra);
    deliverBody(this.sink, body, extra);
  }

  /**
   * A POST body arrived for this session (delivered here, or answered on the 2026-07-28 direct
   * path): its size goes to an observer that counts sizes.
   */
  received(extra: MessageExtra | undefined): void {
    if (this.sink?.size) {
      const bytes = (extra as { bodyBytes?: number } | undefined)?.bodyBytes;
      if (bytes !== undefined) this.sink.size('in', bytes);
    }
  }

  /**
   * The client cancelled requests (`notifications/cancelled`, already delivered). The engine sends
   * no response for a cancelled request, so their exchanges end here without one.
   */
  clientCancelled(ids: readonly RequestId[]): void {
    for (const id of ids) {
      const exchange = this.exchanges.get(id);
      if (!exchange || exchange.options.opensSession) continue;
      this.exchanges.delete(id);
      if (--exchange.remaining <= 0) this.finish(exchange, emptyReply(204));
    }
  }

  /** Opens the standalone GET stream. `undefined` when one is already open (the caller answers 409). */
  openStandalone(): Reply | undefined | Promise<Reply | undefined> {
    return openStandalone(this.streams);
  }

  /**
   * Resumes the stream that `lastEventId` belongs to (see {@link resumeStream}). `extra` (the
   * GET's caller and headers) is what a call run again here after its node died sees.
   */
  resume(lastEventId: string, extra: MessageExtra = RERUN): Promise<Reply> {
    const takeOver =
      this.cluster && this.streams.store?.claimStream
        ? (orphan: OrphanedStream) => rerun(this, orphan, extra)
        : undefined;
    return resumeStream(this.streams, lastEventId, takeOver);
  }

  /**
   * SSE polling (SEP-1699): ends the HTTP response carrying request `id` while the request keeps
   * running; the client resumes with GET + `Last-Event-ID` and gets the rest. Only possible when
   * events are stored and the client understands priming events (2025-11-25 and later).
   */
  closeRequestStream(id: RequestId, retry?: number): boolean {
    const exchange = this.exchanges.get(id);
    if (!exchange || this.isClosed || !this.streams.primes()) return false;
    const stream = exchange.stream ?? this.streams.open(exchange, undefined);
    this.streams.enqueue(stream, { kind: 'detach', retry });
    return true;
  }

  // ---------------------------------------------------------------- outbound (from the engine)

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.isClosed) throw new Error('The HTTP session is closed');
    // The client POSTs its answer with no session to route it by, so it could never arrive: fail
    // the request now instead of letting it wait for its timeout.
    if (this.stateless && isRequest(message)) throw new CapabilityError(STATELESS_REQUEST);
    if (this.trackRequests && !Array.isArray(message) && 'method' in message && 'id' in message) {
      this.routing ??= new AnswerRouting();
      this.routing.await(message.id);
    }
    const responseId = responseIdOf(message, this.exchanges);
    const target = responseId ?? (isResponse(message) ? undefined : options?.relatedRequestId);
    const exchange = target === undefined ? undefined : this.exchanges.get(target);
    const json = this.serialize(message, responseId);
    if (json === undefined) return;
    if (!exchange) {
      // A response nobody waits for (its request was cancelled) is dropped; the GET stream must
      // not carry responses. Everything else belongs to no request: the standalone stream.
      if (!isResponse(message)) this.streams.enqueue(this.streams.standalone(), json);
      return;
    }
    if (responseId !== undefined) this.answer(exchange, message, json);
    else this.streams.enqueue(exchange.stream ?? this.streams.open(exchange, undefined), json);
  }

  /**
   * Whether `value` (a body of responses only) answers requests this copy sent, all of them; when
   * it does, they are no longer awaited. False sends them to the node that waits for them.
   */
  claimAnswers(value: unknown): boolean {
    return this.routing?.claim(value) ?? false;
  }

  /** Ends every exchange and stream, and tells the engine. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const exchange of this.exchanges.values()) {
      if (!exchange.settled) exchange.settle(Refuse.unknownSession());
      exchange.unwatch();
    }
    this.exchanges.clear();
    this.streamSet?.closeAll(this.localOnly);
    this.runtime.sessionEnded(this);
    this.sink?.closed();
  }

  // ---------------------------------------------------------------- internals

  private serialize(
    message: JsonRpcMessage | JsonRpcMessage[],
    responseId: RequestId | undefined,
  ): string | undefined {
    try {
      const text = JSON.stringify(message);
      if (this.sink?.size) this.sink.size('out', utf8Length(text));
      return text;
    } catch (error) {
      // A result that cannot be serialized (a cycle, a BigInt) must still answer its request.
      this.runtime.report(toError(error));
      if (responseId === undefined) return undefined;
      return JSON.stringify(errorResponse(responseId, ErrorCode.InternalError, 'Internal error'));
    }
  }

  private answer(exchange: Exchange, message: JsonRpcMessage | JsonRpcMessage[], json: string): void {
    if (Array.isArray(message)) {
      // A batch is answered all at once.
      for (const id of exchange.ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
      exchange.remaining = 0;
    } else {
      this.exchanges.delete((message as { id: RequestId }).id);
      exchange.remaining--;
    }
    this.runtime.answered?.(this);
    let stream = exchange.stream;
    if (!stream) {
      const sessionHeader = exchange.options.opensSession ? this.initialized(message) : undefined;
      if (exchange.remaining <= 0 && exchange.options.preferJson) {
        this.finish(exchange, jsonReply(json, sessionHeader, exchange.options.statusOf?.(message)));
        return;
      }
      stream = this.streams.open(exchange, sessionHeader);
    }
    this.streams.enqueue(stream, json);
    if (exchange.remaining <= 0) this.finish(exchange, undefined);
  }

  /** The session's `initialize` was answered: register the session, or drop it if that failed. */
  private initialized(message: JsonRpcMessage | JsonRpcMessage[]): string | undefined {
    if (!Array.isArray(message) && !('error' in message)) {
      this.runtime.sessionReady(this);
      return this.sessionId;
    }
    queueMicrotask(() => void this.closeSession());
    return undefined;
  }

  /** Ends an exchange: its stream ends after what is queued, or `response` answers the POST. */
  private finish(exchange: Exchange, response: Reply | undefined): void {
    exchange.remaining = 0;
    exchange.unwatch();
    if (exchange.stream) this.streams.enqueue(exchange.stream, END);
    else if (response) exchange.settle(response);
    if (this.stateless) queueMicrotask(() => void this.closeSession());
  }

  /** The client went away before its requests were answered, and cannot resume: stop them. */
  private abandon(exchange: Exchange): void {
    if (this.isClosed || exchange.remaining <= 0) return;
    if (this.stateless || exchange.options.opensSession) {
      // Nothing else uses this transport: a session nobody will ever learn the id of is dropped.
      exchange.settle(Refuse.invalid('the client disconnected'));
      void this.closeSession();
      return;
    }
    const pending = exchange.ids.filter((id) => this.exchanges.get(id) === exchange);
    // Cancel before forgetting the ids, so anything the handlers send while stopping still finds
    // its exchange instead of spilling onto the standalone stream.
    for (const requestId of pending) {
      const params = { requestId, reason: 'The client disconnected and cannot resume' };
      this.sink?.message({ jsonrpc: '2.0', method: CANCELLED, params });
    }
    for (const id of pending) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
    this.finish(exchange, Refuse.invalid('the client disconnected'));
  }

  /** A stream lost its connection (the client went away); called by the delivery streams. */
  streamDisconnected(stream: LogicalStream): void {
    if (this.isClosed || !stream.live || !stream.exchange) return; // the standalone stream waits
    // The client can resume, unless the session is a throwaway one (stateless mode, every
    // 2026-07-28 request): no session id to resume with, so a lost stream is the cancellation.
    if (this.streams.store && stream.hasIds) return;
    this.abandon(stream.exchange);
  }

  /** Closes through the session when there is one, so the engine and server see it end. */
  private async closeSession(): Promise<void> {
    try {
      if (this.session) await this.session.close();
      else await this.close();
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }
}

/** The extra of a resume that brings no HTTP request along (a call run again sees no caller). */
const RERUN: MessageExtra = {};
