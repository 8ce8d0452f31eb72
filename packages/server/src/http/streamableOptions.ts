/**
 * The options of the Streamable HTTP handler, and their resolution into the settings its parts
 * use (checked once, when the handler is made).
 * @module
 */
import { DEFAULT_MAX_JSON_DEPTH } from '@mcpkit/core';
import { type EventStore, InMemoryEventStore } from './delivery/eventStore.js';
import { DEFAULT_KEEP_ALIVE_INTERVAL } from './delivery/sse.js';
import type { HttpRequestExtra } from './fetchHandler.js';
import type { RawHttpRequest } from './rawHttp.js';
import type { HostSecurityOptions } from './security.js';
import type { SessionFrontOptions } from './sessions/front.js';
import type { SessionStore } from './sessions/store.js';

/** Options of {@link createStreamableHttpHandler}. Every one has a safe default. */
export interface StreamableHttpHandlerOptions extends HostSecurityOptions {
  /**
   * Serve without sessions: no `Mcp-Session-Id`, every POST is answered by a throwaway session
   * over the same server definition, GET and DELETE get 405. Requests to the client (sampling,
   * elicitation, roots) are unavailable; progress and logs still reach the caller. Default false.
   */
  stateless?: boolean;
  /**
   * Answer requests with a JSON body instead of an SSE stream. A request whose handler sends
   * anything before its result (progress, logs, a request to the client) still gets an SSE stream:
   * the choice is made when the first message for it is ready. Default false (always SSE).
   */
  enableJsonResponse?: boolean;
  /**
   * Where SSE events are kept for resumption (`GET` with `Last-Event-ID`) and SSE polling.
   * Default: a bounded {@link InMemoryEventStore} per handler. `false` turns resumability off.
   * Ignored in stateless mode.
   */
  eventStore?: EventStore | false;
  /** The `retry:` value (ms) sent with priming events: how long clients wait to reconnect. Default 1 000. */
  retryInterval?: number;
  /**
   * Idle SSE connections get a `: keep-alive` comment this often (ms). `false` turns it off.
   * Default 8 000: below Bun's 10 s idle timeout, the shortest of the runtimes, so a silent call
   * is not cut there. Keep it below the idle timeout of any proxy in front of the server.
   */
  keepAliveInterval?: number | false;
  /** A session with no request, no stream and no traffic for this long (ms) ends. `false`: never. Default 30 min. */
  sessionIdleTimeout?: number | false;
  /**
   * Open sessions at most. At the cap a new `initialize` takes the place of the least recently
   * active idle session (no stream open, nothing in flight); only when every session is busy is it
   * refused (503). Default 10 000.
   */
  maxSessions?: number;
  /**
   * Sessions one client may hold at once, counted by principal (`authInfo.clientId`) when the
   * request is authenticated, else by the socket's remote address (as the host adapter reports
   * it; `@mcpkit/node/http` does, headers never count). Past it the client's own least recently
   * active idle session is replaced, or, when all of them are busy, the `initialize` gets 429.
   * Default: no quota.
   */
  maxSessionsPerClient?: number;
  /**
   * A session whose client has not sent `notifications/initialized` this long (ms) after
   * `initialize` ends, unless a stream or request keeps it busy. `false`: never. Default 30 000.
   */
  handshakeTimeout?: number | false;
  /** Largest accepted POST body in bytes (413 beyond, enforced while reading). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a body, checked before parsing; deeper
   * bodies get 400 with a `-32700` that names the limit. Default 512 (`DEFAULT_MAX_JSON_DEPTH`).
   */
  maxJsonDepth?: number;
  /** Bytes a client may leave unread on one SSE connection before it is disconnected. Default 8 MiB. */
  maxBufferedBytes?: number;
  /**
   * Offer the standalone GET stream for messages that belong to no request. When false, a GET
   * without `Last-Event-ID` gets 405 (resuming a stream by GET still works). Default true.
   */
  enableGetStream?: boolean;
  /** Let clients end their session with DELETE (405 otherwise). Default true. */
  enableDelete?: boolean;
  /**
   * Reject an `MCP-Protocol-Version` header that names a supported revision other than the
   * negotiated one (400). Default false: any supported revision is accepted and the session keeps
   * speaking its negotiated one, because real clients (the conformance suite among them) send
   * `2025-03-26` on later sessions. Unsupported values always get 400.
   */
  strictProtocolVersion?: boolean;
  /**
   * Makes session ids. Must return unguessable strings of visible ASCII (0x21-0x7E), at most 128
   * characters. Default `crypto.randomUUID()`.
   */
  sessionIdGenerator?: () => string;
  /**
   * Looks at each POST before its body is read and returns the milliseconds the client must wait
   * (a positive number refuses it: 429 with `Retry-After`), else `0`/`undefined`. For
   * `rateLimit().httpGate` of `@mcpkit/server/guards`. Default: none.
   */
  gate?: (
    request: RawHttpRequest,
    extra: HttpRequestExtra | undefined,
  ) => number | undefined | Promise<number | undefined>;
  /**
   * Keeps sessions in a store several server processes share (`RedisSessionStore` from
   * `@mcpkit/redis`), so any of them serves any session: a process that does not know a session id
   * restores the session from its record, with no new handshake; DELETE and idle expiry
   * (`sessionIdleTimeout`) hold on every process. Use with a shared `eventStore`. When the store
   * cannot be reached, requests get 503. Default: none, sessions live in this process only.
   */
  sessionStore?: SessionStore;
}

const DEFAULTS = {
  retryInterval: 1_000,
  keepAliveInterval: DEFAULT_KEEP_ALIVE_INTERVAL,
  sessionIdleTimeout: 30 * 60_000,
  handshakeTimeout: 30_000,
  maxSessions: 10_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxBufferedBytes: 8 * 1024 * 1024,
} as const;

/** The handler's options, checked and with their defaults: what its parts are built from. */
export interface StreamableSettings {
  readonly stateless: boolean;
  readonly eventStore: EventStore | undefined;
  readonly retryInterval: number;
  readonly maxBufferedBytes: number;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly preferJson: boolean;
  readonly enableGet: boolean;
  readonly enableDelete: boolean;
  /** The `Allow` header of a 405. */
  readonly allow: string;
  /** How often the housekeeping timer ticks (ms; `Infinity`: never). */
  readonly tickInterval: number;
  /** Idle time (ms) after which a connection gets a keep-alive at the next tick. */
  readonly keepAliveAfter: number;
  /** The session front's options; `undefined` in stateless mode, which has none. */
  readonly front: SessionFrontOptions | undefined;
}

/**
 * Checks `options` and fills in the defaults. Throws a `RangeError` for a value out of range.
 *
 * @example
 * ```ts
 * const settings = resolveStreamableOptions({ enableJsonResponse: true });
 * settings.preferJson; // true
 * ```
 */
export function resolveStreamableOptions(options: StreamableHttpHandlerOptions): StreamableSettings {
  const stateless = options.stateless ?? false;
  const keepAlive = optionalInterval(
    options.keepAliveInterval,
    DEFAULTS.keepAliveInterval,
    'keepAliveInterval',
  );
  const limits = {
    idleTimeout: optionalInterval(
      options.sessionIdleTimeout,
      DEFAULTS.sessionIdleTimeout,
      'sessionIdleTimeout',
    ),
    handshakeTimeout: optionalInterval(
      options.handshakeTimeout,
      DEFAULTS.handshakeTimeout,
      'handshakeTimeout',
    ),
    maxSessions: nonNegative(options.maxSessions, DEFAULTS.maxSessions, 'maxSessions'),
    maxPerClient: nonNegative(options.maxSessionsPerClient, Number.POSITIVE_INFINITY, 'maxSessionsPerClient'),
  };
  const enableDelete = options.enableDelete ?? true;
  // One timer serves keep-alive and expiry for every session of this handler. Stateless, there
  // is nothing to expire: with keep-alive off too (as on Workers) no timer ever starts.
  const expiry = stateless ? Number.POSITIVE_INFINITY : Math.min(limits.idleTimeout, limits.handshakeTimeout);
  const sweep = expiry === Number.POSITIVE_INFINITY ? expiry : clamp(expiry / 4, 10, 60_000);
  // keepAliveInterval bounds the silence on a connection: ticking at half of it and writing once
  // idle for the rest, no connection goes longer without a write (ticking at the full interval
  // would allow almost twice it, past Bun's 10 s).
  const tickInterval = Math.min(keepAlive / 2, sweep);
  return {
    stateless,
    eventStore:
      stateless || options.eventStore === false
        ? undefined
        : (options.eventStore ?? new InMemoryEventStore()),
    retryInterval: nonNegative(options.retryInterval, DEFAULTS.retryInterval, 'retryInterval'),
    maxBufferedBytes: nonNegative(options.maxBufferedBytes, DEFAULTS.maxBufferedBytes, 'maxBufferedBytes'),
    maxBodyBytes: nonNegative(options.maxBodyBytes, DEFAULTS.maxBodyBytes, 'maxBodyBytes'),
    maxJsonDepth: nonNegative(options.maxJsonDepth, DEFAULT_MAX_JSON_DEPTH, 'maxJsonDepth'),
    preferJson: options.enableJsonResponse ?? false,
    enableGet: options.enableGetStream ?? true,
    enableDelete,
    allow: stateless ? 'POST' : ['GET', 'POST', ...(enableDelete ? ['DELETE'] : [])].join(', '),
    tickInterval,
    keepAliveAfter: keepAlive === Number.POSITIVE_INFINITY ? keepAlive : keepAlive - tickInterval,
    front: stateless
      ? undefined
      : {
          limits,
          sessionStore: options.sessionStore,
          newSessionId: options.sessionIdGenerator ?? (() => crypto.randomUUID()),
          strictVersion: options.strictProtocolVersion ?? false,
        },
  };
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a finite number >= 0`);
  return value;
}

/** A duration option in ms: `false` is `Infinity` (never); anything else must be a positive finite number. */
export function optionalInterval(value: number | false | undefined, fallback: number, name: string): number {
  if (value === false) return Number.POSITIVE_INFINITY;
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value))
    throw new RangeError(`${name} must be a positive number of ms or false`);
  return value;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
