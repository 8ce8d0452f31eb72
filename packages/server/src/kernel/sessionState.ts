/**
 * The session-state record: everything a session holds that must outlive the process serving it,
 * as one plain, JSON-serializable object.
 *
 * A live {@link ServerSession} does not keep this record; it builds it on demand
 * (`session.snapshot()`), so the hot path pays nothing. `server.connect(transport, { state })`
 * brings a session up from a record, already initialized, with no handshake: that is how a
 * restarted process, or another node behind a load balancer, carries on a session a store kept.
 * @module
 */
import {
  type ClientCapabilities,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  type ProtocolVersion,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';

/**
 * One session's state, plain data: `JSON.stringify` it into a store and hand the parsed value to
 * `server.connect(transport, { state })` to resume the session on a fresh server instance.
 *
 * @example
 * ```ts
 * const saved = JSON.stringify(session.snapshot());
 * // …later, maybe in another process:
 * const resumed = server.connect(transport, { state: JSON.parse(saved) as ServerSessionState });
 * ```
 */
export interface ServerSessionState {
  /** The record's layout, for stores that outlive an upgrade. */
  readonly v: 1;
  /** The session's stable key: the transport's session id, else one made for it. */
  readonly key: string;
  /** The revision negotiated at `initialize`. */
  readonly protocolVersion: ProtocolVersion;
  /** The client's `initialize` params as it sent them (name, capabilities, extensions…). */
  readonly initializeParams: Readonly<Record<string, unknown>>;
  /** The client's declared capabilities (also in `initializeParams`, kept for readers). */
  readonly clientCapabilities: ClientCapabilities;
  /** The client's name and version. */
  readonly clientInfo: Implementation;
  /** The capabilities the server announced to this client, which bound what it may be told. */
  readonly serverCapabilities: ServerCapabilities;
  /** The level set by `logging/setLevel`, if the client set one. */
  readonly logLevel?: LoggingLevel;
  /** URIs of the resources the client subscribed to. */
  readonly subscriptions?: readonly string[];
  /** Prefix of the session's SSE event ids (Streamable HTTP with an event store), for resumption. */
  readonly eventIdPrefix?: string;
  /** The principal (token subject and client) the session is bound to, if it was authenticated. */
  readonly principal?: string;
}

/**
 * The part of a session's state its transport holds (Streamable HTTP: event-id prefix, principal).
 * A transport that has some implements these; others need not.
 *
 * @example
 * ```ts
 * const part = (transport as Partial<SessionStateHolder>).sessionStatePart?.();
 * ```
 */
export interface SessionStateHolder {
  /** What the transport holds of the session's state. */
  sessionStatePart(): Pick<ServerSessionState, 'eventIdPrefix' | 'principal'>;
  /** Takes back what {@link sessionStatePart} gave, when a session is restored. */
  restoreSessionState(state: ServerSessionState): void;
}

/** The record's optional parts. */
type OptionalParts = 'logLevel' | 'subscriptions' | 'eventIdPrefix' | 'principal';

/**
 * @internal Builds a record from a session's fields, leaving out the parts it does not have.
 *
 * @example
 * ```ts
 * const state = composeSessionState(core, session.logLevel, session.subscriptions, undefined);
 * ```
 */
export function composeSessionState(
  core: Omit<ServerSessionState, OptionalParts>,
  logLevel: LoggingLevel | undefined,
  subscriptions: ReadonlySet<string> | undefined,
  part: Pick<ServerSessionState, 'eventIdPrefix' | 'principal'> | undefined,
): ServerSessionState {
  const state: { -readonly [K in keyof ServerSessionState]: ServerSessionState[K] } = { ...core };
  if (logLevel !== undefined) state.logLevel = logLevel;
  if (subscriptions?.size) state.subscriptions = [...subscriptions];
  if (part?.eventIdPrefix !== undefined) state.eventIdPrefix = part.eventIdPrefix;
  if (part?.principal !== undefined) state.principal = part.principal;
  return state;
}

/**
 * Checks a record read back from a store before a session trusts it.
 *
 * @throws {TypeError} naming the first field that is wrong.
 * @example
 * ```ts
 * declare const saved: string;
 * const state = checkSessionState(JSON.parse(saved), server.protocolVersions);
 * ```
 */
export function checkSessionState(
  value: unknown,
  versions: readonly ProtocolVersion[] = SUPPORTED_PROTOCOL_VERSIONS,
): ServerSessionState {
  const fail = (field: string): never => {
    throw new TypeError(`Invalid session state: "${field}"`);
  };
  if (!isRecord(value) || value.v !== 1) return fail('v');
  if (typeof value.key !== 'string' || value.key === '') fail('key');
  if (!versions.includes(value.protocolVersion as ProtocolVersion)) fail('protocolVersion');
  if (!isRecord(value.initializeParams)) fail('initializeParams');
  if (!isRecord(value.clientCapabilities)) fail('clientCapabilities');
  const info = value.clientInfo;
  if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
    fail('clientInfo');
  if (!isRecord(value.serverCapabilities)) fail('serverCapabilities');
  if (value.logLevel !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(value.logLevel))
    fail('logLevel');
  const subscriptions = value.subscriptions;
  if (
    subscriptions !== undefined &&
    (!Array.isArray(subscriptions) || subscriptions.some((uri) => typeof uri !== 'string'))
  )
    fail('subscriptions');
  if (value.eventIdPrefix !== undefined && typeof value.eventIdPrefix !== 'string') fail('eventIdPrefix');
  if (value.principal !== undefined && typeof value.principal !== 'string') fail('principal');
  return value as unknown as ServerSessionState;
}
