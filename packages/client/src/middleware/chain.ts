/**
 * A client's middleware chain: composed once per `use()`, entered for each message sent or
 * received while one is installed, and ended by sending the message or answering / delivering
 * it. A client without middleware never enters it (`installed` is false).
 * @module
 */
import { composeMiddleware, type IncomingRequest, type OutgoingRequestOptions } from '@mcpkit/core';
import type { ClientProtocolVersion } from '../clientOptions.js';
import type { HandlerRegistry } from '../handlers.js';
import type { ClientSender } from '../sender.js';
import { type ClientMiddleware, ClientMiddlewareContext } from './context.js';

/** Answers a request of the server past the chain (its handler, with its context). */
export type ChainAnswer = (
  method: string,
  params: Record<string, unknown>,
  request: IncomingRequest,
) => unknown;

/**
 * The middleware of one client, and the ends of its chain.
 *
 * @example
 * ```ts
 * const chain = new ClientMiddlewareChain(sender, handlers, answer);
 * chain.use((ctx, next) => next());
 * if (chain.installed) await chain.send('tools/list', {}, undefined, '2025-11-25');
 * ```
 */
export class ClientMiddlewareChain {
  private readonly middlewares: ClientMiddleware[] = [];
  /** The composed chain; `undefined` while none is installed (the plain path). */
  private pipeline: ((ctx: ClientMiddlewareContext) => Promise<unknown>) | undefined;

  constructor(
    private readonly sender: ClientSender,
    private readonly handlers: HandlerRegistry<unknown>,
    private readonly answer: ChainAnswer,
  ) {}

  /** True once a middleware is installed: messages then go through the chain. */
  get installed(): boolean {
    return this.pipeline !== undefined;
  }

  /** Adds `middleware` last and composes the chain again. */
  use(middleware: ClientMiddleware): void {
    if (typeof middleware !== 'function') throw new TypeError('client.use() needs a middleware function');
    this.middlewares.push(middleware);
    this.pipeline = composeMiddleware(this.middlewares.slice(), (ctx) => this.end(ctx));
  }

  /** A request the client sends, through the chain. */
  send<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
    version: ClientProtocolVersion | undefined,
  ): Promise<R> {
    const ctx = new ClientMiddlewareContext('send', method, params, false, version, undefined, options);
    return this.pipeline!(ctx) as Promise<R>;
  }

  /** A notification the client sends, through the chain. */
  notify(
    method: string,
    params: Record<string, unknown> | undefined,
    version: ClientProtocolVersion | undefined,
  ): Promise<void> {
    const ctx = new ClientMiddlewareContext('send', method, params, true, version);
    return this.pipeline!(ctx).then(() => undefined);
  }

  /** A request of the server, through the chain to its handler. */
  receive(request: IncomingRequest, version: ClientProtocolVersion | undefined): Promise<unknown> {
    const ctx = new ClientMiddlewareContext(
      'receive',
      request.method,
      request.params,
      false,
      version,
      request,
    );
    return this.pipeline!(ctx);
  }

  /** A notification of the server, through the chain to its listeners. */
  deliver(
    method: string,
    params: Record<string, unknown> | undefined,
    version: ClientProtocolVersion | undefined,
  ): Promise<unknown> {
    return this.pipeline!(new ClientMiddlewareContext('receive', method, params, true, version));
  }

  /** The end of the chain: send the message, or answer / deliver the received one. */
  private end(ctx: ClientMiddlewareContext): unknown {
    if (ctx.direction === 'send') {
      return ctx.isNotification
        ? this.sender.notify(ctx.method, ctx.outgoingParams)
        : this.sender.request(ctx.method, ctx.outgoingParams, ctx.options);
    }
    if (ctx.isNotification) return this.handlers.runListeners(ctx.method, ctx.params);
    return this.answer(ctx.method, ctx.params, ctx.request!);
  }
}
