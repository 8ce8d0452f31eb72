/**
 * The client's handlers of what the server sends: one handler per request method, any number of
 * listeners per notification method.
 * @module
 */
import {
  Method,
  type MethodHandlerOf,
  type ServerNotificationMap,
  type ServerNotificationMethod,
  type ServerRequestMap,
  type ServerRequestMethod,
} from '@mcpkit/core';
import { addListener, toError } from '@mcpkit/core/internal';
import type { ClientRequestContext } from './context.js';

/** Answers one request the server sends; `ctx` carries its signal, progress and notifications. */
export type ClientRequestHandler = (params: Record<string, unknown>, ctx: ClientRequestContext) => unknown;

/** Receives one notification the server sends. */
export type ClientNotificationHandler = (params: Record<string, unknown>) => void;

/**
 * Answers request method `M` sent by servers, with params and result typed by the method. Params
 * come off the wire unchecked: the type says what the specification promises.
 *
 * @example
 * ```ts
 * const roots: ClientMethodHandler<'roots/list'> = () => ({ roots: [{ uri: 'file:///work' }] });
 * ```
 */
export type ClientMethodHandler<M extends ServerRequestMethod> = MethodHandlerOf<
  ServerRequestMap[M],
  ClientRequestContext
>;

/**
 * Receives notification method `M` sent by servers, with params typed by the method.
 *
 * @example
 * ```ts
 * const onLog: ClientMethodNotificationHandler<'notifications/message'> = (params) => console.error(params.data);
 * ```
 */
export type ClientMethodNotificationHandler<M extends ServerNotificationMethod> = (
  params: NonNullable<ServerNotificationMap[M]>,
) => void;

/**
 * The handlers a client was given. Listener errors go to `onError`, given once here so that
 * delivering a notification makes no closure.
 */
export class HandlerRegistry {
  private readonly requests = new Map<string, ClientRequestHandler>();
  private readonly notifications = new Map<string, Set<ClientNotificationHandler>>();

  constructor(private readonly onError: (error: Error) => void) {}

  /** Sets the handler of request `method`; `ping` is the client's own. */
  setRequestHandler(method: string, handler: ClientRequestHandler): void {
    if (method === Method.Ping) {
      throw new TypeError('"ping" is answered by the client itself and cannot be overridden');
    }
    this.requests.set(method, handler);
  }

  /** True when a handler answers request `method`. */
  has(method: string): boolean {
    return this.requests.has(method);
  }

  /** The handler of request `method` (the caller checked {@link has}). */
  get(method: string): ClientRequestHandler {
    return this.requests.get(method)!;
  }

  /** Adds a listener of notification `method`; returns its unsubscribe function. */
  addListener(method: string, listener: ClientNotificationHandler): () => void {
    return addListener(this.notifications, method, listener);
  }

  /** Calls every listener of `method`; one that throws is reported and the others still run. */
  runListeners(method: string, params: Record<string, unknown>): void {
    const listeners = this.notifications.get(method);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(params);
      } catch (error) {
        this.onError(toError(error));
      }
    }
  }
}
