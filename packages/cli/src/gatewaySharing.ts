/**
 * `mcpkit gateway`'s sharing options: how upstreams are shared between downstream sessions
 * (`--upstreams`, `--lanes`) and how long and how many sessions a client keeps
 * (`--session-idle`, `--sessions-per-client`). See docs/host.md "What a session costs".
 * @module
 */
import type { Values } from './argOptions.js';
import { parseDuration } from './argValues.js';
import { usageError } from './errors.js';

/**
 * The sharing options given on the command line (absent ones keep the gateway's defaults).
 *
 * @example
 * ```ts
 * const sharing: GatewaySharing = { upstreams: 'shared', lanes: 2, sessionIdleMs: 120_000 };
 * ```
 */
export interface GatewaySharing {
  /** `--upstreams shared|per-session`. */
  readonly upstreams?: 'shared' | 'perSession';
  /** `--lanes N`: lanes per upstream for calls of clients that can be asked something. */
  readonly lanes?: number;
  /** `--session-idle DURATION`: an idle HTTP session never ended by its client ends after it. */
  readonly sessionIdleMs?: number;
  /** `--sessions-per-client N`: past it, the client's oldest idle session is replaced. */
  readonly sessionsPerClient?: number;
}

const HINT = 'mcpkit gateway --config mcp.json --http --upstreams shared --lanes 4 --session-idle 5m';

/**
 * Reads the sharing options of `gateway`.
 *
 * @throws {CliError} a usage error for a value out of range.
 * @example
 * ```ts
 * gatewaySharing({ upstreams: 'per-session' }); // { upstreams: 'perSession' }
 * ```
 */
export function gatewaySharing(values: Values): GatewaySharing {
  const mode = values.upstreams as string | undefined;
  if (mode !== undefined && mode !== 'shared' && mode !== 'per-session') {
    throw usageError(`--upstreams must be shared or per-session, got "${mode.slice(0, 40)}"`, HINT);
  }
  const idle = values['session-idle'] as string | undefined;
  const lanes = count(values, 'lanes', 0);
  const perClient = count(values, 'sessions-per-client', 1);
  if (mode === 'per-session' && lanes !== undefined) {
    throw usageError('--lanes applies to --upstreams shared only', HINT);
  }
  return {
    ...(mode === undefined ? {} : { upstreams: mode === 'shared' ? 'shared' : 'perSession' }),
    ...(lanes === undefined ? {} : { lanes }),
    ...(idle === undefined ? {} : { sessionIdleMs: parseDuration(idle, 'session-idle') }),
    ...(perClient === undefined ? {} : { sessionsPerClient: perClient }),
  };
}

function count(values: Values, name: 'lanes' | 'sessions-per-client', min: number): number | undefined {
  const text = values[name] as string | undefined;
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d{1,6}$/.test(text) || value < min) {
    throw usageError(`--${name} must be a whole number, at least ${min}; got "${text.slice(0, 40)}"`, HINT);
  }
  return value;
}
