/**
 * The options of `Server`: what the kernel reads ({@link KernelServerOptions}) and the 2026-07-28
 * era's own (sealing and bounding input-required rounds, naming the server in results), which the
 * composition root hands to the era.
 * @module
 */
import type { KernelServerOptions } from './kernel/ports.js';
import type { RequestStateKey } from './mrtr/keyRing.js';
import type { InputRoundLimits } from './mrtr/limits.js';

/** Options of `Server`. */
export interface ServerOptions extends KernelServerOptions {
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
