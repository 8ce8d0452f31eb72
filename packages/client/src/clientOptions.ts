/**
 * The options of a {@link Client}, and the names the constructor accepts.
 * @module
 */
import type { ClientCapabilities, Observer, ProtocolVersion } from '@mcpkit/core';
import type { DEFAULT_MAX_INPUT_ROUNDS } from './era/inputRequests.js';
import type { ModernVersion, ProtocolEra } from './era/modern.js';
import type { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT, DEFAULT_MAX_INCOMING_REQUESTS } from './limits.js';

/** Options of {@link Client}. */
export interface ClientOptions {
  /** Capabilities to declare beyond those implied by the handlers given. */
  capabilities?: ClientCapabilities;
  /**
   * `initialize` revisions this client accepts, newest first; the first is requested. Default:
   * all. Given without `protocolEra`, it also pins the era to `'2025'`: a client that lists the
   * revisions it accepts is not moved to 2026-07-28, which it did not list.
   */
  protocolVersions?: readonly ProtocolVersion[];
  /**
   * Default timeout of requests in ms. Default 60 000 (progress extends it). Over HTTP, the time
   * a request waits on the transport's `authProvider` after a 401 (a person logging in) is not
   * counted: the transport's `authorizationTimeout` bounds that wait.
   */
  requestTimeout?: number;
  /**
   * Hard limit of requests in ms, whatever progress arrives. Default 10 minutes
   * ({@link DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT}).
   */
  maxTotalTimeout?: number;
  /**
   * How many of the server's requests are handled at once; past it they are refused with an
   * error. Default {@link DEFAULT_MAX_INCOMING_REQUESTS} (64).
   */
  maxIncomingRequests?: number;
  /**
   * Receives problems no caller can be told about. Default: none; the library never writes to
   * the console, so pass a hook to see them.
   */
  onError?: (error: Error) => void;
  /**
   * Sees every request the client sends and receives, and the session's lifetime (tracing with
   * trace context in `_meta`: `@mcpkit/otel`). Default: none, at no cost.
   */
  observer?: Observer;
  /**
   * Which era to speak: `'auto'` probes with `server/discover` and speaks 2026-07-28 with a
   * server that answers it, else falls back to `initialize` (2025-11-25 and older); `'2026'`
   * requires 2026-07-28; `'2025'` always uses `initialize`, without a probe (for 2025 session
   * behaviour: resumption, per-session log level, roots `list_changed`; docs/2026-07-28.md §11).
   * Default `'auto'`, or `'2025'` when `protocolVersions` is given.
   */
  protocolEra?: ProtocolEra;
  /**
   * How long the `'auto'` probe waits for an answer before taking the server for a legacy one
   * that ignores requests before `initialize`, in ms. Default 10 000. A login the probe's 401
   * starts (the transport's `authProvider`) is not counted: the probe waits for the server only.
   */
  eraProbeTimeout?: number;
  /**
   * The most `input_required` rounds (2026-07-28) one request follows before failing locally.
   * Default {@link DEFAULT_MAX_INPUT_ROUNDS} (8).
   */
  maxInputRounds?: number;
}

/**
 * The revision a client speaks: an `initialize` revision or a per-request one (2026-07-28).
 *
 * @example
 * ```ts
 * const version: ClientProtocolVersion | undefined = client.protocolVersion;
 * ```
 */
export type ClientProtocolVersion = ProtocolVersion | ModernVersion;

/**
 * Every key of {@link ClientOptions}: the constructor refuses others (a typo would otherwise be
 * ignored in silence).
 *
 * @example
 * ```ts
 * Object.hasOwn(CLIENT_OPTION_KEYS, 'requestTimeout'); // true
 * ```
 */
export const CLIENT_OPTION_KEYS: Readonly<Record<keyof ClientOptions, true>> = {
  capabilities: true,
  protocolVersions: true,
  requestTimeout: true,
  maxTotalTimeout: true,
  onError: true,
  maxIncomingRequests: true,
  observer: true,
  protocolEra: true,
  eraProbeTimeout: true,
  maxInputRounds: true,
};
