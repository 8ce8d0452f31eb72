/**
 * The middleware chains as a plug-in: the receiving chain (`server.use`) fills the kernel's
 * receiving slot and the sending chain (`server.useSending`) its sending seam. One object per
 * server, made on the first `use`/`useSending`; a server without middleware never makes it, and
 * its dispatch and sends take the kernel's plain paths.
 * @module
 */
import { composeMiddleware, composeMiddlewareSync, type MessageExtra, Method } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import type { RequestHandler } from '../kernel/handlers.js';
import type { Receiving, Sending } from '../kernel/ports.js';
import type { ServerSession } from '../kernel/session.js';
import { type ServerMiddleware, ServerMiddlewareContext, TOOL_VISIBILITY } from './context.js';
import { onMethod } from './method.js';
import { deliver } from './sending.js';

type ToolVisibility = (name: string, ctx: ServerMiddlewareContext) => boolean;

/**
 * What the chains need of their server: the handler at the end of the receiving chain, the
 * listeners at the end of a notification's, and where a failed notification chain is reported.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const table: ChainEnds = server; // a Server is one
 * ```
 */
export interface ChainEnds {
  requestHandler(method: string): RequestHandler | undefined;
  runListeners(method: string, params: Record<string, unknown>, session: ServerSession): void;
  reportError(error: Error, session?: ServerSession): void;
}

/**
 * A server's receiving and sending middleware, composed once per change.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const chains = new MiddlewareChains(server);
 * chains.use(async (ctx, next) => next());
 * server.receiving = chains;
 * ```
 */
export class MiddlewareChains implements Receiving {
  readonly #ends: ChainEnds;
  readonly #receiving: ServerMiddleware[] = [];
  readonly #sending: ServerMiddleware[] = [];
  /** The predicates of `hideTools` middlewares, consulted when a `tools/call` is routed. */
  readonly #toolVisibility: ToolVisibility[] = [];
  /** The composed receiving chain; answers without a promise when every layer passes a synchronous answer through. */
  #pipeline: ((ctx: ServerMiddlewareContext) => unknown) | undefined;
  #sendPipeline: ((ctx: ServerMiddlewareContext) => Promise<unknown>) | undefined;

  constructor(ends: ChainEnds) {
    this.#ends = ends;
  }

  /**
   * `server.use(middleware)` or `server.use(method, middleware)`: checks what it was given, narrows
   * it to its method, adds it, and returns the chains for the server's receiving slot.
   *
   * @throws {TypeError} when no middleware function was given.
   */
  install(first: string | ServerMiddleware, second: unknown): this {
    const given = typeof first === 'string' ? second : first;
    if (typeof given !== 'function') throw new TypeError('server.use() needs a middleware function');
    this.use(typeof first === 'string' ? onMethod(first, given as ServerMiddleware) : first);
    return this;
  }

  /**
   * `server.useSending(middleware)`: checks it, adds it, and returns the function the server's
   * sending seam holds.
   *
   * @throws {TypeError} when `middleware` is not a function.
   */
  installSending(middleware: ServerMiddleware): Sending {
    if (typeof middleware !== 'function')
      throw new TypeError('server.useSending() needs a middleware function');
    this.useSending(middleware);
    return this.send;
  }

  /** Adds a receiving middleware (already narrowed to its method, if any). */
  use(middleware: ServerMiddleware): void {
    const visibility = (middleware as { [TOOL_VISIBILITY]?: ToolVisibility })[TOOL_VISIBILITY];
    if (visibility) this.#toolVisibility.push(visibility);
    this.#receiving.push(middleware);
    this.#pipeline = composeMiddlewareSync(this.#receiving.slice(), (ctx) => this.#handle(ctx));
  }

  /** Adds a sending middleware. */
  useSending(middleware: ServerMiddleware): void {
    this.#sending.push(middleware);
    this.#sendPipeline = composeMiddleware(this.#sending.slice(), deliver);
  }

  request(method: string, params: Record<string, unknown>, context: RequestContext): unknown {
    return this.#pipeline!(new ServerMiddlewareContext(method, params, context.session, context));
  }

  notification(
    method: string,
    params: Record<string, unknown>,
    session: ServerSession,
    extra: MessageExtra | undefined,
  ): void {
    const ctx = new ServerMiddlewareContext(method, params, session, undefined, extra);
    Promise.resolve(this.#pipeline!(ctx)).catch((error: unknown) =>
      this.#ends.reportError(toError(error), session),
    );
  }

  /** The sending seam this plug-in fills: a message through the sending chain, which ends in the plain path. */
  readonly send: Sending = (session, method, params, notification, request, options, relatedRequestId) => {
    const outgoing = { options, relatedRequestId, notification, noParams: params === undefined };
    const ctx = new ServerMiddlewareContext(method, params ?? {}, session, request, undefined, outgoing);
    return this.#sendPipeline!(ctx);
  };

  /**
   * Runs the receiving chain around `end`, for a handler that places the chain itself
   * (`tools/call`: after routing and argument validation, before output validation).
   */
  run(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    end: (ctx: ServerMiddlewareContext) => unknown,
  ): unknown {
    const ctx = new ServerMiddlewareContext(method, params, context.session, context);
    ctx.end = end;
    return this.#pipeline!(ctx);
  }

  /** True when a `hideTools` middleware hides tool `name` from the session of `context`. */
  hidesTool(name: string, params: Record<string, unknown>, context: RequestContext): boolean {
    if (this.#toolVisibility.length === 0) return false;
    const ctx = new ServerMiddlewareContext(Method.ToolsCall, params, context.session, context);
    return this.#toolVisibility.some((visible) => !visible(name, ctx));
  }

  /** The end of the receiving chain: the method's handler, or a notification's listeners. */
  #handle(ctx: ServerMiddlewareContext): unknown {
    if (ctx.end) return ctx.end(ctx);
    if (!ctx.request) {
      this.#ends.runListeners(ctx.method, ctx.params, ctx.session);
      return undefined;
    }
    return this.#ends.requestHandler(ctx.method)!(ctx.params, ctx.request);
  }
}
