/**
 * How a {@link Client} receives: the server's requests and notifications, through the middleware
 * chain while one is installed and straight to the handlers otherwise, and the problems no caller
 * can be told about (handed to the observer and `onError`). These are the routes the client's
 * connection is handed (`ConnectionRoutes`).
 * @module
 */
import { ErrorCode, type IncomingRequest, McpError, Method } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import type { ClientOptions } from './clientOptions.js';
import type { HandlerRegistry } from './handlers.js';
import type { ChainAnswer, ClientMiddlewareChain } from './middleware/chain.js';
import type { ConnectionRoutes } from './ports.js';
import type { ClientSession } from './session.js';

/**
 * The receiving side of one client; made once per client, so receiving makes no closure.
 *
 * @example
 * ```ts
 * const receiver = new ClientReceiver(session, options, handlers, chain, answer);
 * const connector = new ClientConnector(session, client, receiver, sender);
 * ```
 */
export class ClientReceiver implements ConnectionRoutes {
  // #private, not `private`: the minifier shortens these names (the client's bundle budget).
  readonly #session: ClientSession;
  readonly #options: ClientOptions;
  readonly #handlers: HandlerRegistry<unknown>;
  readonly #chain: ClientMiddlewareChain;
  /** Answers a request of the server past the chain: its handler, with its context. */
  readonly #answer: ChainAnswer;

  constructor(
    session: ClientSession,
    options: ClientOptions,
    handlers: HandlerRegistry<unknown>,
    chain: ClientMiddlewareChain,
    answer: ChainAnswer,
  ) {
    this.#session = session;
    this.#options = options;
    this.#handlers = handlers;
    this.#chain = chain;
    this.#answer = answer;
  }

  // Functions, not methods: the connection is handed them as they are (see `ConnectionRoutes`).

  /** A request of the server: through the chain while one is installed, else to its handler. */
  readonly request = (request: IncomingRequest): unknown => {
    const method = request.method;
    if (method !== Method.Ping && !this.#handlers.has(method)) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    if (this.#chain.installed) return this.#chain.receive(request, this.#session.protocolVersion);
    return this.#answer(method, request.params ?? {}, request);
  };

  /** A notification of the server: through the chain while one is installed, else to its listeners. */
  readonly notification = (method: string, params: Record<string, unknown> | undefined): void => {
    if (this.#chain.installed) {
      this.#chain
        .deliver(method, params, this.#session.protocolVersion)
        .catch((error: unknown) => this.error(toError(error)));
      return;
    }
    this.#handlers.runListeners(method, params ?? {});
  };

  /** Hands a problem no caller can be told about to the observer and `onError`. */
  readonly error = (error: Error): void => {
    try {
      this.#options.observer?.error?.(error, this.#session.observation);
    } catch {
      // An observer that throws must not take the client down.
    }
    try {
      this.#options.onError?.(error);
    } catch {
      // A logging hook that throws must not take the client down.
    }
  };
}
