/**
 * The open sessions of one Streamable HTTP handler, and who may open another.
 *
 * Sessions are capped, but a full table must not lock everyone out (a forgetful client or an
 * attacker can fill it): a newcomer takes the place of the least recently active *idle* session,
 * one with no stream open and nothing in flight, which its client can replace by initializing
 * again. Only when every session is busy is a newcomer refused. An optional quota per client (by
 * principal when the request is authenticated, else by the socket's address) keeps one client from
 * taking the whole table, and a session whose client never finished the handshake expires early.
 * @module
 */
import type { HttpSessionTransport } from '../delivery/transport.js';

/** The limits a table enforces; `Infinity` turns one off. */
export interface SessionLimits {
  readonly maxSessions: number;
  /** Sessions one client may hold at once. */
  readonly maxPerClient: number;
  /** A session with no request, no stream and no traffic for this long (ms) ends. */
  readonly idleTimeout: number;
  /** A session whose client has not sent `notifications/initialized` this long (ms) after it began ends. */
  readonly handshakeTimeout: number;
}

/** Why a new session could not be admitted. */
export type Refusal = 'busy' | 'quota';

export class SessionTable {
  private readonly byId = new Map<string, HttpSessionTransport>();
  /** Sessions per client key, counted from admission (so concurrent handshakes count too). */
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly limits: SessionLimits,
    /** Ends a session (through its engine session, so the server sees it end). */
    private readonly end: (transport: HttpSessionTransport) => void,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  get(sessionId: string): HttpSessionTransport | undefined {
    return this.byId.get(sessionId);
  }

  has(sessionId: string): boolean {
    return this.byId.has(sessionId);
  }

  values(): IterableIterator<HttpSessionTransport> {
    return this.byId.values();
  }

  /**
   * Makes room for a new session of client `key`, evicting an idle session when a limit is
   * reached. On success the client's count is reserved (released when the transport ends).
   */
  admit(transport: HttpSessionTransport, key: string | undefined): Refusal | undefined {
    if (key !== undefined && this.limits.maxPerClient !== Number.POSITIVE_INFINITY) {
      if ((this.perClient.get(key) ?? 0) >= this.limits.maxPerClient && !this.evictIdle(key)) return 'quota';
    }
    if (this.byId.size >= this.limits.maxSessions && !this.evictIdle(undefined)) return 'busy';
    if (key !== undefined && this.limits.maxPerClient !== Number.POSITIVE_INFINITY) {
      transport.clientKey = key;
      this.perClient.set(key, (this.perClient.get(key) ?? 0) + 1);
    }
    return undefined;
  }

  /** The session answered `initialize`: it becomes reachable by its id. */
  add(transport: HttpSessionTransport): void {
    this.byId.set(transport.sessionId!, transport);
  }

  /** A session transport closed (whether or not it was ever added). */
  remove(transport: HttpSessionTransport): void {
    const id = transport.sessionId;
    if (id !== undefined && this.byId.get(id) === transport) this.byId.delete(id);
    const key = transport.clientKey;
    if (key === undefined) return;
    transport.clientKey = undefined;
    const count = (this.perClient.get(key) ?? 1) - 1;
    if (count <= 0) this.perClient.delete(key);
    else this.perClient.set(key, count);
  }

  /** Ends sessions idle for too long, and those whose handshake never completed in time. */
  sweep(now: number): void {
    const { idleTimeout, handshakeTimeout } = this.limits;
    for (const transport of this.byId.values()) {
      if (transport.busy) continue;
      const idleFor = now - transport.lastActivity;
      const halfOpen = !transport.handshakeDone && now - transport.createdAt >= handshakeTimeout;
      if (idleFor >= idleTimeout || halfOpen) this.evict(transport);
    }
  }

  /** Whether the table needs a periodic sweep at all. */
  get expires(): boolean {
    return (
      this.limits.idleTimeout !== Number.POSITIVE_INFINITY ||
      this.limits.handshakeTimeout !== Number.POSITIVE_INFINITY
    );
  }

  /**
   * Ends the least recently active idle session (of client `key`, or of anyone). A scan, but only
   * when a limit is reached: the request path pays nothing for the ordering.
   */
  private evictIdle(key: string | undefined): boolean {
    let oldest: HttpSessionTransport | undefined;
    for (const transport of this.byId.values()) {
      if (key !== undefined && transport.clientKey !== key) continue;
      if (!transport.idle) continue;
      if (!oldest || transport.lastActivity < oldest.lastActivity) oldest = transport;
    }
    if (!oldest) return false;
    this.evict(oldest);
    return true;
  }

  private evict(transport: HttpSessionTransport): void {
    this.remove(transport);
    this.end(transport);
  }
}
