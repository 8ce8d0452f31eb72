/**
 * The direct path of a 2026-07-28 POST: the request is answered with no session, connection or
 * session transport made for it (docs/benchmarks.md, "http-2026"). The envelope is decoded, the
 * server dispatches, the result is encoded and becomes the JSON answer.
 *
 * Everything else the request may need still comes from today's objects, made on first use: when
 * the handler reads `ctx.session`, sends a notification or progress, or asks the client anything
 * through the engine, the request gets the throwaway session and stateless transport the other
 * path would have given it from the start, and from then on that transport answers (JSON, or SSE
 * when something went out before the result). A handler still running when dispatch returns gets
 * it too (so `server.close()` and a client leaving stop it as before): the saving is for handlers
 * that answer synchronously. It is the one path of every 2026-07-28 POST: with an observer, the
 * session is opened up front (the observer sees it open and close, and the message sizes, as on a
 * connection) and this request reports its own start and end to the observer, as a connection
 * does for the requests it delivers; without one, nothing of that is made.
 * @module
 */
import {
  ConnectionClosedError,
  ErrorCode,
  IncomingRequest,
  type JsonRpcResponse,
  LATEST_PROTOCOL_VERSION,
  McpError,
  type MessageExtra,
  ObservedRequest,
  type Observer,
  type OutgoingRequestOptions,
  type ProgressUpdate,
} from '@mcpkit/core';
import { errorResponse, isPromiseLike, onBehalfOf, progressParamsOf, toError } from '@mcpkit/core/internal';
import type { SessionOpener } from '../kernel/context.js';
import type { ServerSession, SessionConnectOptions } from '../kernel/session.js';
import { answerModern } from '../modern/serve.js';
import type { Server } from '../server.js';
import { type ModernPost, modernStatus } from './classify.js';
import { type ExchangeOptions, type HttpRuntime, HttpSessionTransport } from './delivery/transport.js';
import type { RawHttpRequest } from './rawHttp.js';
import { jsonReply, type Reply } from './responses.js';

type Params = Record<string, unknown> | undefined;
type Options = OutgoingRequestOptions | undefined;

const PROGRESS = 'notifications/progress';

/**
 * How every 2026-07-28 request is connected when it needs a session: one shared, frozen value
 * (the session only reads it).
 *
 * @example
 * ```ts
 * declare const server: Server;
 * declare const transport: HttpSessionTransport;
 * server.connect(transport, MODERN_CONNECT);
 * ```
 */
export const MODERN_CONNECT: SessionConnectOptions = Object.freeze({
  stateless: Object.freeze({ protocolVersion: LATEST_PROTOCOL_VERSION }),
});

/**
 * How a 2026-07-28 exchange answers: JSON whenever the result is the first message, so an error
 * the revision gives a status (a missing client capability: 400) gets it; anything sent before
 * the result still opens SSE.
 *
 * @example
 * ```ts
 * declare const transport: HttpSessionTransport;
 * declare const request: RawHttpRequest;
 * const reply = transport.handlePost([1], modernExchange(request));
 * ```
 */
export function modernExchange(request: RawHttpRequest): ExchangeOptions {
  return { preferJson: true, opensSession: false, request, statusOf: modernStatus };
}

/**
 * One 2026-07-28 POST answered on the direct path. Made by the Streamable HTTP endpoint; not
 * meant to be used by applications.
 *
 * @example
 * ```ts
 * declare const runtime: HttpRuntime;
 * declare const server: Server;
 * declare const request: RawHttpRequest;
 * declare const post: ModernPost;
 * declare const extra: MessageExtra;
 * const reply = await new DirectModernRequest(runtime, server, request, post, extra).serve();
 * ```
 */
// Not `implements IncomingRequestOwner` (core does not export it): passing `this` checks it.
export class DirectModernRequest implements SessionOpener {
  private readonly incoming: IncomingRequest;
  /** The throwaway session, once something asked for it; its transport then answers. */
  private session: ServerSession | undefined;
  private transport: HttpSessionTransport | undefined;
  private response: Promise<Reply> | undefined;
  /** What the observer sees of this request; set only when the server has an observer. */
  private observed: ObservedRequest | undefined;
  /**
   * The session closed before the answer: nothing more is sent. The handler's signal fires
   * through `abort`, the public half of what a closing connection does.
   */
  private gone = false;

  constructor(
    private readonly runtime: HttpRuntime,
    private readonly server: Server,
    /** The HTTP request, for the exchange a session answers through (made only with the session). */
    private readonly request: RawHttpRequest,
    post: ModernPost,
    extra: MessageExtra,
  ) {
    this.incoming = new IncomingRequest(this, post.id, post.method, post.params, extra);
  }

  /** Answers the request: at once when the handler answered synchronously, else once it has. */
  serve(): Reply | Promise<Reply> {
    const observer = this.server.options.observer;
    let result: unknown;
    try {
      // classifyPost checked the request against the revision's header rules already.
      result =
        observer === undefined
          ? answerModern(this.server, this, this.incoming, true)
          : this.answerObserved(observer);
    } catch (error) {
      return this.answer(this.failure(error));
    }
    if (isPromiseLike(result)) return this.later(result);
    return this.answer(this.success(result));
  }

  /**
   * A handler still running once dispatch returned gets the throwaway session now: listed in
   * `server.sessions`, so `server.close()` stops it, and its transport sees the client leave (the
   * handler's signal then fires and nothing is sent), exactly as on the other path.
   */
  private later(result: PromiseLike<unknown>): Promise<Reply> {
    this.openSession();
    result.then(
      (value) => this.finish(value, false),
      (error: unknown) => this.finish(error, true),
    );
    return this.response!; // set: the request is not answered yet
  }

  /**
   * The request under an observer: its session opened now (the observer sees it, and the body's
   * size, as a connection's would be seen), then started, and run inside the observer's context.
   */
  private answerObserved(observer: Observer): unknown {
    const incoming = this.incoming;
    const session = this.openSession();
    this.transport!.received(incoming.extra);
    const observed = new ObservedRequest(
      'server',
      incoming.method,
      incoming.id,
      incoming.params,
      session.observation,
    );
    this.observed = observed;
    try {
      observer.requestStarted?.(observed);
    } catch (error) {
      this.runtime.report(toError(error));
    }
    if (!observer.runHandler) return answerModern(this.server, this, incoming, true);
    return observer.runHandler(observed, () => answerModern(this.server, this, incoming, true));
  }

  /** Tells the observer (when there is one) how the request ended, as a connection does. */
  private observeEnd(message: JsonRpcResponse | undefined): void {
    const observed = this.observed;
    const observer = this.server.options.observer;
    if (observed === undefined || !observer?.requestFinished) return;
    const durationMs = performance.now() - observed.startedAt;
    try {
      if (message === undefined) observer.requestFinished(observed, { durationMs, failure: 'closed' });
      else if ('result' in message)
        observer.requestFinished(observed, { durationMs, result: message.result });
      else
        observer.requestFinished(observed, {
          durationMs,
          errorCode: message.error.code,
          errorMessage: message.error.message,
        });
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  /** After the session closed nothing is built, reported or sent, as on a closed connection. */
  private finish(outcome: unknown, failed: boolean): void {
    if (this.gone) {
      this.incoming.done = true;
      this.observeEnd(undefined);
      return;
    }
    this.answer(failed ? this.failure(outcome) : this.success(outcome));
  }

  /** The answer to `message`: JSON, or through the session's transport once one was opened. */
  private answer(message: JsonRpcResponse): Reply | Promise<Reply> {
    const incoming = this.incoming;
    incoming.done = true;
    if (this.transport) {
      if (!this.gone && !this.transport.closed) this.transport.send(message);
      this.observeEnd(this.gone || this.transport.closed ? undefined : message);
      return this.response!;
    }
    return jsonReply(this.serialize(message), undefined, modernStatus(message));
  }

  private success(result: unknown): JsonRpcResponse {
    const body = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    return { jsonrpc: '2.0', id: this.incoming.id, result: body };
  }

  /** An {@link McpError} goes to the client; anything else is reported and answered `-32603`. */
  private failure(error: unknown): JsonRpcResponse {
    const id = this.incoming.id;
    if (error instanceof McpError) return { jsonrpc: '2.0', id, error: error.toJSON() };
    this.runtime.report(toError(error));
    return errorResponse(id, ErrorCode.InternalError, 'Internal error');
  }

  /** A result that cannot be serialized (a cycle, a BigInt) must still answer its request. */
  private serialize(message: JsonRpcResponse): string {
    try {
      return JSON.stringify(message);
    } catch (error) {
      this.runtime.report(toError(error));
      return JSON.stringify(errorResponse(this.incoming.id, ErrorCode.InternalError, 'Internal error'));
    }
  }

  // ---------------------------------------------------------------- the session, on first use

  /** The session closed before the answer (the client left, or the server closed). */
  private stop(): void {
    this.gone = true;
    this.incoming.abort(new ConnectionClosedError());
  }

  /** The throwaway session the other path makes up front, made now; its transport answers from here on. */
  openSession(): ServerSession {
    if (this.session) return this.session;
    const transport = new HttpSessionTransport(this.runtime, undefined, true);
    const session = this.server.connect(transport, MODERN_CONNECT);
    transport.session = session;
    this.session = session;
    if (this.incoming.done || this.gone) {
      // Asked for after the answer went out: the session is over already, as it would be.
      void session.close().catch((error: unknown) => this.runtime.report(toError(error)));
      return session;
    }
    this.transport = transport;
    // Dispatched already, its handler still running: the exchange and the watch, no delivery.
    this.response = transport.handlePost([this.incoming.id], modernExchange(this.request));
    session.onClose(() => {
      if (!this.incoming.done) this.stop();
    });
    return session;
  }

  // ---------------------------------------------------------------- IncomingRequestOwner

  notifyFor(
    request: IncomingRequest,
    method: string,
    params?: Record<string, unknown>,
  ): void | Promise<void> {
    return this.openSession().connection.notify(method, params, { relatedRequestId: request.id });
  }

  requestFor<R>(request: IncomingRequest, method: string, params: Params, options?: Options): Promise<R> {
    // A question to the client needs the session's engine: made there, on behalf of `request`.
    return this.openSession().connection.request<R>(method, params, onBehalfOf(request, options));
  }

  progressFor(request: IncomingRequest, update: ProgressUpdate): void | Promise<void> {
    return this.openSession().notifyNow(PROGRESS, progressParamsOf(request, update), request.id);
  }
}
