/**
 * The Streamable HTTP endpoint (MCP 2025-03-26 and later) as a web-standard function:
 * `(Request) => Promise<Response>`. It runs wherever `fetch` types exist (Node through
 * `@mcpkit/node/http`, Bun, Deno, Workers) and mounts in any framework.
 *
 * This file only composes the three parts of the HTTP layer: a request is classified
 * (`classify.ts`: era, method, session), then goes through the session front (`sessions/`, 2025
 * requests with a session) or runs on a throwaway session (stateless mode and every 2026-07-28
 * request), is dispatched by the engine, and its answer is delivered (`delivery/`: JSON or SSE,
 * the standalone GET stream, the event store).
 * @module
 */
import { DEFAULT_HTTP_PROTOCOL_VERSION, isSupportedProtocolVersion, type MessageExtra } from '@mcpkit/core';
import { negotiateProtocolVersion, toError } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import type { SessionConnectOptions } from '../kernel/session.js';
import type { Server } from '../server.js';
import { accepts, acceptsJsonAndSse, readJsonPost } from './body.js';
import {
  acceptsBatches,
  type BodySummary,
  classifyPost,
  isModernStreamRequest,
  type PostRoute,
} from './classify.js';
import { CorsPolicy, withCors } from './cors.js';
import type { EventStore } from './delivery/eventStore.js';
import type { ConnectionRegistry } from './delivery/sse.js';
import { type ExchangeOptions, type HttpRuntime, HttpSessionTransport } from './delivery/transport.js';
import {
  type HttpEndpoint,
  type HttpRequestExtra,
  type McpHttpHandler,
  toFetchHandler,
} from './fetchHandler.js';
import { Housekeeping } from './housekeeping.js';
import { DirectModernRequest } from './modernDirect.js';
import type { RawHttpRequest } from './rawHttp.js';
import { HttpMessageExtra } from './requestView.js';
import { emptyReply, PROTOCOL_VERSION_HEADER, Refuse, Reply, SESSION_HEADER } from './responses.js';
import { createHostGuard, type HostGuard } from './security.js';
import { isVisibleAscii, SessionFront } from './sessions/front.js';
import {
  resolveStreamableOptions,
  type StreamableHttpHandlerOptions,
  type StreamableSettings,
} from './streamableOptions.js';

export type { StreamableHttpHandlerOptions } from './streamableOptions.js';

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

const BOTH_TYPES = 'application/json and text/event-stream';
const MAX_EVENT_ID_LENGTH = 256;

/**
 * @internal The endpoint behind {@link createStreamableHttpHandler} (exported for the test that
 * counts how often one POST enters this file).
 *
 * @example
 * ```ts
 * const handler = toFetchHandler(new StreamableHttpEndpoint(server, {}));
 * ```
 */
export class StreamableHttpEndpoint implements HttpRuntime, HttpEndpoint {
  readonly eventStore: EventStore | undefined;
  readonly retryInterval: number;
  readonly maxBufferedBytes: number;
  readonly connections: ConnectionRegistry = new Set();
  /** Serves one request: {@link answer}, with CORS around it when configured. */
  readonly handle: (request: RawHttpRequest, extra: HttpRequestExtra | undefined) => Promise<Reply>;
  readonly cors: CorsPolicy | undefined;
  readonly answered: ((transport: HttpSessionTransport) => void) | undefined;
  /** The session front; `undefined` in stateless mode. */
  private readonly front: SessionFront | undefined;
  private readonly settings: StreamableSettings;
  private readonly guard: HostGuard;
  private readonly gate: StreamableHttpHandlerOptions['gate'];
  private readonly housekeeping: Housekeeping;

  constructor(
    private readonly server: Server,
    options: StreamableHttpHandlerOptions,
  ) {
    const settings = resolveStreamableOptions(options);
    this.settings = settings;
    this.eventStore = settings.eventStore;
    this.retryInterval = settings.retryInterval;
    this.maxBufferedBytes = settings.maxBufferedBytes;
    this.front = settings.front && new SessionFront(server, this, settings.front);
    this.answered = this.front?.answered;
    const { tickInterval, keepAliveAfter } = settings;
    this.housekeeping = new Housekeeping(tickInterval, keepAliveAfter, this.connections, this.front);
    this.gate = options.gate;
    this.guard = createHostGuard(options);
    this.cors = CorsPolicy.create(options.cors, this.guard, settings.allow);
    this.handle = withCors(this.cors, this.guard, (r, e) => this.answer(r, e));
  }

  get sessionCount(): number {
    return this.front?.size ?? 0;
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
          return Refuse.method(this.settings.allow);
      }
    } catch (error) {
      this.report(toError(error));
      if (this.front?.isUnavailable(error)) return Refuse.storeUnavailable();
      return Refuse.internal();
    }
  }

  async close(): Promise<void> {
    this.housekeeping.stop();
    await this.front?.closeAll();
  }

  // ---------------------------------------------------------------- POST: classify, then route

  private async post(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    const wait = this.gate ? await this.gate(request, extra) : undefined;
    if (wait !== undefined && wait > 0) return Refuse.tooManyRequests(wait);
    if (!acceptsJsonAndSse(request.header('accept'))) return Refuse.notAcceptable(BOTH_TYPES);
    const body = await readJsonPost(request, this.settings.maxBodyBytes, this.settings.maxJsonDepth);
    if (body instanceof Reply) return body;
    const route = classifyPost(request, body.value, this.server, this.front !== undefined);
    if (route instanceof Reply) return route;
    const messageExtra = new HttpMessageExtra(extra?.authInfo, request, body.bytes);
    switch (route.kind) {
      case 'modern':
        return this.postModern(request, route, messageExtra);
      case 'stateless':
        return this.postStateless(request, route, messageExtra);
      default:
        return this.postToSession(this.front!, request, extra, route, messageExtra);
    }
  }

  /** A 2025 POST with a session: through the session front, then delivered on the session. */
  private async postToSession(
    front: SessionFront,
    request: RawHttpRequest,
    extra: HttpRequestExtra | undefined,
    summary: BodySummary,
    messageExtra: MessageExtra,
  ): Promise<Reply> {
    const sessionId = request.header(SESSION_HEADER);
    if (sessionId === null) {
      if (!summary.initialize) return Refuse.missingSession();
      return front.open(request, summary, messageExtra, this.exchange(request, true));
    }
    // Found in this process's table (no session store): no await, so no extra turn per request.
    const found = front.find(sessionId, request, extra);
    const transport = found instanceof Promise ? await found : found;
    if (transport instanceof Reply) return transport;
    return front.post(transport, summary, messageExtra, this.exchange(request, false));
  }

  /** How a 2025 exchange answers: in this endpoint's response mode. */
  private exchange(request: RawHttpRequest, opensSession: boolean): ExchangeOptions {
    return { preferJson: this.settings.preferJson, opensSession, request };
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
    return this.serveOnce(summary, extra, this.exchange(request, false), connectOptions);
  }

  /**
   * A 2026-07-28 POST: checked against the revision's header rules, then served with no session
   * (the request's envelope is its scope), in stateful and stateless mode alike.
   */
  private postModern(request: RawHttpRequest, route: PostRoute, extra: MessageExtra): Promise<Reply> | Reply {
    // classifyPost checked it against the revision's header rules. No session, connection or
    // transport up front (made if the handler asks for them, or for an observer to watch).
    return new DirectModernRequest(this, this.server, request, route.modern!, extra).serve();
  }

  /** Serves one POST on a throwaway session over the one server definition. */
  private serveOnce(
    summary: BodySummary,
    extra: MessageExtra,
    exchange: ExchangeOptions,
    connectOptions: SessionConnectOptions | undefined,
  ): Promise<Reply> {
    const transport = new HttpSessionTransport(this, undefined, true);
    transport.session = this.server.connect(transport, connectOptions);
    return transport.handlePost(summary.ids, exchange, summary.body, extra);
  }

  // ---------------------------------------------------------------- GET and DELETE

  private async get(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    if (!this.front || isModernStreamRequest(request)) return Refuse.method(this.settings.allow);
    const lastEventId = request.header('last-event-id');
    if (lastEventId === null && !this.settings.enableGet) return Refuse.method(this.settings.allow);
    if (!accepts(request.header('accept'), 'text/event-stream'))
      return Refuse.notAcceptable('text/event-stream');
    const found = await this.sessionFor(this.front, request, extra);
    if (found instanceof Reply) return found;
    if (lastEventId !== null) {
      if (!isVisibleAscii(lastEventId, MAX_EVENT_ID_LENGTH)) return Refuse.unknownEventId();
      return found.resume(lastEventId, new HttpMessageExtra(extra?.authInfo, request));
    }
    return (await found.openStandalone()) ?? Refuse.conflict('the session already has an open GET stream');
  }

  private async delete(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    if (!this.front || !this.settings.enableDelete || isModernStreamRequest(request))
      return Refuse.method(this.settings.allow);
    const found = await this.sessionFor(this.front, request, extra);
    if (found instanceof Reply) return found;
    await this.front.delete(found);
    return emptyReply(200);
  }

  /** The session a GET or DELETE names, or the refusal to answer with. */
  private sessionFor(
    front: SessionFront,
    request: RawHttpRequest,
    extra: HttpRequestExtra | undefined,
  ): HttpSessionTransport | Reply | Promise<HttpSessionTransport | Reply> {
    const sessionId = request.header(SESSION_HEADER);
    if (sessionId === null) return Refuse.missingSession();
    return front.find(sessionId, request, extra);
  }

  // ---------------------------------------------------------------- HttpRuntime

  wake(): void {
    this.housekeeping.wake();
  }

  report(error: Error): void {
    this.server.reportError(error);
  }

  sessionReady(transport: HttpSessionTransport): void {
    this.front!.ready(transport);
    this.wake();
  }

  sessionEnded(transport: HttpSessionTransport): void {
    this.front?.ended(transport);
  }
}
