/**
 * What a {@link ServerSession} hands its connection: the handler and the options in one small
 * object whose methods live on the prototype. An object literal of arrow functions cost every
 * session six closures, two objects and their context (about 0.45 KB), which thousands of idle
 * Streamable HTTP sessions each carried.
 * @module
 */
import type {
  ConnectionHandler,
  ConnectionOptions,
  IncomingRequest,
  MessageExtra,
  Observer,
  SessionObservation,
} from '@mcpkit/core';
import type { RevisionCodec } from '@mcpkit/core/internal';
import { encodeOutgoingNotification } from '@mcpkit/core/internal';

/** What a link routes to (a `ServerSession` is one). */
interface LinkedSession {
  readonly server: {
    readonly options: { readonly requestTimeout?: number; readonly maxTotalTimeout?: number };
    reportError(error: Error, session?: never): void;
  };
  readonly codecInUse: RevisionCodec;
  handleRequest(request: IncomingRequest): unknown;
  handleNotification(method: string, params: Record<string, unknown> | undefined, extra?: MessageExtra): void;
  handleClose(): void;
}

/**
 * Routes a connection's calls to its session; the connection calls these as methods of this
 * object (never detached).
 *
 * @example
 * ```ts
 * const link = new SessionLink(session, server.options.observer, session.observation);
 * const connection = new Connection(transport, link, link);
 * ```
 */
export class SessionLink implements ConnectionHandler, ConnectionOptions {
  readonly requestTimeout: number | undefined;
  readonly maxTotalTimeout: number | undefined;

  constructor(
    private readonly session: LinkedSession,
    readonly observer: Observer | undefined,
    readonly observedSession: SessionObservation | undefined,
  ) {
    const options = session.server.options;
    this.requestTimeout = options.requestTimeout;
    this.maxTotalTimeout = options.maxTotalTimeout;
  }

  onRequest(request: IncomingRequest): unknown {
    return this.session.handleRequest(request);
  }

  onNotification(method: string, params: Record<string, unknown> | undefined, extra?: MessageExtra): void {
    this.session.handleNotification(method, params, extra);
  }

  onClose(): void {
    this.session.handleClose();
  }

  onError(error: Error): void {
    this.session.server.reportError(error, this.session as never);
  }

  acceptBatches(): boolean {
    return this.session.codecInUse.acceptsBatches;
  }

  encodeNotification(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
    return encodeOutgoingNotification(this.session.codecInUse, method, params);
  }
}
