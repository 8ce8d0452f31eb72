/**
 * The gateway: a host served as one MCP server. Every downstream session sees the whole
 * namespaced catalogue; its calls are routed to the owning upstreams, and what those upstreams
 * send back during a call (sampling, elicitation, progress, log messages) reaches that session
 * and no other.
 * @module
 */

import { announceApps } from '@mcpkit/apps/server';
import {
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  type Observer,
  type Transport,
} from '@mcpkit/core';
import { Server, type ServerSession } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/server/http';
import type { TaskManagerOptions } from '@mcpkit/server/tasks';
import { ServerUnavailableError } from '../errors.js';
import type { McpHost, McpHostOptions } from '../host.js';
import { installHandlers } from './handlers.js';
import { type GatewayReadiness, readinessOf } from './health.js';
import { UpstreamLanes } from './lanes.js';
import { type GatewayLimits, SessionLimiter } from './limits.js';
import { ListenFeed } from './listen.js';
import { ModernFront, type ModernFrontOptions } from './modern.js';
import type { Downstream } from './router.js';
import { type RoutedHost, rootsChanged, routedHost, type SessionState } from './sessionHost.js';
import { GatewayTasks } from './tasks.js';

/**
 * Options of {@link createGateway}.
 *
 * @example
 * ```ts
 * import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
 * const servers = await loadHostConfig('mcp.json');
 * const options: GatewayOptions = { host: { servers, connector: nodeConnector() }, lanes: 2 };
 * ```
 */
export interface GatewayOptions {
  /** The host behind the gateway: servers, connector, policy, audit. Its hooks are optional. */
  host: McpHostOptions;
  /**
   * `shared` (default): one connection to each upstream for every session, plus at most
   * {@link lanes} more for the calls of clients that can be asked something (sampling,
   * elicitation, forwarded roots), each leased to one call at a time, so what an upstream asks
   * reaches the client whose call caused it; the upstream processes do not grow with the
   * sessions. `perSession`: every downstream session gets its own upstream connections (and
   * processes), isolated from every other session's (see docs/host.md).
   */
  upstreams?: 'perSession' | 'shared';
  /**
   * With shared upstreams: connections per upstream server, besides the shared one, that a call
   * of a client that can be asked something holds alone while it runs; more such calls wait for
   * one. Default 4. `0`: none; every call shares the one connection, and an upstream's question
   * while calls of several clients are in flight on it is refused.
   */
  lanes?: number;
  /** With shared upstreams: a lane unused this long (ms) is closed, its process ended. Default 300 000. */
  laneIdleMs?: number;
  /** How the gateway introduces itself downstream. */
  info?: Implementation;
  /**
   * Give each upstream without `roots` in its policy the roots of the calling client (asked on
   * each `roots/list`; the client's `roots/list_changed` is passed on). Default false: upstreams
   * see only the roots the host's policy gives them.
   */
  forwardRoots?: boolean;
  /**
   * Page the listings (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`)
   * this many items at a time, with `nextCursor`. Default: every item in one page.
   */
  pageSize?: number;
  /**
   * Token buckets per downstream session and upstream server for `tools/call` and sampling; a
   * request past one is refused with `-32029` naming the limit. Default: none.
   */
  limits?: GatewayLimits;
  /**
   * Serve tasks (2025-11-25): a `tools/call` with `task` gets a task of the gateway's that
   * follows the upstream's (see docs/host.md). Default true; options tune the gateway's
   * `TaskManager` (TTLs, store, `tasks/list`). `false`: no `tasks` capability, and tools are
   * listed without `execution`.
   */
  tasks?: boolean | TaskManagerOptions;
  /**
   * Revision 2026-07-28 requests (which have no session) run on hosts leased from a pool, one
   * request at a time (a principal's requests that can be asked nothing, because their client
   * declared no elicitation, sampling or forwarded roots, share one host at once); an upstream's
   * elicitation, sampling or roots request becomes an
   * input-required round (see docs/host.md). Limits: `maxHosts` (8), `parkMs` (300 000).
   */
  modern?: ModernFrontOptions;
  /**
   * Sees the downstream server's requests and sessions (metrics, tracing, logs; see
   * docs/observability.md). Default: none, at no cost.
   */
  observer?: Observer;
}

/** The caller of the host that only subscribes for listen streams: it asks nobody. */
const NOBODY: Downstream = {
  key: 'listen',
  closed: true,
  clientCapabilities: {},
  request: () => Promise.reject(new Error('Nobody to ask')),
  notify: () => undefined,
  log: () => undefined,
};

/** The default `maxSessions` of a per-session gateway's HTTP handler. */
const PER_SESSION_MAX_SESSIONS = 100;

/**
 * The gateway's HTTP handler defaults: a session idle this long, never ended by its client
 * (most clients close without DELETE), ends in minutes rather than the handler's 30.
 */
const GATEWAY_SESSION_IDLE_MS = 5 * 60_000;

/** Sessions one client (principal, else remote address) may hold: past it, its oldest idle one is replaced. */
const GATEWAY_SESSIONS_PER_CLIENT = 32;

/** Default lanes per upstream of a shared gateway. */
const DEFAULT_LANES = 4;

/**
 * An MCP server that serves a host's whole catalogue.
 *
 * @example
 * ```ts
 * import { createGateway } from '@mcpkit/host/gateway';
 * import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
 * import { StdioServerTransport } from '@mcpkit/node/stdio';
 *
 * const gateway = createGateway({ host: { servers: await loadHostConfig('mcp.json'), connector: nodeConnector() } });
 * gateway.connect(new StdioServerTransport());
 * ```
 */
export class McpGateway {
  /** The downstream MCP server (attach more transports, middleware, or `protect()` its handler). */
  readonly server: Server;
  private readonly sessions = new Map<ServerSession, SessionState>();
  private readonly shared: RoutedHost | undefined;
  private readonly lanes: UpstreamLanes | undefined;
  private readonly http: StreamableHttpHandler[] = [];
  private readonly limiter: SessionLimiter | undefined;
  private readonly tasks: GatewayTasks | undefined;
  private readonly modern: ModernFront;
  /** What 2026 clients hear on `subscriptions/listen`. */
  private readonly listen: ListenFeed;
  /** The level last asked of a shared host's upstreams, if any. */
  private sharedLevel: LoggingLevel | undefined;

  constructor(private readonly options: GatewayOptions) {
    if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) {
      throw new TypeError('pageSize must be a positive integer');
    }
    this.limiter = options.limits ? new SessionLimiter(options.limits) : undefined;
    const tasks = options.tasks ?? true;
    this.tasks = tasks === false ? undefined : new GatewayTasks(tasks === true ? {} : tasks);
    this.server = new Server(options.info ?? { name: 'mcpkit-gateway', version: '0.1.0' }, {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
        ...this.tasks?.capabilities,
      },
      observer: options.observer,
    });
    this.tasks?.install(this.server);
    // The upstreams' MCP Apps pass through when the host declares the extension to them; clients
    // that do not declare it downstream see the listings without apps.
    if (options.host.apps) announceApps(this.server);
    if (options.upstreams !== 'perSession') {
      this.lanes = new UpstreamLanes(options.host, {
        size: options.lanes ?? DEFAULT_LANES,
        idleMs: options.laneIdleMs,
        forwardRoots: options.forwardRoots,
        limiter: this.limiter,
      });
      const routed = routedHost(options.host, { forwardRoots: options.forwardRoots, limiter: this.limiter });
      this.shared = { ...routed, lanes: this.lanes };
      this.shared.host.onListChanged(({ kind }) => {
        for (const session of this.sessions.keys()) void session.notify(`notifications/${kind}/list_changed`);
        this.listen.listChanged(kind);
      });
    }
    this.listen = new ListenFeed(this.server, () => this.shared ?? this.listenHost(), !this.shared);
    this.modern = new ModernFront(
      // A leased host serves one 2026 request after another: no session to name in audit events.
      () => {
        const routed = routedHost(options.host, {
          forwardRoots: options.forwardRoots,
          limiter: this.limiter,
          auditSession: false,
        });
        routed.host.onListChanged(({ kind }) => this.listen.listChanged(kind));
        return { ...routed, subscriptions: new Map() };
      },
      { ...options.modern, forwardRoots: options.forwardRoots },
      this.shared && { ...this.shared, subscriptions: new Map() },
    );
    this.server.onSessionClosed((session) => void this.release(session));
    if (options.forwardRoots) {
      this.server.onNotification('notifications/roots/list_changed', (_params, session) => {
        void this.rootsChanged(session);
      });
    }
    installHandlers(this.server, {
      stateOf: (session) => this.stateOf(session),
      levelChanged: (session) => this.levelChanged(session),
      pageSize: options.pageSize,
      limiter: this.limiter,
      tasks: this.tasks,
      modern: this.modern,
      apps: options.host.apps === true,
    });
  }

  /**
   * Serves one downstream client on `transport` (stdio, in memory, …).
   *
   * @example
   * ```ts
   * import { StdioServerTransport } from '@mcpkit/node/stdio';
   * declare const gateway: McpGateway;
   * const session = gateway.connect(new StdioServerTransport());
   * ```
   */
  connect(transport: Transport): ServerSession {
    return this.server.connect(transport);
  }

  /**
   * A Streamable HTTP endpoint for the gateway (a fetch-style handler; wrap it in `protect()`).
   * Defaults for a gateway: a session idle for 5 minutes ends (`sessionIdleTimeout`), one client
   * holds at most 32 sessions (`maxSessionsPerClient`; past it its oldest idle one is replaced),
   * and with per-session upstreams `maxSessions` is 100.
   *
   * @example
   * ```ts
   * import { createServer } from 'node:http';
   * import { toNodeListener } from '@mcpkit/node/http';
   * declare const gateway: McpGateway;
   * const handler = gateway.httpHandler();
   * createServer(toNodeListener(handler)).listen(3000, '127.0.0.1');
   * ```
   */
  httpHandler(options?: StreamableHttpHandlerOptions): StreamableHttpHandler {
    // Each session starts its own upstreams (processes, for stdio): far fewer sessions than the
    // handler's default, unless the caller says otherwise.
    const handler = createStreamableHttpHandler(this.server, {
      sessionIdleTimeout: GATEWAY_SESSION_IDLE_MS,
      maxSessionsPerClient: GATEWAY_SESSIONS_PER_CLIENT,
      ...(this.shared ? {} : { maxSessions: PER_SESSION_MAX_SESSIONS }),
      ...options,
    });
    this.http.push(handler);
    return handler;
  }

  /**
   * The hosts serving now: the shared one and its lanes (one host per lane), or one per
   * downstream session; then the 2026 front's.
   *
   * @example
   * ```ts
   * declare const gateway: McpGateway;
   * for (const host of gateway.hosts()) console.log(host.status());
   * ```
   */
  hosts(): McpHost[] {
    const listen = this.listen.host();
    const modern = listen && !this.shared ? [...this.modern.hosts(), listen.host] : this.modern.hosts();
    if (this.shared) return [this.shared.host, ...(this.lanes?.hosts() ?? []), ...modern];
    return [...[...this.sessions.values()].map((state) => state.host), ...modern];
  }

  /**
   * Every upstream's state across the hosts serving now, for a `/readyz` endpoint: not `ready`
   * while an upstream is failed, degraded (its keep-alive ping failed) or restarting.
   *
   * @example
   * ```ts
   * declare const gateway: McpGateway;
   * const { ready, servers } = gateway.readiness();
   * const response = Response.json({ ready, servers }, { status: ready ? 200 : 503 });
   * ```
   */
  readiness(): GatewayReadiness {
    const servers = this.options.host.servers.filter((entry) => !entry.disabled).map((entry) => entry.name);
    return readinessOf(servers, this.hosts());
  }

  /**
   * Restarts one upstream server on purpose (see `McpHost.restart`) on every host that runs it:
   * its new code serves every session, each of which is told its lists may have changed
   * (`notifications/tools/list_changed` and the others). A shared host that has not started it
   * yet starts it now, so a server that cannot start is reported at once. Resolves once every host
   * has it back; rejects with the first failure (the other hosts are restarted all the same).
   *
   * @throws {ServerUnavailableError} an unknown or disabled server, or a failed start.
   * @example
   * ```ts
   * declare const gateway: McpGateway;
   * await gateway.restart('dev'); // after the server's source changed
   * ```
   */
  async restart(server: string): Promise<void> {
    if (!this.options.host.servers.some((entry) => entry.name === server && !entry.disabled)) {
      throw new ServerUnavailableError(server, 'stopped', `The gateway has no enabled server "${server}"`);
    }
    const hosts = this.hosts().filter(
      (host) =>
        host === this.shared?.host || host.status().some((s) => s.server === server && s.state !== 'stopped'),
    );
    const results = await Promise.allSettled(hosts.map((host) => host.restart(server)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Closes the HTTP endpoints, every downstream session and every upstream server. */
  async close(): Promise<void> {
    await Promise.allSettled(this.http.map((handler) => handler.close()));
    await this.tasks?.close();
    await this.modern.close();
    await this.listen.close();
    await this.server.close();
    await Promise.allSettled([...this.sessions.keys()].map((session) => this.release(session)));
    await this.lanes?.close();
    await this.shared?.host.close();
  }

  /** The host that subscribes for 2026 listen streams: it hears list changes too, and asks nobody. */
  private listenHost(): RoutedHost {
    const routed = routedHost(this.options.host, { owner: NOBODY, auditSession: false });
    routed.host.onListChanged(({ kind }) => this.listen.listChanged(kind));
    return routed;
  }

  private stateOf(session: ServerSession): SessionState {
    let state = this.sessions.get(session);
    if (!state) {
      const routed =
        this.shared ??
        routedHost(this.options.host, {
          owner: session,
          forwardRoots: this.options.forwardRoots,
          limiter: this.limiter,
        });
      state = { ...routed, subscriptions: new Map() };
      if (!this.shared) {
        routed.host.onListChanged(({ kind }) => {
          void session.notify(`notifications/${kind}/list_changed`);
          this.listen.listChanged(kind);
        });
      }
      this.sessions.set(session, state);
      if (this.shared && this.sharedLevel !== undefined) void this.syncSharedLevel();
    }
    return state;
  }

  /** A session asked for a log level: its own host's upstreams are told, or the shared one's. */
  private async levelChanged(session: ServerSession): Promise<void> {
    const state = this.stateOf(session);
    if (this.shared) await this.syncSharedLevel();
    else if (session.logLevel !== undefined) await state.host.setLogLevel(session.logLevel);
  }

  /**
   * A shared host's upstreams are told the most verbose level any session wants (a session that
   * set none wants everything); each session's own level filters what it is sent.
   */
  private async syncSharedLevel(): Promise<void> {
    const wanted = [...this.sessions.keys()].filter((s) => !s.closed).map((s) => s.logLevel ?? 'debug');
    if (!this.shared || wanted.length === 0) return;
    const level = LOGGING_LEVELS[Math.min(...wanted.map((l) => LOGGING_LEVELS.indexOf(l)))]!;
    if (level === this.sharedLevel) return;
    if (this.sharedLevel === undefined && level === 'debug') return; // nobody asked for less yet
    this.sharedLevel = level;
    await Promise.all([this.shared.host.setLogLevel(level), this.lanes?.setLogLevel(level)]);
  }

  /**
   * A client's roots changed. Per-session: every running upstream of its host that sees them is
   * told. Shared: the shared connection and each lane, for the upstreams whose roots came from
   * that client (whose last `roots/list` it answered).
   */
  private async rootsChanged(session: ServerSession): Promise<void> {
    if (this.shared) {
      await Promise.all([
        rootsChanged(this.shared, session, this.options.host.policy, false),
        this.lanes?.rootsChanged(session),
      ]);
      return;
    }
    const state = this.sessions.get(session);
    if (state) await rootsChanged(state, session, this.options.host.policy, true);
  }

  private async release(session: ServerSession): Promise<void> {
    const state = this.sessions.get(session);
    if (!state) return;
    this.sessions.delete(session);
    const ends = [...state.subscriptions.values()].map((end) => end());
    await Promise.allSettled(ends);
    if (!this.shared) await state.host.close();
    else await this.syncSharedLevel();
  }
}

/**
 * Serves a host as one MCP server.
 *
 * @example
 * ```ts
 * import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
 * const gateway = createGateway({ host: { servers: await loadHostConfig('mcp.json'), connector: nodeConnector() } });
 * const handler = gateway.httpHandler();
 * ```
 */
export function createGateway(options: GatewayOptions): McpGateway {
  return new McpGateway(options);
}
