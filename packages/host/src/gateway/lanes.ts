/**
 * Lanes: a small pool of extra connections to each upstream, for the calls of a gateway with
 * shared upstreams whose client can be asked something.
 *
 * On one shared connection, an upstream's `sampling/createMessage`, `elicitation/create` or
 * `roots/list` carries nothing that names the call it is about (over stdio, under 2025-11-25), so
 * when calls of several clients overlap there the gateway cannot tell whose it is and must refuse
 * it. A call whose client could answer such a question (it declared `sampling` or `elicitation`,
 * or `roots` when the gateway forwards roots) therefore leases a lane of its upstream alone, for
 * as long as it runs: whatever that connection asks meanwhile is that call's, exactly, as with a
 * connection per session. Calls of clients that can be asked nothing share the host's one
 * connection. A server has at most `size` lanes, started on first need and closed after
 * `idleMs` unused; a call finding them all leased waits for one (first come, first served), so
 * the upstream processes of a gateway are bounded per server, however many downstream sessions
 * it serves.
 *
 * A lane is a host of its own over that one server (same policy, hooks and connector), so a
 * lane's upstream is started, restarted and policed like the shared one.
 * @module
 */
import {
  type CancelSource,
  type ClientCapabilities,
  ErrorCode,
  type LoggingLevel,
  McpError,
} from '@mcpkit/core';
import type { McpHost, McpHostOptions } from '../host.js';
import type { SessionLimiter } from './limits.js';
import type { Downstream } from './router.js';
import { type RoutedHost, rootsChanged, routedHost } from './sessionHost.js';

/**
 * Options of {@link UpstreamLanes}.
 *
 * @example
 * ```ts
 * const options: LaneOptions = { size: 4, forwardRoots: false };
 * ```
 */
export interface LaneOptions {
  /** Lanes per upstream server at most; 0: none (every call shares the one connection). */
  readonly size: number;
  /** A lane idle this long (ms) is closed (its process ends); started again on need. Default 5 min. */
  readonly idleMs?: number | undefined;
  /** The gateway forwards its clients' roots: a client with `roots` can be asked too. */
  readonly forwardRoots?: boolean | undefined;
  /** The gateway's rate limits (sampling is counted per session on a lane too). */
  readonly limiter?: SessionLimiter | undefined;
}

/** One extra connection to a server, leased to one call at a time. */
interface Lane {
  readonly routed: RoutedHost;
  /** When it was last released (`Date.now()`). */
  idleSince: number;
}

/** The lanes of one server. */
interface ServerLanes {
  readonly all: Lane[];
  readonly idle: Lane[];
  /** Calls waiting for a lane, first come first served. */
  readonly waiting: Array<(lane: Lane | undefined) => void>;
}

/**
 * The lanes of every upstream of a shared gateway.
 *
 * @example
 * ```ts
 * declare const session: Downstream;
 * const lanes = new UpstreamLanes({ servers, connector }, { size: 4 });
 * if (lanes.wants(session)) {
 *   const result = await lanes.call('everything', 'echo', { message: 'hi' }, session, {});
 * }
 * ```
 */
export class UpstreamLanes {
  private readonly servers = new Map<string, ServerLanes>();
  private closed = false;
  private readonly idleMs: number;
  /** The one timer that closes idle lanes; running only while some lane is idle. */
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly attributableServers = new Map<string, boolean>();
  /** The level the gateway last asked of its upstreams, for lanes started later. */
  private level: LoggingLevel | undefined;

  constructor(
    private readonly host: McpHostOptions,
    private readonly options: LaneOptions,
  ) {
    if (!(Number.isInteger(options.size) && options.size >= 0)) {
      throw new TypeError('lanes must be a whole number, 0 or more');
    }
    this.idleMs = options.idleMs ?? DEFAULT_LANE_IDLE_MS;
    if (!(this.idleMs > 0 && Number.isFinite(this.idleMs))) {
      throw new TypeError('laneIdleMs must be a positive number of milliseconds');
    }
  }

  /**
   * Whether a call of `downstream` on `server` needs a lane: lanes exist, its client can be
   * asked something, and what `server` asks about a call does not say which call it is about.
   */
  wants(server: string, downstream: Downstream): boolean {
    return this.options.size > 0 && this.askable(downstream.clientCapabilities) && !this.attributable(server);
  }

  /**
   * Whether `server` names the call its questions are about: a Streamable HTTP server sends them
   * on that call's own response stream (2025-11-25) or in that call's input-required rounds
   * (2026-07-28); the client reports either as `onBehalfOf`. Not the legacy SSE transport (one
   * stream for everything, and `auto` may fall back to it only with 2025). Forwarded roots too:
   * the policy's roots function is given the `roots/list` request, `onBehalfOf` included.
   */
  attributable(server: string): boolean {
    let known = this.attributableServers.get(server);
    if (known === undefined) {
      const entry = this.host.servers.find((candidate) => candidate.name === server);
      known = entry?.kind === 'url' && entry.transport !== 'sse';
      this.attributableServers.set(server, known);
    }
    return known;
  }

  /**
   * Runs `work` on a lane of `server` leased to `downstream` alone (waiting for one when all are
   * leased): the lane's questions go to `downstream` until `work` ends.
   *
   * @throws {McpError} `-32800`-style cancellation when `cancel` stops while waiting.
   */
  async run<T>(
    server: string,
    downstream: Downstream,
    cancel: CancelSource | undefined,
    work: (host: McpHost) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new McpError(ErrorCode.InternalError, 'The gateway is closing');
    const lanes = this.lanesOf(server);
    const lane = await this.lease(lanes, server, cancel);
    lane.routed.router.owner = downstream;
    try {
      return await work(lane.routed.host);
    } finally {
      lane.routed.router.owner = undefined;
      this.release(lanes, lane);
    }
  }

  /** The hosts of every lane started so far. */
  hosts(): McpHost[] {
    return [...this.servers.values()].flatMap((lanes) => lanes.all.map((lane) => lane.routed.host));
  }

  /** Asks every lane's upstream, and every lane started later, for `level`. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.level = level;
    await Promise.allSettled(this.hosts().map((host) => host.setLogLevel(level)));
  }

  /** Tells the upstream of every lane whose roots came from `downstream` that they changed. */
  async rootsChanged(downstream: Downstream): Promise<void> {
    const lanes = [...this.servers.values()].flatMap((server) => server.all);
    await Promise.allSettled(
      lanes.map((lane) => rootsChanged(lane.routed, downstream, this.host.policy, false)),
    );
  }

  /** Closes every lane. */
  async close(): Promise<void> {
    const hosts = this.hosts();
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const lanes of this.servers.values())
      for (const waiter of lanes.waiting.splice(0)) waiter(undefined);
    this.servers.clear();
    await Promise.allSettled(hosts.map((host) => host.close()));
  }

  private askable(capabilities: ClientCapabilities): boolean {
    return (
      capabilities.elicitation !== undefined ||
      capabilities.sampling !== undefined ||
      (this.options.forwardRoots === true && capabilities.roots !== undefined)
    );
  }

  private lanesOf(server: string): ServerLanes {
    let lanes = this.servers.get(server);
    if (!lanes) {
      lanes = { all: [], idle: [], waiting: [] };
      this.servers.set(server, lanes);
    }
    return lanes;
  }

  private lease(lanes: ServerLanes, server: string, cancel: CancelSource | undefined): Promise<Lane> {
    const idle = lanes.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (lanes.all.length < this.options.size) {
      const lane = { routed: this.start(server), idleSince: 0 };
      lanes.all.push(lane);
      return Promise.resolve(lane);
    }
    if (cancel?.stopped) return Promise.reject(cancelled(cancel));
    return new Promise<Lane>((resolve, reject) => {
      const take = (lane: Lane | undefined) => {
        cancel?.removeCancelListener(stop);
        if (lane) resolve(lane);
        else reject(new McpError(ErrorCode.InternalError, 'The gateway is closing'));
      };
      const stop = () => {
        const at = lanes.waiting.indexOf(take);
        if (at >= 0) lanes.waiting.splice(at, 1);
        reject(cancelled(cancel!));
      };
      cancel?.addCancelListener(stop);
      lanes.waiting.push(take);
    });
  }

  private release(lanes: ServerLanes, lane: Lane): void {
    if (this.closed) return;
    const next = lanes.waiting.shift();
    if (next) {
      next(lane);
      return;
    }
    lane.idleSince = Date.now();
    lanes.idle.push(lane);
    this.sweeper ??= unref(setInterval(() => this.sweep(), Math.min(this.idleMs, 60_000)));
  }

  /** Closes the lanes idle for `idleMs`; stops the timer once none is idle. */
  private sweep(): void {
    const now = Date.now();
    let idle = 0;
    for (const lanes of this.servers.values()) {
      for (const lane of [...lanes.idle]) {
        if (now - lane.idleSince < this.idleMs) {
          idle++;
          continue;
        }
        lanes.idle.splice(lanes.idle.indexOf(lane), 1);
        lanes.all.splice(lanes.all.indexOf(lane), 1);
        void lane.routed.host.close().catch(() => undefined);
      }
    }
    if (idle === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** A host over `server` alone, whose questions go to the lane's owner of the moment. */
  private start(server: string): RoutedHost {
    const entry = this.host.servers.find((candidate) => candidate.name === server);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `No server "${server}" behind this gateway`);
    const routed = routedHost(
      // One server: its names are never namespaced, so a call uses the catalogue's name before
      // namespacing (what `route().original` says).
      { ...this.host, servers: [entry], naming: { ...this.host.naming, mode: 'onCollision' } },
      { forwardRoots: this.options.forwardRoots, limiter: this.options.limiter },
    );
    if (this.level !== undefined) void routed.host.setLogLevel(this.level).catch(() => undefined);
    return routed;
  }
}

/** How long a lane may stay unused before it is closed, by default. */
const DEFAULT_LANE_IDLE_MS = 5 * 60_000;

/** A timer that does not keep the process alive (where the runtime has `unref`). */
function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

function cancelled(cancel: CancelSource): unknown {
  return (
    cancel.stopReason ?? new McpError(ErrorCode.RequestTimeout, 'Cancelled while waiting for the upstream')
  );
}
