/**
 * The client's handlers of what the server sends: one handler per request method, any number of
 * listeners per notification method.
 * @module
 */
import { Method } from '@mcpkit/core';
import { addListener, toError } from '@mcpkit/core/internal';

/** Receives one notification the server sends. */
type NotificationListener = (params: Record<string, unknown>) => void;

/**
 * The handlers a client was given. Listener errors go to `onError`, given once here so that
 * delivering a notification makes no closure. Generic in the request handler's type, which names
 * the handler's context (`./context.ts`): the registry only stores handlers, so it needs neither.
 *
 * @example
 * ```ts
 * const handlers = new HandlerRegistry<ClientRequestHandler>((error) => console.error(error));
 * handlers.setRequestHandler('roots/list', () => ({ roots: [] }));
 * ```
 */
export class HandlerRegistry<Handler> {
  private readonly requests = new Map<string, Handler>();
  private readonly notifications = new Map<string, Set<NotificationListener>>();

  constructor(private readonly onError: (error: Error) => void) {}

  /** Sets the handler of request `method`; `ping` is the client's own. */
  setRequestHandler(method: string, handler: Handler): void {
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
  get(method: string): Handler {
    return this.requests.get(method)!;
  }

  /** Adds a listener of notification `method`; returns its unsubscribe function. */
  addListener(method: string, listener: NotificationListener): () => void {
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
