/**
 * What an HTTP session transport keeps apart from routing messages (which `transport.ts` does):
 * who and what the session is (id, owner, quota key, negotiated revision, when it began and was
 * last used, its part in a cluster), kept for the session front; its exchanges and streams, and
 * from them whether a client is connected; its part of the record a session store saves.
 * @module
 */
import type { RequestId } from '@mcpkit/core';
import type { ServerSession } from '../../kernel/session.js';
import type { ServerSessionState, SessionStateHolder } from '../../kernel/sessionState.js';
import type { ClusterSupport } from './clusterSeam.js';
import type { Exchange, LogicalStream } from './exchange.js';
import { type DeliveryRuntime, SessionStreams, type StreamHost } from './streams.js';

/**
 * The state of one HTTP session transport, which `HttpSessionTransport` routes messages over. Not
 * meant to be used by applications.
 *
 * @example
 * ```ts
 * declare const transport: TransportState;
 * if (transport.idle) await transport.session?.close(); // nothing in flight, no stream open
 * ```
 */
export abstract class TransportState<R extends DeliveryRuntime = DeliveryRuntime>
  implements SessionStateHolder, StreamHost
{
  /** The `ServerSession` serving this transport (set by the handler right after connecting). */
  session: ServerSession | undefined;
  /** When the client last sent anything (ms since epoch); idle sessions expire. */
  lastActivity = Date.now();
  /** The principal (see `principalOf`) whose token created the session, to bind it to them. */
  principal: string | undefined;
  /** When the session began (ms since epoch). */
  readonly createdAt = Date.now();
  /** The client sent `notifications/initialized`; until then the session expires early. */
  handshakeDone = false;
  /** The key this session counts under in a per-client quota, when one is enforced. */
  clientKey: string | undefined;
  /**
   * Closing ends this process's copy only: the session lives on in a shared session store, so its
   * events in the shared event store stay for the node that serves it next.
   */
  localOnly = false;
  /**
   * Several nodes serve this session through a shared event store that can be followed: the
   * standalone stream is one Redis-like stream all of them write, and the node holding the GET
   * follows it (so a notification sent on any node reaches the client's GET on any node).
   */
  clustered = false;
  /** What only a clustered copy uses (fail-over, the one GET across nodes), brought by the store's code. */
  cluster: ClusterSupport | undefined;
  /** @internal The exchanges in flight, by request id. */
  readonly exchanges = new Map<RequestId, Exchange>();
  /** Made on first use: a request answered with JSON on a throwaway session never needs one. */
  protected streamSet: SessionStreams | undefined;
  protected isClosed = false;
  private version: string | undefined;

  constructor(
    protected readonly runtime: R,
    readonly sessionId: string | undefined,
    /** One request, no session: close as soon as it is answered. */
    readonly stateless: boolean,
  ) {}

  /** @internal The session's SSE streams. */
  get streams(): SessionStreams {
    this.streamSet ??= new SessionStreams(this.runtime, this);
    return this.streamSet;
  }

  /** A stream lost its connection (the client went away); `StreamHost`, called by the delivery streams. */
  abstract streamDisconnected(stream: LogicalStream): void;

  sessionStatePart(): Pick<ServerSessionState, 'eventIdPrefix' | 'principal'> {
    const part: { eventIdPrefix?: string; principal?: string } = {};
    const prefix = this.streamSet?.prefix;
    if (prefix !== undefined) part.eventIdPrefix = prefix;
    if (this.principal !== undefined) part.principal = this.principal;
    return part;
  }

  /** Fixes the event-id prefix now, so the record saved for other nodes carries it. */
  ensurePrefix(): void {
    void this.streams.streamPrefix;
  }

  restoreSessionState(state: ServerSessionState): void {
    this.streams.restore(state.eventIdPrefix);
    if (state.principal !== undefined) this.principal = state.principal;
  }

  setProtocolVersion(version: string): void {
    this.version = version;
  }

  /** The revision negotiated on this session, once `initialize` was answered. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * True while a client is connected: a GET stream is open, or a POST still waits for its answer.
   * A call whose client left (and could resume but has not) does not count, so a session whose
   * client vanished still expires, and its handlers are cancelled then rather than run forever.
   */
  get busy(): boolean {
    if (this.streamSet?.standaloneStream?.connection) return true;
    for (const exchange of this.exchanges.values()) {
      if (!exchange.stream || exchange.stream.connection) return true;
    }
    return false;
  }

  /** No stream open and nothing in flight: the session can be evicted without cutting anyone off. */
  get idle(): boolean {
    const standalone = this.streamSet?.standaloneStream;
    return this.exchanges.size === 0 && !standalone?.connection && !standalone?.resuming;
  }

  /** True when a request with this id is still being answered on this session. */
  hasExchange(id: RequestId): boolean {
    return this.exchanges.has(id);
  }

  /** This copy holds the session's GET stream for the whole cluster (it delivers broadcasts). */
  get holdsGet(): boolean {
    const standalone = this.streamSet?.standaloneStream;
    return standalone?.held === true && standalone.connection !== undefined;
  }
}
