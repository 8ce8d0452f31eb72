/**
 * The handlers of request and notification methods a server's method table holds (typed by method
 * for the specification's methods, untyped for extensions). `handlers.ts` beside the kernel
 * re-exports them with the server's options.
 * @module
 */
import type {
  ClientNotificationMap,
  ClientNotificationMethod,
  ClientRequestMap,
  ClientRequestMethod,
  MethodHandlerOf,
} from '@mcpkit/core';
import type { RequestContext } from './context.js';
import type { ServerSession } from './session.js';

/**
 * Answers one request method. Return the result object (or a promise of it). Throw an
 * `McpError` to answer with a specific JSON-RPC error.
 */
export type RequestHandler = (params: Record<string, unknown>, context: RequestContext) => unknown;

/** Receives one notification method from a client. */
export type NotificationHandler = (params: Record<string, unknown>, session: ServerSession) => void;

/**
 * Answers request method `M` sent by clients, with params and result typed by the method. Params
 * come off the wire unchecked: the type says what the specification promises, not what a peer sent.
 *
 * @example
 * ```ts
 * const listTools: MethodHandler<'tools/list'> = (params) => ({ tools: [] });
 * ```
 */
export type MethodHandler<M extends ClientRequestMethod> = MethodHandlerOf<
  ClientRequestMap[M],
  RequestContext
>;

/**
 * Receives notification method `M` sent by clients, with params typed by the method.
 *
 * @example
 * ```ts
 * const onProgress: MethodNotificationHandler<'notifications/progress'> = (params) => params.progress;
 * ```
 */
export type MethodNotificationHandler<M extends ClientNotificationMethod> = (
  params: NonNullable<ClientNotificationMap[M]>,
  session: ServerSession,
) => void;
