/**
 * The shapes a low-level server is configured with: its options, and (from the kernel, re-exported)
 * the handlers of request and notification methods (typed by method for the specification's
 * methods, untyped for extensions). The kernel reads a few of these options through its own
 * `KernelServerOptions` (kernel/ports.ts), which `ServerOptions` satisfies.
 * @module
 */
import type { ModernProtocolVersion, Observer, ProtocolVersion, ServerCapabilities } from '@mcpkit/core';
import type { ServerSession } from './kernel/session.js';
import type { RequestStateKey } from './mrtr/keyRing.js';
import type { InputRoundLimits } from './mrtr/limits.js';

export type {
  MethodHandler,
  MethodNotificationHandler,
  NotificationHandler,
  RequestHandler,
} from './kernel/handlers.js';

/** Options of `Server`. */
export interface ServerOptions {
  /** Text the host may put in the model's system prompt. */
  instructions?: string;
  /** Capabilities to declare beyond those implied by registered features. */
  capabilities?: ServerCapabilities;
  /**
   * Revisions this server speaks. Default: every revision mcpkit speaks, 2026-07-28 included.
   * Leave `'2026-07-28'` out to serve `initialize` clients only: a 2026-07-28 request then gets
   * `-32022` naming the revisions listed, and a client that follows the spec (mcpkit's does)
   * falls back to `initialize`. At least one `initialize` revision must be listed.
   */
  protocolVersions?: readonly (ProtocolVersion | ModernProtocolVersion)[];
  /** Default timeout of requests the server sends (sampling, elicitation...). Default 60 s. */
  requestTimeout?: number;
  /** Hard limit of requests the server sends, whatever progress arrives. Default 1 hour. */
  maxTotalTimeout?: number;
  /**
   * Receives errors that cannot be answered to a client: handler crashes (the client only sees
   * "Internal error"), malformed notifications, transport failures. Default: `console.error`.
   */
  onError?: (error: Error, session?: ServerSession) => void;
  /**
   * Sees every request each session receives and sends, sessions opening and closing, and
   * message sizes (tracing, metrics: `@mcpkit/otel`, `@mcpkit/node/metrics`). Default: none, at
   * no cost.
   */
  observer?: Observer;
  /**
   * Secrets that seal the `requestState` of 2026-07-28 input-required rounds (AES-256-GCM): the
   * first seals, all open, so keys can rotate. Each is at least 32 bytes. Default: one random key
   * per process, right for one process; every node of a cluster needs the same list. See
   * docs/input-required.md.
   */
  requestStateKeys?: readonly RequestStateKey[];
  /** Bounds of input-required rounds. Default `{ maxRounds: 8, maxStateBytes: 65536, ttlMs: 600000, maxInputRequests: 16 }`. */
  requestStateLimits?: Partial<InputRoundLimits>;
  /**
   * Under 2026-07-28, name this server (`_meta["io.modelcontextprotocol/serverInfo"]`) in every
   * result. Default `true`: the schema says servers SHOULD, "unless specifically configured not
   * to". `false` leaves it out of every result but `server/discover`'s (smaller answers).
   */
  serverInfoInResults?: boolean;
}

/**
 * Every key of {@link ServerOptions}: the constructor refuses others (a typo would otherwise be
 * ignored in silence).
 *
 * @example
 * ```ts
 * Object.keys(SERVER_OPTION_KEYS); // ['instructions', 'capabilities', ...]
 * ```
 */
export const SERVER_OPTION_KEYS: Readonly<Record<keyof ServerOptions, true>> = {
  instructions: true,
  capabilities: true,
  protocolVersions: true,
  requestTimeout: true,
  maxTotalTimeout: true,
  onError: true,
  observer: true,
  requestStateKeys: true,
  requestStateLimits: true,
  serverInfoInResults: true,
};
