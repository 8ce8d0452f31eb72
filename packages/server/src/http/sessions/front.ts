/**
 * The session front of the Streamable HTTP handler: everything a 2025 request with a session goes
 * through before dispatch, and nothing else. It creates sessions (`initialize`, within the table's
 * limits), finds them by `Mcp-Session-Id` (bound to their owner, checked against
 * `MCP-Protocol-Version`), restores them from a shared {@link SessionStore} when another node made
 * them, expires idle ones and deletes them. The store seam (`SharedSessions`, brought by the
 * store's own code, filled by `@mcpkit/redis`) is only built when a store is configured.
 * 2026-07-28 requests and stateless mode never come here.
 * @module
 */
import { isSupportedProtocolVersion, type MessageExtra } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import { clientKeyOf, mayUseSession, principalOf } from '../../kernel/principal.js';
import type { Server } from '../../server.js';
import { acceptsBatches, type BodySummary } from '../classify.js';
import { type ExchangeOptions, type HttpRuntime, HttpSessionTransport } from '../delivery/transport.js';
import type { HttpRequestExtra } from '../fetchHandler.js';
import type { RawHttpRequest } from '../rawHttp.js';
import { emptyReply, PROTOCOL_VERSION_HEADER, Refuse, Reply } from '../responses.js';
import type { SharedRefusal, SharedSessions } from './shared.js';
import type { SessionStore } from './store.js';
import { SHARED_SESSIONS } from './storeErrors.js';
import { type SessionLimits, SessionTable } from './table.js';

/** What the front is built from (the handler's options, resolved). */
export interface SessionFrontOptions {
  readonly limits: SessionLimits;
  readonly sessionStore: SessionStore | undefined;
  /** Makes session ids (unguessable visible ASCII, at most 128 characters). */
  readonly newSessionId: () => string;
  /** Refuse an `MCP-Protocol-Version` other than the negotiated one. */
  readonly strictVersion: boolean;
}

/** A session found, or the refusal to answer with (sometimes only known once the store answered). */
export type Found = HttpSessionTransport | Reply | Promise<HttpSessionTransport | Reply>;

/**
 * The sessions of one handler. Built by the handler; not meant to be used by applications.
 *
 * @example
 * ```ts
 * declare const front: SessionFront;
 * declare const request: RawHttpRequest;
 * const found = await front.find('3f2a…', request, undefined);
 * if (found instanceof Reply) return found; // 404, 400 or 503
 * ```
 */
export class SessionFront {
  private readonly table: SessionTable;
  /** Only with a session store. */
  private readonly shared: SharedSessions | undefined;
  /** A request of a session was answered: its record is saved (only with a session store). */
  readonly answered: ((transport: HttpSessionTransport) => void) | undefined;

  constructor(
    private readonly server: Server,
    private readonly runtime: HttpRuntime,
    private readonly options: SessionFrontOptions,
  ) {
    this.table = new SessionTable(options.limits, (transport) => {
      // With a store, expiry here only frees this process's copy; the record expires on its own.
      transport.localOnly = this.shared !== undefined;
      void this.close(transport);
    });
    const store = options.sessionStore;
    if (!store) return;
    // The store brings the code that uses it: single-node bundles do not carry it.
    // Typed by shape in the store contract (which must not import the logic): it is this class.
    const Shared = store[SHARED_SESSIONS] as typeof SharedSessions | undefined;
    if (!Shared) throw new TypeError('sessionStore must extend SessionStoreBase from @mcpkit/server/cluster');
    const idle = options.limits.idleTimeout;
    const shared = new Shared(
      store,
      idle === Number.POSITIVE_INFINITY ? undefined : idle,
      this.table,
      server,
      runtime,
    );
    this.shared = shared;
    this.answered = (transport) => {
      shared.save(transport).catch((error: unknown) => runtime.report(toError(error)));
    };
  }

  /** Sessions this process holds. */
  get size(): number {
    return this.table.size;
  }

  /** Whether idle or half-open sessions expire, so the housekeeping timer must sweep. */
  get expires(): boolean {
    return this.table.expires;
  }

  /**
   * Opens a session for an `initialize` POST: admits it within the limits, binds it to the
   * caller's principal and delivers the body. The answer goes out once a shared record is saved.
   */
  open(
    request: RawHttpRequest,
    summary: BodySummary,
    extra: MessageExtra,
    exchange: ExchangeOptions,
  ): Reply | Promise<Reply> {
    const sessionId = this.options.newSessionId();
    if (!isVisibleAscii(sessionId, 128) || this.table.has(sessionId)) {
      this.runtime.report(new Error('sessionIdGenerator returned an invalid or duplicate session id'));
      return Refuse.internal();
    }
    const transport = new HttpSessionTransport(this.runtime, sessionId, false);
    const refused = this.table.admit(transport, clientKeyOf(extra.authInfo, request.remoteAddress));
    if (refused === 'quota') return Refuse.tooManyClientSessions(summary.ids[0]);
    if (refused === 'busy') return Refuse.tooManySessions(summary.ids[0]);
    transport.principal = principalOf(extra.authInfo);
    this.shared?.track(transport);
    transport.session = this.server.connect(transport);
    const response = transport.handlePost(summary.ids, exchange, summary.body, extra);
    return this.shared ? this.savedFirst(transport, response) : response;
  }

  /** The answer to `initialize` goes out once the session's record is saved: any node knows it then. */
  private async savedFirst(transport: HttpSessionTransport, response: Promise<Reply>): Promise<Reply> {
    const reply = await response;
    if (transport.closed || transport.protocolVersion === undefined) return reply;
    try {
      await this.shared!.save(transport);
    } catch (error) {
      void this.close(transport);
      throw error;
    }
    return reply;
  }

  /**
   * The live session `sessionId` names, checked against the caller and `MCP-Protocol-Version`, and
   * marked active. A session bound to a principal answers only to that principal. With a session
   * store, the store has the last word (and restores sessions this process does not hold).
   */
  find(sessionId: string, request: RawHttpRequest, extra: HttpRequestExtra | undefined): Found {
    if (this.shared) {
      return this.shared
        .find(sessionId, extra?.authInfo, request.remoteAddress)
        .then((found) => this.admitted(sharedReply(found), request));
    }
    const transport = this.table.get(sessionId);
    if (!transport || transport.closed || !mayUseSession(transport.principal, extra?.authInfo))
      return Refuse.unknownSession();
    return this.admitted(transport, request);
  }

  private admitted(
    found: HttpSessionTransport | Reply,
    request: RawHttpRequest,
  ): HttpSessionTransport | Reply {
    if (found instanceof Reply) return found;
    const versionProblem = this.checkVersion(request, found);
    if (versionProblem) return versionProblem;
    found.lastActivity = Date.now();
    return found;
  }

  /**
   * `MCP-Protocol-Version` on requests after `initialize`. Absent: the spec says assume
   * 2025-03-26, and the session already knows its revision, so nothing to check.
   */
  private checkVersion(request: RawHttpRequest, transport: HttpSessionTransport): Reply | undefined {
    const header = request.header(PROTOCOL_VERSION_HEADER);
    if (header === null) return undefined;
    if (!isSupportedProtocolVersion(header)) return Refuse.badProtocolVersion(header);
    const negotiated = transport.protocolVersion;
    if (this.options.strictVersion && negotiated !== undefined && header !== negotiated) {
      return Refuse.mismatchedProtocolVersion(negotiated);
    }
    return undefined;
  }

  /**
   * A 2025 POST on a session {@link find} returned: the session's own checks (batches under its
   * revision, ids still in flight, the end of the handshake), then delivery. Notifications and
   * responses are delivered at once and answered 202 (answers routed through a session store wait
   * for it); requests go on an exchange that answers this POST.
   */
  post(
    transport: HttpSessionTransport,
    summary: BodySummary,
    extra: MessageExtra,
    exchange: ExchangeOptions,
  ): Reply | Promise<Reply> {
    if (summary.initialized) transport.handshakeDone = true;
    const batch = summary.body.batch;
    if (batch && !acceptsBatches(transport.protocolVersion)) {
      return Refuse.invalid('JSON-RPC batches are not supported by the negotiated protocol version');
    }
    for (const id of summary.ids) {
      if (transport.hasExchange(id)) {
        return Refuse.invalid(
          `id ${JSON.stringify(id)} is already in use by a request in flight`,
          batch ? undefined : id,
        );
      }
    }
    if (summary.ids.length === 0) {
      if (this.shared && summary.responses) {
        return this.shared.answer(transport, summary.body, extra).then(() => accepted(transport, summary));
      }
      transport.deliver(summary.body, extra);
      return accepted(transport, summary);
    }
    const response = transport.handlePost(summary.ids, exchange, summary.body, extra);
    if (summary.cancels) transport.clientCancelled(summary.cancels);
    return response;
  }

  /** DELETE: the session ends on every node (its shared record goes first). */
  async delete(transport: HttpSessionTransport): Promise<void> {
    if (this.shared) await this.shared.delete(transport);
    await this.close(transport);
  }

  /** A session answered `initialize` (or was restored): it becomes reachable by its id. */
  ready(transport: HttpSessionTransport): void {
    if (this.shared) transport.ensurePrefix();
    this.table.add(transport);
  }

  /** A session transport closed. */
  ended(transport: HttpSessionTransport): void {
    this.table.remove(transport);
  }

  /** The housekeeping tick: idle and half-open sessions end, shared records of busy ones stay alive. */
  sweep(now: number): void {
    if (this.table.expires) this.table.sweep(now);
    this.shared?.touchBusy();
  }

  /** Whether `error` means the session store is down (the request gets 503). */
  isUnavailable(error: unknown): boolean {
    return this.shared?.isUnavailable(error) ?? false;
  }

  /** Ends every session of this process. A process leaving a cluster takes its copies down, not the sessions. */
  async closeAll(): Promise<void> {
    if (this.shared) for (const transport of this.table.values()) transport.localOnly = true;
    await Promise.allSettled([...this.table.values()].map((transport) => this.close(transport)));
  }

  private async close(transport: HttpSessionTransport): Promise<void> {
    try {
      if (transport.session) await transport.session.close();
      else await transport.close();
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }
}

function sharedReply(found: HttpSessionTransport | SharedRefusal): HttpSessionTransport | Reply {
  if (found === 'unknown') return Refuse.unknownSession();
  if (found === 'quota') return Refuse.tooManyClientSessions();
  if (found === 'busy') return Refuse.tooManySessions();
  return found;
}

/**
 * Whether `value` is 1 to `maxLength` visible ASCII characters (session ids, event ids).
 *
 * @example
 * ```ts
 * isVisibleAscii('3f2a-9c', 128); // true
 * ```
 */
export function isVisibleAscii(value: string, maxLength: number): boolean {
  if (value.length === 0 || value.length > maxLength) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/** Notifications and responses were delivered: the cancellations among them apply, and 202. */
function accepted(transport: HttpSessionTransport, summary: BodySummary): Reply {
  if (summary.cancels) transport.clientCancelled(summary.cancels);
  return emptyReply(202);
}
