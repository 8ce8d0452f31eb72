/**
 * The kernel's ports: the interfaces its plug-ins implement and the composition root (`server.ts`)
 * fills. What a session needs of its server ({@link SessionServer}); how anything is sent when a
 * sending middleware is installed ({@link Sending}); the receiving middleware's slot
 * ({@link Receiving}); an era that claims a request and serves it ({@link Era}). The kernel knows
 * these shapes only, never what implements them (docs/design/kernel.md).
 * @module
 */
import type {
  Implementation,
  IncomingRequest,
  LoggingLevel,
  MessageExtra,
  Observer,
  OutgoingRequestOptions,
  ProtocolVersion,
  RequestId,
  ServerCapabilities,
} from '@mcpkit/core';
import type { RequestContext } from './context.js';
import type { RequestScope } from './scope.js';
import type { ServerSession } from './session.js';

/**
 * An era a session did not negotiate, served per request (2026-07-28): it claims a request by one
 * cheap check and serves it with a request context of its own. The composition root installs one.
 *
 * @example
 * ```ts
 * const era: Era = {
 *   claims: (request) => request.method === 'server/discover',
 *   serve: () => ({ supportedVersions: [] }),
 *   plug: () => {},
 * };
 * ```
 */
export interface Era {
  /** Whether this era serves `request` (one check: its method or its envelope), whatever the session negotiated. */
  claims(request: IncomingRequest): boolean;
  /** Answers a claimed request that arrived on `session`'s connection (a result, a promise, or a throw). */
  serve(session: ServerSession, request: IncomingRequest): unknown;
  /**
   * Plugs in what a feature does differently for this era's requests, under the feature's own key
   * (the tasks feature plugs the tasks extension here when installed). A handler's context finds it
   * with `ctx.eraPart(key)`; the session's own requests find nothing there.
   */
  plug(key: symbol, part: unknown): void;
}

/**
 * What a request context asks of the era that serves its request (2026-07-28): questions to the
 * client and logs take that era's way (input-required rounds; the envelope's log level). One
 * object per era, handed to each context it makes, so every request's context has one class.
 *
 * @example
 * ```ts
 * declare const scope: RequestScope;
 * const silent: ContextEra = {
 *   requestClient: () => Promise.reject(new Error('no questions in this era')),
 *   sendLog: () => {},
 *   scopeOf: () => scope,
 *   inputResponsesOf: () => undefined,
 *   part: () => undefined,
 * };
 * ```
 */
export interface ContextEra {
  requestClient(
    ctx: RequestContext,
    method: string,
    params: object,
    options: OutgoingRequestOptions | undefined,
  ): Promise<unknown>;
  sendLog(ctx: RequestContext, level: LoggingLevel, data: unknown, logger: string | undefined): void;
  /** The request's scope in this era (2026-07-28: the envelope's revision, capabilities, log level). */
  scopeOf(ctx: RequestContext): RequestScope;
  /** The answers to open questions the request carried, as the era's codec lifted them out of its params. */
  inputResponsesOf(ctx: RequestContext): unknown;
  /** What a feature plugged in for this era under `key` (see {@link Era.plug}). */
  part(key: symbol): unknown;
}

/**
 * A way a request goes to `session`'s client, on behalf of `request` when given (cancelled with
 * it): the entry every request takes (`outbound.ts`'s `sendRequest`) and the plain path the
 * sending seam's chain ends in (`deliverRequest`) take the same.
 *
 * @example
 * ```ts
 * const viaSession: RequestRoute = (session, method, params, options) => session.request(method, params, options);
 * ```
 */
export type RequestRoute = (
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  options: OutgoingRequestOptions | undefined,
  request: RequestContext | undefined,
) => Promise<unknown>;

/**
 * A way a notification goes to `session`'s client, tied to `request` (or to `relatedRequestId`):
 * the entry and the plain path alike (see {@link RequestRoute}).
 *
 * @example
 * ```ts
 * const viaSession: NotificationRoute = (session, method, params, _request, related) => session.notify(method, params, related);
 * ```
 */
export type NotificationRoute = (
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  request: RequestContext | undefined,
  relatedRequestId: RequestId | undefined,
) => void | Promise<void>;

/**
 * The sending seam: every message a session sends goes here when a sending middleware is installed
 * (`server.useSending`), and by the plain path (`outbound.ts`) when not. One function for both
 * kinds, as the chain is one: `notification` says which, and a request's `options` or a
 * notification's `relatedRequestId` comes with it.
 *
 * @example
 * ```ts
 * declare const sending: Sending;
 * await sending(session, 'roots/list', undefined, false, undefined, undefined, undefined);
 * ```
 */
export type Sending = (
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  notification: boolean,
  request: RequestContext | undefined,
  options: OutgoingRequestOptions | undefined,
  relatedRequestId: RequestId | undefined,
) => Promise<unknown>;

/**
 * The receiving middleware's slot: a request or notification runs through the chain instead of
 * straight to its handler or listeners when one is installed (`server.use`).
 *
 * @example
 * ```ts
 * declare const receiving: Receiving;
 * const answer = receiving.request('tools/list', {}, ctx);
 * ```
 */
export interface Receiving {
  /** A request through the chain, which ends in the method's handler. */
  request(method: string, params: Record<string, unknown>, context: RequestContext): unknown;
  /** A notification through the chain, which ends in the method's listeners. */
  notification(
    method: string,
    params: Record<string, unknown>,
    session: ServerSession,
    extra: MessageExtra | undefined,
  ): void;
}

/**
 * What a session needs of its server: the definition it serves (identity, revisions, capabilities,
 * the one dispatch point) and the seams the plug-ins fill. `Server` is the one implementation.
 *
 * @example
 * ```ts
 * declare const session: ServerSession;
 * const server: SessionServer = session.server;
 * server.capabilities.tools; // what the server announces
 * ```
 */
export interface SessionServer {
  readonly info: Implementation;
  readonly options: KernelServerOptions;
  /** The `initialize` revisions this server negotiates, preferred first. */
  readonly protocolVersions: readonly ProtocolVersion[];
  readonly capabilities: ServerCapabilities;
  /** The per-request era; claims requests before the session's own lifecycle applies. */
  readonly era: Era;
  /** The sending seam; `undefined` while no sending middleware is installed (the plain path). */
  readonly sending: Sending | undefined;
  /** The one dispatch point (method table → handler, through the receiving chain if any). */
  dispatch(method: string, params: Record<string, unknown>, context: RequestContext): unknown;
  /** Runs the listeners of a notification a session received. */
  notified(
    method: string,
    params: Record<string, unknown>,
    session: ServerSession,
    extra?: MessageExtra,
  ): void;
  reportError(error: Error, session?: ServerSession): void;
  sessionInitialized(session: ServerSession): void;
  sessionClosed(session: ServerSession): void;
}

/**
 * What the kernel reads of the server's options (`ServerOptions`, documented there, satisfies it).
 *
 * @example
 * ```ts
 * const options: KernelServerOptions = { requestTimeout: 30_000 };
 * ```
 */
export interface KernelServerOptions {
  readonly instructions?: string;
  readonly requestTimeout?: number;
  readonly maxTotalTimeout?: number;
  readonly observer?: Observer;
}
