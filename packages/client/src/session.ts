/**
 * What a {@link Client} has negotiated with the server it talks to: where its connection stands,
 * the revision spoken (an `initialize` revision's codec, or 2026-07-28 per request) and what the
 * server said. One object per client, shared with the parts the client is composed of (its
 * sender), so each reads the same state without reaching into the client.
 * @module
 */
import {
  type Connection,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  type SessionObservation,
} from '@mcpkit/core';
import { codecFor, type RevisionCodec } from '@mcpkit/core/internal';
import type { ClientProtocolVersion } from './clientOptions.js';
import type { ModernVersion } from './era/modern.js';

/**
 * Where a client's connection stands: not yet connected, handshaking, ready, or closed.
 *
 * @example
 * ```ts
 * const phase: ClientPhase = 'ready';
 * ```
 */
export type ClientPhase = 'new' | 'initializing' | 'ready' | 'closed';

/**
 * The negotiated state of one client; its fields are set by the client as it connects.
 *
 * @example
 * ```ts
 * const session = new ClientSession();
 * session.phase; // 'new'
 * ```
 */
export class ClientSession {
  phase: ClientPhase = 'new';
  /** The connection, once `connect` started. */
  connection: Connection | undefined;
  /** The codec of the `initialize` revision spoken (the latest until one is negotiated). */
  codec: RevisionCodec = codecFor(LATEST_PROTOCOL_VERSION);
  /** The per-request revision spoken, when the server is a modern one; `undefined` in a session. */
  modern: ModernVersion | undefined;
  /** The server's `initialize` answer (or what `server/discover` said), once connected. */
  result: InitializeResult | undefined;
  /** The observer's view of this session, when an observer is configured. */
  observation: SessionObservation | undefined;

  /** The connection; throws before `connect`. */
  get live(): Connection {
    if (!this.connection) throw new Error('The client is not connected');
    return this.connection;
  }

  /** The revision spoken, once connected. */
  get protocolVersion(): ClientProtocolVersion | undefined {
    if (!this.result) return undefined;
    return this.modern ?? this.codec.version;
  }

  /** Forgets the last connection: the next handshake decides the revision (and era) again. */
  reset(): void {
    this.phase = 'new';
    this.connection = undefined;
    this.result = undefined;
    this.observation = undefined;
    this.codec = codecFor(LATEST_PROTOCOL_VERSION);
    this.modern = undefined;
  }
}
