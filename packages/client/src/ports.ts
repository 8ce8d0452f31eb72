/**
 * What the parts of a client need of the {@link Client} they serve, as narrow interfaces: the
 * parts depend on these, not on the `Client` class, so no part imports the file that composes
 * it (and `Client` satisfies each structurally).
 * @module
 */
import type {
  ClientCapabilities,
  Implementation,
  IncomingRequest,
  InitializeResult,
  OutgoingRequestOptions,
  ProtocolVersion,
  Transport,
} from '@mcpkit/core';
import type { ClientOptions } from './clientOptions.js';

/**
 * What a client's sender reads of it: what the 2026-07-28 envelope states, and the options
 * (timeouts, input rounds).
 *
 * @example
 * ```ts
 * const owner: SenderOwner = { info: { name: 'host', version: '1.0.0' }, capabilities: {}, options: {} };
 * ```
 */
export interface SenderOwner {
  readonly info: Implementation;
  readonly capabilities: ClientCapabilities;
  readonly options: ClientOptions;
}

/**
 * What a reconnection (`connectReconnecting`) needs of the client it keeps connected.
 *
 * @example
 * ```ts
 * declare const client: McpClient;
 * const reconnecting: ReconnectingClient = client;
 * ```
 */
export interface ReconnectingClient {
  /** Connects over one transport (the handshake's options given). */
  connect(transport: Transport, options?: OutgoingRequestOptions): Promise<InitializeResult>;
  /** Hears the connection close. */
  onClose(listener: (error?: Error) => void): void;
  close(): Promise<void>;
  /** Makes a client whose connection closed ready to connect again. */
  reopen(): Promise<void>;
  /** True once `close()` was called: a reconnecting client then stays closed. */
  readonly closeRequested: boolean;
  /** Set while a reconnection runs: requests made meanwhile wait for it. */
  reconnecting: Promise<unknown> | undefined;
  /** Sets up again what the old session had (an `McpClient`: subscriptions, log level). */
  sessionRecovered?(): Promise<void>;
}

/**
 * Who the client is when it connects: what `initialize` and the 2026-07-28 envelope state, and
 * the options of its connection (timeouts, limits, era, observer).
 *
 * @example
 * ```ts
 * const owner: ConnectingClient = {
 *   info: { name: 'host', version: '1.0.0' },
 *   capabilities: {},
 *   protocolVersions: ['2025-11-25'],
 *   options: { protocolEra: '2025' },
 * };
 * ```
 */
export interface ConnectingClient extends SenderOwner {
  readonly protocolVersions: readonly ProtocolVersion[];
}

/**
 * Where a client's connection hands what arrives: the server's requests and notifications (through
 * the client's middleware, to its handlers) and the problems no caller can be told about.
 *
 * @example
 * ```ts
 * const routes: ConnectionRoutes = {
 *   request: () => ({}),
 *   notification: () => {},
 *   error: (error) => console.error(error),
 * };
 * ```
 */
export interface ConnectionRoutes {
  // Functions, not methods: the connection is handed them as they are, with no hop per message.
  readonly request: (request: IncomingRequest) => unknown;
  readonly notification: (method: string, params: Record<string, unknown> | undefined) => void;
  readonly error: (error: Error) => void;
}
