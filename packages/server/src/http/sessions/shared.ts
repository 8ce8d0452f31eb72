/**
 * The Streamable HTTP handler's side of a {@link SessionStore}: checking a known session against
 * the store on each request, restoring an unknown one from it, and saving what changed. Only
 * built when a store is configured, so a single-node handler pays nothing.
 * @module
 */
import type { AuthInfo, MessageExtra } from '@mcpkit/core';
import { type ClassifiedBody, classifyBody } from '@mcpkit/core/internal';
import { inScope, type RelayedBroadcast } from '../../broadcastScope.js';
import { clientKeyOf, mayUseSession } from '../../kernel/principal.js';
import type { ServerSessionState } from '../../kernel/sessionState.js';
import type { Server } from '../../server.js';
import { type HttpRuntime, HttpSessionTransport } from '../delivery/transport.js';
import { CLUSTER_SUPPORT } from './rerun.js';
import type { SessionStore } from './store.js';
import { guarded, SessionStoreUnavailable } from './storeErrors.js';
import type { SessionTable } from './table.js';

/** Why a session could not be served: unknown (404), or no room for it on this node. */
export type SharedRefusal = 'unknown' | 'busy' | 'quota';

export class SharedSessions {
  /** Restores under way, so concurrent first requests for one session restore it once. */
  private readonly restoring = new Map<string, Promise<HttpSessionTransport | SharedRefusal>>();
  /** The record each session last saved or read, serialized, to save only what changed. */
  private readonly known = new WeakMap<HttpSessionTransport, string>();
  /** The last save of each session, so the next one waits for it. */
  private readonly saving = new WeakMap<HttpSessionTransport, Promise<void>>();

  constructor(
    private readonly store: SessionStore,
    /** Record time to live: the idle timeout (`undefined` when sessions never expire). */
    private readonly ttl: number | undefined,
    private readonly table: SessionTable,
    private readonly server: Server,
    private readonly runtime: HttpRuntime,
  ) {
    if (store.forward && store.onForward) {
      this.routes = true;
      store.onForward((sessionId, message) => {
        const transport = this.table.get(sessionId);
        if (transport && !transport.closed && transport.claimAnswers(message))
          transport.deliver(classifyBody(message), FORWARDED);
      });
    }
    const events = runtime.eventStore;
    if (store.publish && store.onPublished && events?.holdStream && events.followEventsAfter) {
      // Server-wide notifications go to every node; each delivers them to the GETs it holds, and
      // the handler that relays for its server (one per server) to its listen streams too.
      const origin = server.relay ? undefined : crypto.randomUUID();
      server.relay ??= (method, params, filter, scope) => {
        if (filter && !scope) return false; // a function cannot travel: this node's sessions only
        const broadcast: RelayedBroadcast = { method, params, scope, origin };
        guarded(() => store.publish!(broadcast)).catch((error: unknown) => runtime.report(toError(error)));
        return true;
      };
      store.onPublished((value) => {
        const broadcast = asBroadcast(value);
        if (!broadcast) return;
        // The origin's own listen streams heard it when it was sent.
        if (origin && broadcast.origin !== origin) server.publishRelayed(broadcast.method, broadcast.params);
        this.relayed(broadcast).catch((error: unknown) => runtime.report(toError(error)));
      });
    }
  }

  /**
   * A server-wide notification from any node: sent to the sessions whose GET stream this node
   * holds (one node per session, so each hears it once), refreshed first when the scope depends
   * on what another node may have changed (subscriptions, log level).
   */
  private async relayed(broadcast: RelayedBroadcast): Promise<void> {
    const holders = [...this.table.values()].filter(
      (transport) => transport.holdsGet && !transport.closed && transport.session?.initialized,
    );
    const scope = broadcast.scope;
    if (scope && !('listChanged' in scope))
      await Promise.all(holders.map((transport) => this.reload(transport)));
    for (const transport of holders) {
      const session = transport.session!;
      if (scope && !inScope(session, scope)) continue;
      try {
        const sent = session.notify(broadcast.method, broadcast.params);
        if (sent) sent.catch((error: unknown) => this.runtime.report(toError(error)));
      } catch (error) {
        this.runtime.report(toError(error));
      }
    }
  }

  private async reload(transport: HttpSessionTransport): Promise<void> {
    const state = await guarded(() => this.store.load(transport.sessionId!, this.ttl));
    if (state) this.refresh(transport, state);
  }

  /** Whether `error` means the store is down (the request gets 503). */
  isUnavailable(error: unknown): boolean {
    return error instanceof SessionStoreUnavailable;
  }

  /** Whether answers to requests to the client are routed to the node that waits for them. */
  readonly routes: boolean = false;

  /**
   * Delivers a body of responses (answers to requests to the client) to the node that waits for
   * them: this one, or, through the store, whichever node it is.
   */
  async answer(transport: HttpSessionTransport, body: ClassifiedBody, extra: MessageExtra): Promise<void> {
    if (!this.routes || transport.claimAnswers(body.value)) {
      transport.deliver(body, extra);
      return;
    }
    await guarded(() => this.store.forward!(transport.sessionId!, body.value));
  }

  /** Copies made here keep track of their requests to the client, when answers are routed. */
  track(transport: HttpSessionTransport): void {
    transport.trackRequests = this.routes;
    transport.clustered = true;
    transport.cluster = CLUSTER_SUPPORT;
  }

  /**
   * The session `sessionId` names, as this node serves it. A session this node holds is checked
   * against the store (it may have been deleted or expired elsewhere) and takes the log level and
   * subscriptions another node recorded; an unknown one is restored from its record.
   *
   * @throws {SessionStoreUnavailable} when the store cannot be reached.
   */
  async find(
    sessionId: string,
    authInfo: AuthInfo | undefined,
    remoteAddress: string | undefined,
  ): Promise<HttpSessionTransport | SharedRefusal> {
    const local = this.table.get(sessionId);
    if (local && !local.closed) {
      const state = await guarded(() => this.store.load(sessionId, this.ttl));
      if (!state) {
        // Deleted or expired on another node: this copy ends too, leaving the shared events be.
        local.localOnly = true;
        void local.session?.close();
        return 'unknown';
      }
      this.refresh(local, state);
      this.handshakeDone(local);
      return mayUseSession(local.principal, authInfo) ? local : 'unknown';
    }
    let pending = this.restoring.get(sessionId);
    if (!pending) {
      pending = this.restore(sessionId, authInfo, remoteAddress).finally(() =>
        this.restoring.delete(sessionId),
      );
      this.restoring.set(sessionId, pending);
    }
    const found = await pending;
    if (typeof found === 'string') return found;
    return mayUseSession(found.principal, authInfo) ? found : 'unknown';
  }

  /**
   * Saves the session's record when it differs from what the store last had. Saves of one session
   * run one after the other, so an older record never overwrites a newer one, and awaiting a save
   * also awaits the ones before it.
   */
  save(transport: HttpSessionTransport): Promise<void> {
    const previous = this.saving.get(transport);
    const next = previous ? previous.then(() => this.saveNow(transport)) : this.saveNow(transport);
    this.saving.set(
      transport,
      next.catch(() => {}),
    );
    return next;
  }

  private async saveNow(transport: HttpSessionTransport): Promise<void> {
    const state = transport.session?.snapshot();
    if (!state || transport.sessionId === undefined || transport.closed) return;
    const json = JSON.stringify(state);
    if (this.known.get(transport) === json) return;
    await guarded(() => this.store.save(transport.sessionId!, state, this.ttl));
    this.known.set(transport, json);
  }

  /** The session ended for good (DELETE): its record goes, so every node forgets it. */
  async delete(transport: HttpSessionTransport): Promise<void> {
    await guarded(() => this.store.delete(transport.sessionId!));
  }

  /** Keeps records alive while this node holds a stream of their session open. */
  touchBusy(): void {
    for (const transport of this.table.values()) {
      if (!transport.busy || transport.sessionId === undefined) continue;
      Promise.resolve()
        .then(() => this.store.touch(transport.sessionId!, this.ttl))
        .catch((error: unknown) => this.runtime.report(toError(error)));
    }
  }

  private async restore(
    sessionId: string,
    authInfo: AuthInfo | undefined,
    remoteAddress: string | undefined,
  ): Promise<HttpSessionTransport | SharedRefusal> {
    const state = await guarded(() => this.store.load(sessionId, this.ttl));
    if (!state || !mayUseSession(state.principal, authInfo)) return 'unknown';
    const transport = new HttpSessionTransport(this.runtime, sessionId, false);
    const refused = this.table.admit(transport, clientKeyOf(authInfo, remoteAddress));
    if (refused) return refused;
    transport.handshakeDone = true;
    this.track(transport);
    try {
      transport.session = this.server.connect(transport, { state });
    } catch (error) {
      // A record this server cannot take (another revision set, a corrupted value): unknown.
      this.table.remove(transport);
      this.runtime.report(toError(error));
      return 'unknown';
    }
    this.known.set(transport, JSON.stringify(transport.session.snapshot()));
    this.runtime.sessionReady(transport);
    return transport;
  }

  /**
   * The copy that answered `initialize` sees a later request, so the client finished the
   * handshake, whichever node its `notifications/initialized` went to: the copy is ready too
   * (restored copies are ready from the start).
   */
  private handshakeDone(transport: HttpSessionTransport): void {
    if (transport.handshakeDone) return;
    transport.handshakeDone = true;
    const session = transport.session;
    if (session?.initialized && !session.serverCapabilities) transport.deliver(INITIALIZED, FORWARDED);
  }

  /** Takes what another node changed: the log level and the subscriptions. */
  private refresh(transport: HttpSessionTransport, state: ServerSessionState): void {
    const session = transport.session;
    if (!session || sameParts(session, state)) return;
    session.logLevel = state.logLevel;
    session.subscriptions = state.subscriptions?.length ? new Set(state.subscriptions) : undefined;
    this.known.set(transport, JSON.stringify(session.snapshot()));
  }
}

/** Whether the record holds what the session has already: the common case costs no serializing. */
function sameParts(
  session: { logLevel: unknown; subscriptions: ReadonlySet<string> | undefined },
  state: ServerSessionState,
): boolean {
  if (session.logLevel !== state.logLevel) return false;
  const stored = state.subscriptions ?? [];
  const held = session.subscriptions;
  if ((held?.size ?? 0) !== stored.length) return false;
  return stored.every((uri) => held!.has(uri));
}

/** A relayed broadcast as published by {@link Server.relay}; `undefined` for anything else. */
function asBroadcast(value: unknown): RelayedBroadcast | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { method, params, scope } = value as Record<string, unknown>;
  if (typeof method !== 'string') return undefined;
  if (params !== undefined && (typeof params !== 'object' || params === null)) return undefined;
  if (scope !== undefined && (typeof scope !== 'object' || scope === null)) return undefined;
  return value as RelayedBroadcast;
}

/** A message that came from another node: its HTTP request is not here. */
const FORWARDED: MessageExtra = {};
const INITIALIZED = classifyBody({ jsonrpc: '2.0', method: 'notifications/initialized' });

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
