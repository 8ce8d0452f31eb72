/**
 * The sessions one server serves: the live list, the listeners of their opening and closing, and
 * a broadcast's walk over them. A part of `Server` (composed, not inherited), so the composition
 * root stays about composing.
 * @module
 */
import type { AuthInfo, Implementation, ProtocolVersion } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import { type BroadcastScope, inScope } from './broadcastScope.js';
import { LiveList } from './kernel/liveList.js';
import type { ServerSession } from './kernel/session.js';

/**
 * Called when a session starts or ends.
 *
 * @example
 * ```ts
 * const listener: SessionListener = (session) => console.error(`${session.clientInfo?.name} connected`);
 * server.onSessionInitialized(listener);
 * ```
 */
export type SessionListener = (session: ServerSession) => void;

/**
 * Information about the client a request came from.
 *
 * @example
 * ```ts
 * declare const session: ServerSession;
 * const info: SessionInfo = { id: session.id, protocolVersion: session.protocolVersion, clientInfo: session.clientInfo, authInfo: undefined };
 * ```
 */
export interface SessionInfo {
  readonly id: string | undefined;
  readonly protocolVersion: ProtocolVersion;
  readonly clientInfo: Implementation | undefined;
  readonly authInfo: AuthInfo | undefined;
}

/**
 * Where the registry reports what a listener or a send threw (the server's `reportError`).
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const reporter: SessionErrorReporter = server;
 * ```
 */
export interface SessionErrorReporter {
  reportError(error: Error, session?: ServerSession): void;
}

/**
 * The live sessions of one server and who listens to their lifecycle.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const sessions = new SessionRegistry(server);
 * const stop = sessions.onClosed((session) => console.error('left', session.id));
 * ```
 */
export class SessionRegistry {
  /** Not a `Set`: a session per stateless request would keep dead ones alive (see kernel/liveList.ts). */
  readonly live = new LiveList<ServerSession>();
  readonly #opened = new Set<SessionListener>();
  readonly #closed = new Set<SessionListener>();
  readonly #reporter: SessionErrorReporter;

  constructor(reporter: SessionErrorReporter) {
    this.#reporter = reporter;
  }

  /** Calls `listener` when a session finishes initializing; returns the function that removes it. */
  onOpened(listener: SessionListener): () => void {
    this.#opened.add(listener);
    return () => this.#opened.delete(listener);
  }

  /** Calls `listener` when a live session closes; returns the function that removes it. */
  onClosed(listener: SessionListener): () => void {
    this.#closed.add(listener);
    return () => this.#closed.delete(listener);
  }

  /** A session finished its handshake: its listeners run (one that throws is reported). */
  opened(session: ServerSession): void {
    for (const listener of this.#opened) this.#safely(listener, session);
  }

  /** A session closed: it leaves the live list, and its listeners run once. */
  closed(session: ServerSession): void {
    if (!this.live.delete(session)) return;
    for (const listener of this.#closed) this.#safely(listener, session);
  }

  /** Sends a notification to every initialized live session that `filter` (else `scope`) accepts. */
  notifyAll(
    method: string,
    params: Record<string, unknown> | undefined,
    filter: ((session: ServerSession) => boolean) | undefined,
    scope: BroadcastScope | undefined,
  ): void {
    for (const session of this.live) {
      if (!session.initialized) continue;
      if (filter ? !filter(session) : scope && !inScope(session, scope)) continue;
      try {
        const sent = session.notify(method, params);
        if (sent) sent.catch((error: unknown) => this.#reporter.reportError(toError(error), session));
      } catch (error) {
        this.#reporter.reportError(toError(error), session);
      }
    }
  }

  #safely(listener: SessionListener, session: ServerSession): void {
    try {
      listener(session);
    } catch (error) {
      this.#reporter.reportError(toError(error), session);
    }
  }
}
