/**
 * The gateway: a host served as one MCP server. Every downstream session sees the whole
 * namespaced catalogue; its calls are routed to the owning upstreams, and what those upstreams
 * send back during a call (sampling, elicitation, progress, log messages) reaches that session
 * and no other.
 * @module
 */
import {
  type CallToolResult,
  ErrorCode,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
  type OutgoingRequestOptions,
  type Transport,
} from '@mcpkit/core';
import { type RequestContext, Server, type ServerSession } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/server/http';
import { ServerUnavailableError } from '../errors.js';
import type { McpHost, McpHostOptions } from '../host.js';
import type { CallRouter } from './router.js';
import { type RoutedHost, routedHost } from './sessionHost.js';

/**
 * Options of {@link createGateway}.
 *
 * @example
 * ```ts
 * import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
 * const servers = await loadHostConfig('mcp.json');
 * const options: GatewayOptions = { host: { servers, connector: nodeConnector() }, upstreams: 'perSession' };
 * ```
 */
export interface GatewayOptions {
  /** The host behind the gateway: servers, connector, policy, audit. Its hooks are optional. */
  host: McpHostOptions;
  /**
   * `perSession` (default): every downstream session gets its own upstream connections, so every
   * server-to-client request is routed exactly. `shared`: one set of upstream connections for
   * all sessions; such a request goes to the one session with a call in flight on that upstream,
   * and is refused when several have (see docs/host.md).
   */
  upstreams?: 'perSession' | 'shared';
  /** How the gateway introduces itself downstream. */
  info?: Implementation;
  /**
   * Give each upstream without `roots` in its policy the roots of the calling client (asked on
   * each `roots/list`; the client's `roots/list_changed` is passed on). Default false: upstreams
   * see only the roots the host's policy gives them.
   */
  forwardRoots?: boolean;
}

/** The default `maxSessions` of a per-session gateway's HTTP handler. */
const PER_SESSION_MAX_SESSIONS = 100;

interface SessionState extends RoutedHost {
  /** Downstream URI to the function that ends its upstream subscription. */
  readonly subscriptions: Map<string, () => Promise<void>>;
}

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
  private readonly http: StreamableHttpHandler[] = [];

  constructor(private readonly options: GatewayOptions) {
    this.server = new Server(options.info ?? { name: 'mcpkit-gateway', version: '0.1.0' }, {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
      },
    });
    if (options.upstreams === 'shared') {
      this.shared = routedHost(options.host, undefined, options.forwardRoots);
      this.shared.host.onListChanged(({ kind }) => {
        for (const session of this.sessions.keys()) void session.notify(`notifications/${kind}/list_changed`);
      });
    }
    this.server.onSessionClosed((session) => void this.release(session));
    if (options.forwardRoots) {
      this.server.onNotification('notifications/roots/list_changed', (_params, session) => {
        void this.rootsChanged(session);
      });
    }
    installHandlers(this.server, (ctx) => this.stateOf(ctx.session));
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
   * With per-session upstreams, `maxSessions` defaults to 100 (idle sessions expire as usual).
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
    const sessions = this.shared ? {} : { maxSessions: PER_SESSION_MAX_SESSIONS };
    const handler = createStreamableHttpHandler(this.server, { ...sessions, ...options });
    this.http.push(handler);
    return handler;
  }

  /**
   * The hosts serving now: the shared one, or one per downstream session.
   *
   * @example
   * ```ts
   * declare const gateway: McpGateway;
   * for (const host of gateway.hosts()) console.log(host.status());
   * ```
   */
  hosts(): McpHost[] {
    if (this.shared) return [this.shared.host];
    return [...this.sessions.values()].map((state) => state.host);
  }

  /** Closes the HTTP endpoints, every downstream session and every upstream server. */
  async close(): Promise<void> {
    await Promise.allSettled(this.http.map((handler) => handler.close()));
    await this.server.close();
    await Promise.allSettled([...this.sessions.keys()].map((session) => this.release(session)));
    await this.shared?.host.close();
  }

  private stateOf(session: ServerSession): SessionState {
    let state = this.sessions.get(session);
    if (!state) {
      const routed = this.shared ?? routedHost(this.options.host, session, this.options.forwardRoots);
      state = { ...routed, subscriptions: new Map() };
      if (!this.shared) {
        routed.host.onListChanged(({ kind }) => void session.notify(`notifications/${kind}/list_changed`));
      }
      this.sessions.set(session, state);
    }
    return state;
  }

  /** A client's roots changed: every running upstream that sees them is told. */
  private async rootsChanged(session: ServerSession): Promise<void> {
    const state = this.sessions.get(session);
    if (!state) return;
    for (const { server, state: upstream } of state.host.status()) {
      if (upstream !== 'ready' && upstream !== 'degraded') continue;
      if (this.options.host.policy?.[server]?.roots !== undefined) continue;
      const client = await state.host.client(server);
      await Promise.resolve(client.notify('notifications/roots/list_changed')).catch(() => undefined);
    }
  }

  private async release(session: ServerSession): Promise<void> {
    const state = this.sessions.get(session);
    if (!state) return;
    this.sessions.delete(session);
    const ends = [...state.subscriptions.values()].map((end) => end());
    await Promise.allSettled(ends);
    if (!this.shared) await state.host.close();
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

type StateOf = (ctx: RequestContext) => SessionState;

function installHandlers(server: Server, stateOf: StateOf): void {
  server.setRequestHandler('tools/list', async (_params, ctx) => ({
    tools: (await stateOf(ctx).host.tools()).map(strip),
  }));
  server.setRequestHandler('tools/call', (params, ctx) => callTool(stateOf(ctx), params, ctx));
  server.setRequestHandler('prompts/list', async (_params, ctx) => ({
    prompts: (await stateOf(ctx).host.prompts()).map(strip),
  }));
  server.setRequestHandler('prompts/get', async (params, ctx) => {
    const { host, router } = stateOf(ctx);
    const end = router.begin(await host.serverOf('prompts', params.name), ctx.session);
    try {
      return await host.getPrompt(params.name, params.arguments, forwarded(ctx));
    } finally {
      end();
    }
  });
  server.setRequestHandler('resources/list', async (_params, ctx) => ({
    resources: (await stateOf(ctx).host.resources()).map(strip),
  }));
  server.setRequestHandler('resources/templates/list', async (_params, ctx) => ({
    resourceTemplates: (await stateOf(ctx).host.resourceTemplates()).map(strip),
  }));
  server.setRequestHandler('resources/read', (params, ctx) =>
    stateOf(ctx).host.readResource(params.uri, forwarded(ctx)),
  );
  server.setRequestHandler('resources/subscribe', async (params, ctx) => {
    const state = stateOf(ctx);
    if (state.subscriptions.has(params.uri)) return {};
    const session = ctx.session;
    const end = await state.host.subscribe(params.uri, (uri) => {
      if (uri === params.uri) void session.notify('notifications/resources/updated', { uri });
    });
    state.subscriptions.set(params.uri, end);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (params, ctx) => {
    const state = stateOf(ctx);
    const end = state.subscriptions.get(params.uri);
    state.subscriptions.delete(params.uri);
    await end?.();
    return {};
  });
  server.setRequestHandler('completion/complete', (params, ctx) =>
    stateOf(ctx).host.complete(params, forwarded(ctx)),
  );
  server.setRequestHandler('logging/setLevel', (params, ctx) => {
    if (!(LOGGING_LEVELS as readonly string[]).includes(params.level)) {
      throw new McpError(ErrorCode.InvalidParams, `"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    ctx.session.logLevel = params.level as LoggingLevel;
    return {};
  });
}

/** A call: marked in flight for routing; a server that is down is a tool error, not a crash. */
async function callTool(
  state: { host: McpHost; router: CallRouter },
  params: { name: string; arguments?: Record<string, unknown> },
  ctx: RequestContext,
): Promise<CallToolResult> {
  const end = state.router.begin(await state.host.serverOf('tools', params.name), ctx.session);
  try {
    return await state.host.callTool(params.name, params.arguments ?? {}, forwarded(ctx));
  } catch (error) {
    if (!(error instanceof ServerUnavailableError)) throw error;
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  } finally {
    end();
  }
}

/** The downstream request's cancellation and progress, passed to the upstream call. */
function forwarded(ctx: RequestContext): OutgoingRequestOptions {
  const options: OutgoingRequestOptions = { signal: ctx.signal };
  if (ctx.meta?.progressToken !== undefined) {
    options.onProgress = (update) => void ctx.progress(update.progress, update.total, update.message);
  }
  return options;
}

/** A catalogue entry as the wire shows it: without the host's bookkeeping. */
function strip<T extends object>(entry: T & { server: string; original: string }): T {
  const { server: _server, original: _original, ...item } = entry;
  return item as unknown as T;
}
