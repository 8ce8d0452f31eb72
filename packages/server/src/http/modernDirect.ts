/**
 * The direct path of a 2026-07-28 POST: the request is answered with no session, connection or
 * session transport made for it (docs/benchmarks.md, "http-2026"). The envelope is decoded, the
 * server dispatches, the result is encoded and becomes the JSON answer.
 *
 * Everything else the request may need still comes from today's objects, made on first use: when
 * the handler reads `ctx.session`, sends a notification or progress, or asks the client anything
 * through the engine, the request gets the throwaway session and stateless transport the other
 * path would have given it from the start, and from then on that transport answers (JSON, or SSE
 * when something went out before the result). The endpoint takes this path only when the server
 * has no observer (which watches requests through the connection).
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
  type OutgoingRequestOptions,
  type ProgressUpdate,
} from '@mcpkit/core';
import { errorResponse, isPromiseLike, toError } from '@mcpkit/core/internal';
import type { SessionOpener } from '../context.js';
import { answerModern } from '../modern/serve.js';
import type { Server } from '../server.js';
import type { ServerSession, SessionConnectOptions } from '../session.js';
import { type ModernPost, modernStatus } from './classify.js';
import { type ExchangeOptions, type HttpRuntime, HttpSessionTransport } from './delivery/transport.js';
import { jsonReply, Refuse, type Reply } from './responses.js';

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
 * One 2026-07-28 POST answered on the direct path. Made by the Streamable HTTP endpoint; not
 * meant to be used by applications.
 *
 * @example
 * ```ts
 * declare const runtime: HttpRuntime;
 * declare const server: Server;
 * declare const exchange: ExchangeOptions;
 * declare const post: ModernPost;
 * declare const extra: MessageExtra;
 * const reply = await new DirectModernRequest(runtime, server, exchange, post, extra).serve();
 * ```
 */
// Not `implements IncomingRequestOwner` (core does not export it): passing `this` checks it.
export class DirectModernRequest implements SessionOpener {
  private readonly incoming: IncomingRequest;
  /** The throwaway session, once something asked for it; its transport then answers. */
  private session: ServerSession | undefined;
  private transport: HttpSessionTransport | undefined;
  private response: Promise<Reply> | undefined;
  /** Settles the answer of a request whose handler is still running (async only). */
  private settleReply: ((reply: Reply | Promise<Reply>) => void) | undefined;
  /** Made only when an answer is undecided after dispatch, which a synchronous handler never is. */
  private onAbort: (() => void) | undefined;
  /**
   * The client left (or the session closed) before the answer: nothing more is sent. The handler's
   * signal fires through `abort`, the public half of what a closing connection does.
   */
  private gone = false;

  constructor(
    private readonly runtime: HttpRuntime,
    private readonly server: Server,
    private readonly exchange: ExchangeOptions,
    post: ModernPost,
    extra: MessageExtra,
  ) {
    this.incoming = new IncomingRequest(this, post.id, post.method, post.params, extra);
  }

  /** Answers the request: at once when the handler answered synchronously, else once it has. */
  serve(): Reply | Promise<Reply> {
    let result: unknown;
    try {
      result = answerModern(this.server, this, this.incoming);
    } catch (error) {
      return this.answer(this.failure(error));
    }
    if (isPromiseLike(result)) return this.later(result);
    return this.answer(this.success(result));
  }

  private later(result: PromiseLike<unknown>): Promise<Reply> {
    result.then(
      (value) => this.finish(value, false),
      (error: unknown) => this.finish(error, true),
    );
    // Something opened the session already: its transport answers, and watches the client.
    if (this.response) return this.response;
    const reply = new Promise<Reply | Promise<Reply>>((resolve) => {
      this.settleReply = resolve;
    });
    this.watch();
    return reply as Promise<Reply>;
  }

  /** After the client left nothing is built, reported or sent, as on a closed connection. */
  private finish(outcome: unknown, failed: boolean): void {
    this.unwatch();
    if (this.gone) {
      this.incoming.done = true;
      return;
    }
    // Evaluated first: with a session opened before dispatch returned there is no settleReply,
    // and the answer still has to go out through its transport.
    const reply = this.answer(failed ? this.failure(outcome) : this.success(outcome));
    this.settleReply?.(reply);
  }

  /** The answer to `message`: JSON, or through the session's transport once one was opened. */
  private answer(message: JsonRpcResponse): Reply | Promise<Reply> {
    const incoming = this.incoming;
    incoming.done = true;
    if (this.transport) {
      if (!this.gone && !this.transport.closed) this.transport.send(message);
      return this.response!;
    }
    if (this.gone) return Refuse.invalid('the client disconnected');
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

  // ---------------------------------------------------------------- the client leaving

  /** While the answer is undecided, the client leaving stops the handler (as a closed connection would). */
  private watch(): void {
    const signal = this.exchange.request?.signal;
    if (!signal) return;
    this.onAbort = () => this.abandon();
    if (signal.aborted) queueMicrotask(this.onAbort);
    else signal.addEventListener('abort', this.onAbort, { once: true });
  }

  private unwatch(): void {
    const listener = this.onAbort;
    if (!listener) return;
    this.onAbort = undefined;
    this.exchange.request!.signal.removeEventListener('abort', listener);
  }

  private abandon(): void {
    this.unwatch();
    if (this.incoming.done) return;
    this.stop();
    // Once a session was opened its transport answers (and sees the client leave itself).
    if (!this.transport) this.settleReply?.(Refuse.invalid('the client disconnected'));
  }

  private stop(): void {
    this.gone = true;
    this.incoming.abort(new ConnectionClosedError());
  }

  // ---------------------------------------------------------------- the session, on first use

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
    this.response = transport.openExchange([this.incoming.id], this.exchange);
    session.onClose(() => {
      if (!this.incoming.done) this.stop();
    });
    if (this.settleReply) {
      this.unwatch();
      this.settleReply(this.response);
    }
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

  requestFor<R>(
    request: IncomingRequest,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    return this.openSession().connection.request<R>(method, params, {
      ...options,
      signal: options?.signal ?? request.signal,
      relatedRequestId: request.id,
    });
  }

  progressFor(request: IncomingRequest, update: ProgressUpdate): void | Promise<void> {
    const params: Record<string, unknown> = {
      progressToken: request.progressToken,
      progress: update.progress,
    };
    if (update.total !== undefined) params.total = update.total;
    if (update.message !== undefined) params.message = update.message;
    return this.openSession().notifyNow(PROGRESS, params, request.id);
  }
}
