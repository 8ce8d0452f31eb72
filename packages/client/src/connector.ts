/**
 * How a {@link Client} connects: the connection over a transport with the client's limits, the
 * era probe (`server/discover`) or the `initialize` handshake (`handshake.ts`), settling on the
 * revision they found, and the connection's end (close listeners, reopening for a reconnection).
 * @module
 */
import {
  Connection,
  type InitializeResult,
  isSupportedProtocolVersion,
  Method,
  Notification,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  RequestTimeoutError,
  SessionObservation,
  type Transport,
} from '@mcpkit/core';
import {
  type AuthorizationPauses,
  codecFor,
  DEFAULT_REQUEST_TIMEOUT,
  encodeOutgoingNotification,
  installAuthorizationPauses,
  toError,
} from '@mcpkit/core/internal';
import type { ModernVersion } from './era/modern.js';
import { probeEra, requestInitialize } from './handshake.js';
import { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT, DEFAULT_MAX_INCOMING_REQUESTS } from './limits.js';
import type { ConnectingClient, ConnectionRoutes } from './ports.js';
import type { ClientSender } from './sender.js';
import type { ClientSession } from './session.js';

/**
 * The connecting side of one client: its connection's start, handshake and end.
 *
 * @example
 * ```ts
 * const connector = new ClientConnector(session, client, routes, sender);
 * const result = await connector.connect(transport, {});
 * ```
 */
export class ClientConnector {
  #closeListeners: Array<(error?: Error) => void> = [];

  readonly #session: ClientSession;
  readonly #client: ConnectingClient;
  readonly #routes: ConnectionRoutes;
  readonly #sender: ClientSender;
  /** The opened connection's waits on authorization (a login after a 401), kept off the handshake. */
  #authorization: AuthorizationPauses | undefined;

  constructor(
    session: ClientSession,
    client: ConnectingClient,
    routes: ConnectionRoutes,
    sender: ClientSender,
  ) {
    this.#session = session;
    this.#client = client;
    this.#routes = routes;
    this.#sender = sender;
  }

  /** Connects over `transport`, then probes the era or performs the handshake; see `Client.connect`. */
  async connect(transport: Transport, options: OutgoingRequestOptions): Promise<InitializeResult> {
    const session = this.#session;
    if (session.phase !== 'new') throw new Error('A client connects once; create a new Client to reconnect');
    session.phase = 'initializing';
    const connection = this.#open(transport);
    await connection.start();
    const clientOptions = this.#client.options;
    // 'auto' by default: 2026-07-28 where the server speaks it, `initialize` otherwise. Callers
    // relying on 2025 session behaviour pin '2025' (docs/2026-07-28.md §11). A caller that lists
    // the revisions it accepts (`protocolVersions`, all of them `initialize` ones) and names no era
    // gets those revisions only, never a 2026-07-28 it did not list.
    const era = clientOptions.protocolEra ?? (clientOptions.protocolVersions ? '2025' : 'auto');
    // One limit for the whole handshake (the probe, then `initialize`): a server that accepts the
    // connection and never answers costs `timeout`, not the probe's wait plus a full request's.
    const limit = options.timeout ?? clientOptions.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    // Time spent waiting on authorization (a person logging in after a 401) is not the server's:
    // the probe's own clock stopped meanwhile, and the deadline moves by it too.
    const waited = this.#authorization!;
    const deadline = Date.now() + limit - waited.total;
    if (era !== '2025') {
      const discover = (version: ModernVersion) => this.#sender.discoverParams(version);
      const bounded = { ...options, timeout: limit };
      const modern = await probeEra(connection, era, clientOptions.eraProbeTimeout, bounded, discover);
      if (modern) return this.#settle(transport, modern.result, modern.version);
    }
    const left = deadline + waited.total - Date.now();
    const remaining = { ...options, timeout: Math.max(1, left) };
    const { result, version } = await requestInitialize(connection, this.#client, remaining).catch(
      (error: unknown) => {
        // After a probe, `initialize` had what was left: the error names the handshake's whole limit.
        if (era !== '2025' && error instanceof RequestTimeoutError && error.reason === 'timeout')
          throw new RequestTimeoutError(Method.Initialize, limit, 'timeout');
        throw error;
      },
    );
    this.#settle(transport, result, version);
    await connection.notify(Notification.Initialized);
    return result;
  }

  /** Calls `listener` when the connection closes. */
  onClose(listener: (error?: Error) => void): void {
    this.#closeListeners.push(listener);
  }

  /** Makes a client whose connection closed, or whose `connect` failed, ready to connect again. */
  async reopen(): Promise<void> {
    const connection = this.#session.connection;
    if (connection && !connection.closed) await connection.close().catch(() => undefined);
    // The next server may speak another era: the handshake decides it again.
    this.#session.reset();
  }

  /** The connection over `transport`, what arrives on it handed to the routes. */
  #open(transport: Transport): Connection {
    const session = this.#session;
    const options = this.#client.options;
    const observer = options.observer;
    if (observer)
      session.observation = new SessionObservation('client', transport, () => session.protocolVersion);
    const routes = this.#routes;
    const connection = new Connection(
      transport,
      {
        onRequest: routes.request,
        onNotification: routes.notification,
        onClose: (error) => this.#closed(error),
      },
      {
        requestTimeout: options.requestTimeout,
        maxTotalTimeout: options.maxTotalTimeout ?? DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT,
        maxIncomingRequests: options.maxIncomingRequests ?? DEFAULT_MAX_INCOMING_REQUESTS,
        onError: routes.error,
        acceptBatches: () => session.codec.acceptsBatches,
        // Progress the engine sends for the server's requests must fit the negotiated revision.
        encodeNotification: (method, params) => encodeOutgoingNotification(session.codec, method, params),
        observer,
        observedSession: session.observation,
        onLateResult: (result) => this.#sender.cancelLateTask(result),
      },
    );
    // A login after an HTTP 401 is not counted against the requests it holds (MessageSink.authorizing).
    this.#authorization = installAuthorizationPauses(connection);
    session.connection = connection;
    return connection;
  }

  /** Makes the client ready to speak `version`; a modern version is spoken per request. */
  #settle(
    transport: Transport,
    result: InitializeResult,
    version: ProtocolVersion | ModernVersion,
  ): InitializeResult {
    const session = this.#session;
    if (isSupportedProtocolVersion(version)) session.codec = codecFor(version);
    else session.modern = version;
    session.result = result;
    transport.setProtocolVersion?.(version);
    session.phase = 'ready';
    const observer = this.#client.options.observer;
    if (session.observation && observer) session.observation.open(observer);
    return result;
  }

  #closed(error?: Error): void {
    const session = this.#session;
    session.phase = 'closed';
    if (session.observation) session.observation.close(this.#client.options.observer!);
    for (const listener of this.#closeListeners.splice(0)) {
      try {
        listener(error);
      } catch (hookError) {
        this.#routes.error(toError(hookError));
      }
    }
  }
}
