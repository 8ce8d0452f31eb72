/**
 * The Streamable HTTP endpoint (MCP 2025-03-26 and later) as a web-standard function:
 * `(Request) => Promise<Response>`. It runs wherever `fetch` types exist (Node through
 * `@mcpkit/node/http`, Bun, Deno, Workers) and mounts in any framework.
 * @module
 */
import {
  DEFAULT_HTTP_PROTOCOL_VERSION,
  DEFAULT_MAX_JSON_DEPTH,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  type MessageExtra,
  type ProtocolVersion,
  type RequestId,
} from '@mcpkit/core';
import { codecFor, negotiateProtocolVersion, toError } from '@mcpkit/core/internal';
import type { RequestContext } from '../context.js';
import type { Server } from '../server.js';
import type { SessionConnectOptions } from '../session.js';
import { accepts, readJsonPost } from './body.js';
import {
  type BodySummary,
  checkModernPost,
  isModernStreamRequest,
  type ModernPost,
  modernPostOf,
  modernStatus,
  summarize,
} from './classify.js';
import { CorsPolicy, withCors } from './cors.js';
import { type EventStore, InMemoryEventStore } from './delivery/eventStore.js';
import {
  type HttpEndpoint,
  type HttpRequestExtra,
  type McpHttpHandler,
  toFetchHandler,
} from './fetchHandler.js';
import type { RawHttpRequest } from './rawHttp.js';
import { HttpMessageExtra } from './requestView.js';
import { emptyReply, PROTOCOL_VERSION_HEADER, Refuse, Reply, SESSION_HEADER } from './responses.js';
import { createHostGuard, type HostGuard, type HostSecurityOptions } from './security.js';
import type { SessionStore } from './sessions/store.js';
import { clientKeyOf, mayUseSession, principalOf, type SessionLimits, SessionTable } from './sessions/table.js';
import { type ExchangeOptions, type HttpRuntime, HttpSessionTransport } from './delivery/transport.js';
import type { SharedRefusal, SharedSessions } from './sessions/shared.js';
import { type ConnectionRegistry, DEFAULT_KEEP_ALIVE_INTERVAL, KEEP_ALIVE } from './delivery/sse.js';
import { SHARED_SESSIONS } from './sessions/storeErrors.js';

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

/**
 * A Streamable HTTP endpoint: a function of exactly one `Request`, which every runtime can take
 * as its `fetch`, plus `handle(request, extra)` for an authentication layer that verified the
 * caller.
 *
 * @example
 * ```ts
 * declare const request: Request;
 * declare function verifyToken(request: Request): Promise<AuthInfo>;
 * declare const Deno: { serve(handler: (request: Request, info: unknown) => Promise<Response>): void };
 * const handler = createStreamableHttpHandler(server);
 * Deno.serve(handler);
 * // Behind your own authentication: the verified caller becomes ctx.authInfo.
 * const response = await handler.handle(request, { authInfo: await verifyToken(request) });
 * // On shutdown:
 * await handler.close();
 * ```
 */
export interface StreamableHttpHandler extends McpHttpHandler {}

const DEFAULTS = {
  retryInterval: 1_000,
  keepAliveInterval: DEFAULT_KEEP_ALIVE_INTERVAL,
  sessionIdleTimeout: 30 * 60_000,
  handshakeTimeout: 30_000,
  maxSessions: 10_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxBufferedBytes: 8 * 1024 * 1024,
} as const;

const BOTH_TYPES = 'application/json and text/event-stream';
const MAX_EVENT_ID_LENGTH = 256;

/**
 * Creates the Streamable HTTP endpoint for `server`: one function serving POST, GET and DELETE on
 * the MCP endpoint path, with every session sharing the one server definition.
 *
 * Secure by default: `Host` and `Origin` must be loopback names (configure `allowedHosts` /
 * `allowedOrigins` for a public name), bodies are capped, session ids are random UUIDs, idle
 * sessions expire, and error bodies are JSON-RPC errors with no internals.
 *
 * Mounting it (the node adapter is in `@mcpkit/node/http`):
 * ```ts
 * // Node, no framework
 * import { serve } from '@mcpkit/node/http';
 * await serve(handler, { port: 3000, path: '/mcp' });
 * // Bun, Deno, Workers: the handler is their fetch function as it is
 * Bun.serve({ fetch: handler });
 * Deno.serve(handler);
 * export default { fetch: handler };
 * // Hono and other Request/Response frameworks
 * app.all('/mcp', (c) => handler(c.req.raw));
 * // Express / Fastify: see toNodeListener in @mcpkit/node/http
 * ```
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const handler = createStreamableHttpHandler(server, { enableJsonResponse: true });
 * declare const Bun: { serve(options: { port: number; hostname: string; fetch(request: Request): Promise<Response> }): void };
 * Bun.serve({ port: 3000, hostname: '127.0.0.1', fetch: handler });
 * ```
 */
export function createStreamableHttpHandler(
  server: Server,
  options: StreamableHttpHandlerOptions = {},
): StreamableHttpHandler {
  return toFetchHandler<StreamableHttpHandler>(new StreamableHttpEndpoint(server, options));
}

/**
 * SSE polling (SEP-1699) for the request of `context`: the same as `context.closeSseStream()`,
 * which handlers should call instead.
 *
 * @deprecated Use `ctx.closeSseStream(options)`.
 * @example
 * ```ts
 * closeSseStream(ctx); // same as ctx.closeSseStream()
 * ```
 */
export function closeSseStream(context: RequestContext, options: { retryInterval?: number } = {}): boolean {
  return context.closeSseStream(options);
}

class StreamableHttpEndpoint implements HttpRuntime, HttpEndpoint {
  readonly eventStore: EventStore | undefined;
  readonly retryInterval: number;
  readonly maxBufferedBytes: number;
  readonly connections: ConnectionRegistry = new Set();
  /** Serves one request: {@link answer}, with CORS around it when configured. */
  readonly handle: (request: RawHttpRequest, extra: HttpRequestExtra | undefined) => Promise<Reply>;
  readonly cors: CorsPolicy | undefined;
  private readonly sessions: SessionTable;
  private readonly guard: HostGuard;
  private readonly stateless: boolean;
  private readonly preferJson: boolean;
  /** Idle time (ms) after which a connection gets a keep-alive at the next tick. */
  private readonly keepAliveAfter: number;
  private readonly maxBodyBytes: number;
  private readonly maxJsonDepth: number;
  private readonly enableGet: boolean;
  private readonly enableDelete: boolean;
  private readonly strictVersion: boolean;
  private readonly gate: StreamableHttpHandlerOptions['gate'];
  private readonly allow: string;
  private readonly newSessionId: () => string;
  private readonly tickInterval: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Only with a session store. */
  private readonly shared: SharedSessions | undefined;
  readonly answered: ((transport: HttpSessionTransport) => void) | undefined;

  constructor(
    private readonly server: Server,
    options: StreamableHttpHandlerOptions,
  ) {
    this.stateless = options.stateless ?? false;
    this.eventStore =
      this.stateless || options.eventStore === false
        ? undefined
        : (options.eventStore ?? new InMemoryEventStore());
    this.retryInterval = nonNegative(options.retryInterval, DEFAULTS.retryInterval, 'retryInterval');
    this.maxBufferedBytes = nonNegative(
      options.maxBufferedBytes,
      DEFAULTS.maxBufferedBytes,
      'maxBufferedBytes',
    );
    const keepAlive = optionalInterval(
      options.keepAliveInterval,
      DEFAULTS.keepAliveInterval,
      'keepAliveInterval',
    );
    const limits: SessionLimits = {
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
      maxPerClient: nonNegative(
        options.maxSessionsPerClient,
        Number.POSITIVE_INFINITY,
        'maxSessionsPerClient',
      ),
    };
    this.sessions = new SessionTable(limits, (transport) => {
      // With a store, expiry here only frees this process's copy; the record expires on its own.
      transport.localOnly = this.shared !== undefined;
      void this.closeTransport(transport);
    });
    if (options.sessionStore && !this.stateless) {
      // The store brings the code that uses it: single-node bundles do not carry it.
      const Shared = options.sessionStore[SHARED_SESSIONS];
      if (!Shared)
        throw new TypeError('sessionStore must extend SessionStoreBase from @mcpkit/server/cluster');
      const ttl = limits.idleTimeout === Number.POSITIVE_INFINITY ? undefined : limits.idleTimeout;
      const shared = new Shared(options.sessionStore, ttl, this.sessions, server, this);
      this.shared = shared;
      this.answered = (transport) => {
        shared.save(transport).catch((error: unknown) => this.report(toError(error)));
      };
    }
    this.maxBodyBytes = nonNegative(options.maxBodyBytes, DEFAULTS.maxBodyBytes, 'maxBodyBytes');
    this.maxJsonDepth = nonNegative(options.maxJsonDepth, DEFAULT_MAX_JSON_DEPTH, 'maxJsonDepth');
    this.preferJson = options.enableJsonResponse ?? false;
    this.enableGet = options.enableGetStream ?? true;
    this.enableDelete = options.enableDelete ?? true;
    this.strictVersion = options.strictProtocolVersion ?? false;
    this.gate = options.gate;
    this.allow = this.stateless
      ? 'POST'
      : ['GET', 'POST', ...(this.enableDelete ? ['DELETE'] : [])].join(', ');
    this.guard = createHostGuard(options);
    this.cors = CorsPolicy.create(options.cors, this.guard, this.allow);
    this.handle = withCors(this.cors, this.guard, (r, e) => this.answer(r, e));
    this.newSessionId = options.sessionIdGenerator ?? (() => crypto.randomUUID());
    // One timer serves keep-alive and expiry for every session of this handler. Stateless, there
    // is nothing to expire: with keep-alive off too (as on Workers) no timer ever starts.
    const expiry = this.stateless
      ? Number.POSITIVE_INFINITY
      : Math.min(limits.idleTimeout, limits.handshakeTimeout);
    const sweep = expiry === Number.POSITIVE_INFINITY ? expiry : clamp(expiry / 4, 10, 60_000);
    // keepAliveInterval bounds the silence on a connection: ticking at half of it and writing once
    // idle for the rest, no connection goes longer without a write (ticking at the full interval
    // would allow almost twice it, past Bun's 10 s).
    this.tickInterval = Math.min(keepAlive / 2, sweep);
    this.keepAliveAfter = keepAlive === Number.POSITIVE_INFINITY ? keepAlive : keepAlive - this.tickInterval;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private async answer(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    try {
      const blocked = this.guard.check(request);
      if (blocked) return blocked === 'host' ? Refuse.forbiddenHost() : Refuse.forbiddenOrigin();
      switch (request.method) {
        case 'POST':
          return await this.post(request, extra);
        case 'GET':
          return await this.get(request, extra);
        case 'DELETE':
          return await this.delete(request, extra);
        default:
          return Refuse.method(this.allow);
      }
    } catch (error) {
      this.report(toError(error));
      if (this.shared?.isUnavailable(error)) return Refuse.storeUnavailable();
      return Refuse.internal();
    }
  }

  async close(): Promise<void> {
    this.stopTimer();
    // A process leaving a cluster takes its copies down, not the sessions.
    if (this.shared) for (const transport of this.sessions.values()) transport.localOnly = true;
    await Promise.allSettled([...this.sessions.values()].map((transport) => this.closeTransport(transport)));
  }

  // ---------------------------------------------------------------- POST

  private async post(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    const wait = this.gate ? await this.gate(request, extra) : undefined;
    if (wait !== undefined && wait > 0) return Refuse.tooManyRequests(wait);
    const accept = request.header('accept');
    if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) {
      return Refuse.notAcceptable(BOTH_TYPES);
    }
    const body = await readJsonPost(request, this.maxBodyBytes, this.maxJsonDepth);
    if (body instanceof Reply) return body;
    const summary = summarize(body.value);
    if (summary instanceof Reply) return summary;
    const messageExtra = new HttpMessageExtra(extra?.authInfo, request, body.bytes);
    const modern = modernPostOf(request, summary);
    if (modern) return this.postModern(request, summary, modern, messageExtra);
    if (this.stateless) return this.postStateless(request, summary, messageExtra);

    const sessionId = request.header(SESSION_HEADER);
    if (sessionId === null) {
      if (!summary.initialize) return Refuse.missingSession();
      return this.initialize(request, summary, messageExtra);
    }
    const transport = await this.lookup(sessionId, request, extra);
    if (transport instanceof Reply) return transport;
    const versionProblem = this.checkVersion(request, transport);
    if (versionProblem) return versionProblem;
    transport.lastActivity = Date.now();
    if (summary.initialized) transport.handshakeDone = true;
    if (summary.body.batch && !acceptsBatches(transport.protocolVersion)) {
      return Refuse.invalid('JSON-RPC batches are not supported by the negotiated protocol version');
    }
    for (const id of summary.ids) {
      if (transport.hasExchange(id)) {
        return Refuse.invalid(
          `id ${JSON.stringify(id)} is already in use by a request in flight`,
          summary.body.batch ? undefined : id,
        );
      }
    }
    if (summary.ids.length === 0) {
      if (this.shared && summary.responses) await this.shared.answer(transport, summary.body, messageExtra);
      else transport.deliver(summary.body, messageExtra);
      if (summary.cancels) transport.clientCancelled(summary.cancels);
      return emptyReply(202);
    }
    const response = this.openExchange(transport, summary.ids, request, false);
    transport.deliver(summary.body, messageExtra);
    if (summary.cancels) transport.clientCancelled(summary.cancels);
    return response;
  }

  private initialize(
    request: RawHttpRequest,
    summary: BodySummary,
    extra: MessageExtra,
  ): Promise<Reply> | Reply {
    const sessionId = this.newSessionId();
    if (!isVisibleAscii(sessionId, 128) || this.sessions.has(sessionId)) {
      this.report(new Error('sessionIdGenerator returned an invalid or duplicate session id'));
      return Refuse.internal();
    }
    const transport = new HttpSessionTransport(this, sessionId, false);
    const refused = this.sessions.admit(transport, clientKeyOf(extra.authInfo, request.remoteAddress));
    if (refused === 'quota') return Refuse.tooManyClientSessions(summary.ids[0]);
    if (refused === 'busy') return Refuse.tooManySessions(summary.ids[0]);
    transport.principal = principalOf(extra.authInfo);
    this.shared?.track(transport);
    const response = this.openExchange(transport, summary.ids, request, true);
    transport.session = this.server.connect(transport);
    transport.deliver(summary.body, extra);
    return this.shared ? this.savedFirst(transport, response) : response;
  }

  /** The answer to `initialize` goes out once the session's record is saved: any node knows it then. */
  private async savedFirst(transport: HttpSessionTransport, response: Promise<Reply>): Promise<Reply> {
    const reply = await response;
    if (transport.closed || transport.protocolVersion === undefined) return reply;
    try {
      await this.shared!.save(transport);
    } catch (error) {
      void this.closeTransport(transport);
      throw error;
    }
    return reply;
  }

  /** Opens the exchange that answers `ids` on `transport`, in this endpoint's response mode. */
  private openExchange(
    transport: HttpSessionTransport,
    ids: readonly RequestId[],
    request: RawHttpRequest,
    opensSession: boolean,
  ): Promise<Reply> {
    return transport.openExchange(ids, { preferJson: this.preferJson, opensSession, request });
  }

  private postStateless(
    request: RawHttpRequest,
    summary: BodySummary,
    extra: MessageExtra,
  ): Promise<Reply> | Reply {
    const header = request.header(PROTOCOL_VERSION_HEADER);
    if (header !== null && !isSupportedProtocolVersion(header)) return Refuse.badProtocolVersion(header);
    // Notifications and responses have no session to go to.
    if (summary.ids.length === 0) return emptyReply(202);
    const version = negotiateProtocolVersion(
      header ?? DEFAULT_HTTP_PROTOCOL_VERSION,
      this.server.protocolVersions,
    );
    if (summary.body.batch && !acceptsBatches(version)) {
      return Refuse.invalid('JSON-RPC batches are not supported by this protocol version');
    }
    // `initialize` gets a real (one-request) handshake; everything else runs pre-initialized.
    const connectOptions = summary.initialize ? undefined : { stateless: { protocolVersion: version } };
    const exchange = { preferJson: this.preferJson, opensSession: false, request };
    return this.serveOnce(summary, extra, exchange, connectOptions);
  }

  /**
   * A 2026-07-28 POST: checked against the revision's header rules, then served with no session
   * (the request's envelope is its scope), in stateful and stateless mode alike.
   */
  private postModern(
    request: RawHttpRequest,
    summary: BodySummary,
    post: ModernPost,
    extra: MessageExtra,
  ): Promise<Reply> | Reply {
    const refused = checkModernPost(
      request,
      post,
      (method) => this.server.requestHandler(method) !== undefined,
      (name) => this.server.toolInputSchema(name),
    );
    if (refused) return refused;
    // JSON whenever the result is the first message, so an error the revision gives a status (a
    // missing client capability: 400) gets it; anything sent before the result still opens SSE.
    const exchange = { preferJson: true, opensSession: false, request, statusOf: modernStatus };
    return this.serveOnce(summary, extra, exchange, {
      stateless: { protocolVersion: LATEST_PROTOCOL_VERSION },
    });
  }

  /** Serves one POST on a throwaway session over the one server definition. */
  private serveOnce(
    summary: BodySummary,
    extra: MessageExtra,
    exchange: ExchangeOptions,
    connectOptions: SessionConnectOptions | undefined,
  ): Promise<Reply> {
    const transport = new HttpSessionTransport(this, undefined, true);
    const response = transport.openExchange(summary.ids, exchange);
    transport.session = this.server.connect(transport, connectOptions);
    transport.deliver(summary.body, extra);
    return response;
  }

  // ---------------------------------------------------------------- GET and DELETE

  private async get(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    if (this.stateless || isModernStreamRequest(request)) return Refuse.method(this.allow);
    const lastEventId = request.header('last-event-id');
    if (lastEventId === null && !this.enableGet) return Refuse.method(this.allow);
    if (!accepts(request.header('accept'), 'text/event-stream'))
      return Refuse.notAcceptable('text/event-stream');
    const found = await this.sessionFor(request, extra);
    if (found instanceof Reply) return found;
    if (lastEventId !== null) {
      if (!isVisibleAscii(lastEventId, MAX_EVENT_ID_LENGTH)) return Refuse.unknownEventId();
      return found.resume(lastEventId, new HttpMessageExtra(extra?.authInfo, request));
    }
    return (await found.openStandalone()) ?? Refuse.conflict('the session already has an open GET stream');
  }

  private async delete(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    if (this.stateless || !this.enableDelete || isModernStreamRequest(request))
      return Refuse.method(this.allow);
    const found = await this.sessionFor(request, extra);
    if (found instanceof Reply) return found;
    if (this.shared) await this.shared.delete(found);
    await this.closeTransport(found);
    return emptyReply(200);
  }

  /** The session a GET or DELETE names, or the refusal to answer with. */
  private async sessionFor(
    request: RawHttpRequest,
    extra: HttpRequestExtra | undefined,
  ): Promise<HttpSessionTransport | Reply> {
    const sessionId = request.header(SESSION_HEADER);
    if (sessionId === null) return Refuse.missingSession();
    const transport = await this.lookup(sessionId, request, extra);
    if (transport instanceof Reply) return transport;
    const versionProblem = this.checkVersion(request, transport);
    if (versionProblem) return versionProblem;
    transport.lastActivity = Date.now();
    return transport;
  }

  /**
   * A live session by id; a session bound to a principal answers only to that principal. With a
   * session store, the store has the last word (and restores sessions this process does not hold).
   */
  private lookup(
    sessionId: string,
    request: RawHttpRequest,
    extra: HttpRequestExtra | undefined,
  ): HttpSessionTransport | Reply | Promise<HttpSessionTransport | Reply> {
    if (this.shared) {
      return this.shared.find(sessionId, extra?.authInfo, request.remoteAddress).then(sharedReply);
    }
    const transport = this.sessions.get(sessionId);
    if (!transport || transport.closed) return Refuse.unknownSession();
    return mayUseSession(transport.principal, extra?.authInfo) ? transport : Refuse.unknownSession();
  }

  /**
   * `MCP-Protocol-Version` on requests after `initialize`. Absent: the spec says assume
   * 2025-03-26, and the session already knows its revision, so nothing to check.
   */
  private checkVersion(request: RawHttpRequest, transport: HttpSessionTransport): Reply | undefined {
    const header = request.header(PROTOCOL_VERSION_HEADER);
    if (header === null) return undefined;
    if (!isSupportedProtocolVersion(header)) return Refuse.badProtocolVersion(header);
    const negotiated = transport.protocolVersion;
    if (this.strictVersion && negotiated !== undefined && header !== negotiated) {
      return Refuse.mismatchedProtocolVersion(negotiated);
    }
    return undefined;
  }

  // ---------------------------------------------------------------- HttpRuntime

  wake(): void {
    if (this.timer !== undefined || this.tickInterval === Number.POSITIVE_INFINITY) return;
    this.timer = setInterval(this.tick, this.tickInterval);
    // Housekeeping alone must not keep a process alive (Node and Bun have unref).
    (this.timer as { unref?: () => void }).unref?.();
  }

  report(error: Error): void {
    this.server.reportError(error);
  }

  sessionReady(transport: HttpSessionTransport): void {
    if (this.shared) transport.ensurePrefix();
    this.sessions.add(transport);
    this.wake();
  }

  sessionEnded(transport: HttpSessionTransport): void {
    this.sessions.remove(transport);
  }

  private readonly tick = (): void => {
    const now = Date.now();
    if (this.keepAliveAfter !== Number.POSITIVE_INFINITY) {
      for (const connection of this.connections) {
        if (now - connection.lastWrite >= this.keepAliveAfter) connection.write(KEEP_ALIVE);
      }
    }
    if (this.sessions.expires) this.sessions.sweep(now);
    this.shared?.touchBusy();
    if (this.sessions.size === 0 && this.connections.size === 0) this.stopTimer();
  };

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async closeTransport(transport: HttpSessionTransport): Promise<void> {
    try {
      if (transport.session) await transport.session.close();
      else await transport.close();
    } catch (error) {
      this.report(toError(error));
    }
  }
}

function sharedReply(found: HttpSessionTransport | SharedRefusal): HttpSessionTransport | Reply {
  if (found === 'unknown') return Refuse.unknownSession();
  if (found === 'quota') return Refuse.tooManyClientSessions();
  if (found === 'busy') return Refuse.tooManySessions();
  return found;
}

function acceptsBatches(version: string | undefined): boolean {
  return (
    version !== undefined &&
    isSupportedProtocolVersion(version) &&
    codecFor(version as ProtocolVersion).acceptsBatches
  );
}

function isVisibleAscii(value: string, maxLength: number): boolean {
  if (value.length === 0 || value.length > maxLength) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a finite number >= 0`);
  return value;
}

function optionalInterval(value: number | false | undefined, fallback: number, name: string): number {
  if (value === false) return Number.POSITIVE_INFINITY;
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value))
    throw new RangeError(`${name} must be a positive number of ms or false`);
  return value;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
