/**
 * The request scope: what a handler may know about the client that sent a request, the same in
 * both eras. Under 2025 revisions a long-lived session supplies it (the scope is a view of the
 * session); under 2026-07-28 the request's own `_meta` envelope does, and nothing is stored (the
 * codec builds that scope as it decodes the request: `decodeModernRequest` in `@mcpkit/core`).
 * See docs/2026-07-28.md §4.
 * @module
 */
import type { AuthInfo, ClientCapabilities, Implementation, LoggingLevel, Revision } from '@mcpkit/core';

/**
 * Who sent a request and under which revision. Handlers read it as `ctx.scope`.
 *
 * @example
 * ```ts
 * server.tool('who', { description: 'Says who is asking' }, (_args, ctx) =>
 *   `${ctx.scope.clientInfo?.name ?? 'someone'} on ${ctx.scope.revision}`,
 * );
 * ```
 */
export interface RequestScope {
  readonly revision: Revision;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** The least severe log level the client wants; for 2026-07-28, absent means no logs at all. */
  readonly logLevel: LoggingLevel | undefined;
  /** Who the authorization layer says sent the request. */
  readonly principal: AuthInfo | undefined;
  /** The session id, under 2025 revisions over Streamable HTTP only. */
  readonly sessionId: string | undefined;
}

/** What a 2025-era session's scope reads of it (a `ScopedSession` is one). */
interface ScopedSession {
  readonly protocolVersion: Revision;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly id: string | undefined;
}

/** The scope of a request on a 2025-era session: read through to the session, never copied. */
class SessionScope implements RequestScope {
  readonly #session: ScopedSession;
  constructor(
    session: ScopedSession,
    readonly principal: AuthInfo | undefined,
  ) {
    this.#session = session;
  }
  get revision(): Revision {
    return this.#session.protocolVersion;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.#session.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.#session.clientInfo;
  }
  get logLevel(): LoggingLevel | undefined {
    return this.#session.logLevel;
  }
  get sessionId(): string | undefined {
    return this.#session.id;
  }
}

/**
 * The scope of a request on a 2025-era session.
 *
 * @example
 * ```ts
 * declare const session: ServerSession;
 * sessionScope(session, undefined).revision; // session.protocolVersion
 * ```
 */
export function sessionScope(session: ScopedSession, principal: AuthInfo | undefined): RequestScope {
  return new SessionScope(session, principal);
}
