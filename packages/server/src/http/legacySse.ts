/**
 * The deprecated HTTP+SSE transport of protocol revision 2024-11-05, for clients that predate
 * Streamable HTTP.
 *
 * A client opens a GET event stream; the first event, `endpoint`, names the URL it must POST its
 * messages to (with `?sessionId=`). Each POST is answered 202 and every server message (responses
 * included) travels on the event stream as an `event: message`. The session lives as long as the
 * event stream.
 * @module
 */
import {
  DEFAULT_MAX_JSON_DEPTH,
  type JsonRpcMessage,
  type MessageExtra,
  type MessageSink,
  type SendOptions,
  type Transport,
} from '@mcpkit/core';
import { type ClassifiedBody, classifyBody, toError } from '@mcpkit/core/internal';
import { mayUseSession, principalOf } from '../kernel/principal.js';
import type { ServerSession } from '../kernel/session.js';
import type { Server } from '../server.js';
import { accepts, deliverBody, readJsonPost } from './body.js';
import { CorsPolicy, withCors } from './cors.js';
import {
  type ConnectionRegistry,
  DEFAULT_KEEP_ALIVE_INTERVAL,
  messageEvent,
  SseConnection,
  type SseConnectionOwner,
} from './delivery/sse.js';
import {
  type HttpEndpoint,
  type HttpRequestExtra,
  type McpHttpHandler,
  toFetchHandler,
} from './fetchHandler.js';
import { Housekeeping } from './housekeeping.js';
import type { RawHttpRequest } from './rawHttp.js';
import { HttpMessageExtra } from './requestView.js';
import { emptyReply, Refuse, Reply, sseReply } from './responses.js';
import { createHostGuard, type HostGuard, type HostSecurityOptions } from './security.js';
import { optionalInterval } from './streamableOptions.js';

/** Options of {@link createLegacySseHandler}. */
export interface LegacySseHandlerOptions extends HostSecurityOptions {
  /**
   * The URL clients POST to, as sent in the `endpoint` event (a path, resolved by the client
   * against the event stream's URL, or an absolute URL); `sessionId=<id>` is appended to its
   * query. Default: the path of the GET request, so one mount point serves both methods.
   */
  messagesPath?: string;
  /**
   * Idle event streams get a `: keep-alive` comment this often (ms). `false` turns it off. Default 8 000
   * (below Bun's 10 s idle timeout). Anything but a positive finite number or `false` is a `RangeError`.
   */
  keepAliveInterval?: number | false;
  /** Largest accepted POST body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a body, checked before parsing; deeper
   * bodies get 400 with a `-32700` that names the limit. Default 512 (`DEFAULT_MAX_JSON_DEPTH`).
   */
  maxJsonDepth?: number;
  /** Open sessions at most; a further GET gets 503. Default 10 000. */
  maxSessions?: number;
  /** Bytes a client may leave unread on its event stream before it is disconnected. Default 8 MiB. */
  maxBufferedBytes?: number;
}

/**
 * A legacy HTTP+SSE endpoint: call it with GETs (event streams) and POSTs (messages).
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 *
 * const app = new Hono();
 * const legacy = createLegacySseHandler(server);
 * app.all('/sse', (c) => legacy(c.req.raw));
 * ```
 */
export interface LegacySseHandler extends McpHttpHandler {}

/**
 * Creates an HTTP+SSE (2024-11-05) endpoint for `server`, next to (not instead of) the Streamable
 * HTTP one. Host and Origin are checked as by {@link createStreamableHttpHandler}.
 *
 * Typical paths: Streamable HTTP at `/mcp`; legacy event stream at `GET /sse`, messages at
 * `POST /messages` (set `messagesPath: '/messages'` and route both paths to this handler). With
 * the default `messagesPath`, mount it at one path for both GET and POST.
 *
 * @example
 * ```ts
 * const modern = createStreamableHttpHandler(server);
 * const legacy = createLegacySseHandler(server, { messagesPath: '/messages' });
 * await serve(async (request) => {
 *   const { pathname } = new URL(request.url);
 *   return pathname === '/mcp' ? modern(request) : legacy(request);
 * }, { port: 3000 });
 * ```
 */
export function createLegacySseHandler(
  server: Server,
  options: LegacySseHandlerOptions = {},
): LegacySseHandler {
  return toFetchHandler<LegacySseHandler>(new LegacySseEndpoint(server, options));
}

class LegacySseEndpoint implements HttpEndpoint {
  readonly sessions = new Map<string, LegacySseTransport>();
  readonly connections: ConnectionRegistry = new Set();
  /** Serves one request: {@link answer}, with CORS around it when configured. */
  readonly handle: (request: RawHttpRequest, extra: HttpRequestExtra | undefined) => Promise<Reply>;
  readonly cors: CorsPolicy | undefined;
  private readonly guard: HostGuard;
  private readonly maxBodyBytes: number;
  private readonly maxJsonDepth: number;
  private readonly maxSessions: number;
  private readonly maxBufferedBytes: number;
  private readonly housekeeping: Housekeeping;

  get sessionCount(): number {
    return this.sessions.size;
  }

  constructor(
    private readonly server: Server,
    private readonly options: LegacySseHandlerOptions,
  ) {
    this.guard = createHostGuard(options);
    this.cors = CorsPolicy.create(options.cors, this.guard, 'GET, POST');
    this.handle = withCors(this.cors, this.guard, (r, e) => this.answer(r, e));
    const keepAlive = optionalInterval(
      options.keepAliveInterval,
      DEFAULT_KEEP_ALIVE_INTERVAL,
      'keepAliveInterval',
    );
    // Ticking at half the interval keeps every silence under it (see the streamable handler).
    this.housekeeping = new Housekeeping(keepAlive / 2, keepAlive / 2, this.connections, undefined);
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  }

  private async answer(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    try {
      const blocked = this.guard.check(request);
      if (blocked) return blocked === 'host' ? Refuse.forbiddenHost() : Refuse.forbiddenOrigin();
      if (request.method === 'GET') return this.open(request, extra);
      if (request.method === 'POST') return await this.post(request, extra);
      return Refuse.method('GET, POST');
    } catch (error) {
      this.server.reportError(toError(error));
      return Refuse.internal();
    }
  }

  async close(): Promise<void> {
    this.housekeeping.stop();
    await Promise.allSettled([...this.sessions.values()].map((transport) => transport.session?.close()));
  }

  private open(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Reply {
    if (!accepts(request.header('accept'), 'text/event-stream'))
      return Refuse.notAcceptable('text/event-stream');
    if (this.sessions.size >= this.maxSessions) return Refuse.tooManySessions();
    const sessionId = crypto.randomUUID();
    const connection = new SseConnection(this.connections, this.maxBufferedBytes);
    const transport = new LegacySseTransport(sessionId, connection, () => this.sessions.delete(sessionId));
    transport.principal = principalOf(extra?.authInfo);
    this.sessions.set(sessionId, transport);
    this.housekeeping.wake();
    const path = this.options.messagesPath ?? new URL(request.url).pathname;
    const separator = path.includes('?') ? '&' : '?';
    connection.write(
      `event: endpoint\ndata: ${path}${separator}sessionId=${encodeURIComponent(sessionId)}\n\n`,
    );
    transport.session = this.server.connect(transport);
    return sseReply(connection.body);
  }

  private async post(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply> {
    const sessionId = new URL(request.url).searchParams.get('sessionId');
    if (sessionId === null) return Refuse.invalid('the sessionId query parameter is required');
    const transport = this.sessions.get(sessionId);
    if (!transport || !mayUseSession(transport.principal, extra?.authInfo)) return Refuse.unknownSession();
    const body = await readJsonPost(request, this.maxBodyBytes, this.maxJsonDepth);
    if (body instanceof Reply) return body;
    const classified = classifyBody(body.value);
    const single = classified.batch ? undefined : classified.kinds[0]!;
    if (single?.kind === 'invalid') return Refuse.invalid(single.reason, single.id);
    // Batches are for the engine to judge: it knows the negotiated revision.
    transport.deliver(classified, new HttpMessageExtra(extra?.authInfo, request));
    return emptyReply(202);
  }
}

/** One legacy session: a single event stream carries everything the server sends. */
class LegacySseTransport implements Transport, SseConnectionOwner {
  readonly networkTransport = 'tcp';
  session: ServerSession | undefined;
  /** The principal that opened the session (see `principalOf`); it alone may post to it. */
  principal: string | undefined;
  private sink: MessageSink | undefined;
  private isClosed = false;

  constructor(
    readonly sessionId: string,
    private readonly connection: SseConnection,
    private readonly onClosed: () => void,
  ) {
    connection.owner = this;
  }

  start(sink: MessageSink): void {
    this.sink = sink;
  }

  deliver(body: ClassifiedBody, extra: MessageExtra): void {
    deliverBody(this.sink, body, extra);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): void {
    if (this.isClosed) throw new Error('The SSE session is closed');
    this.connection.write(messageEvent(JSON.stringify(message), undefined));
  }

  connectionLost(): void {
    // The event stream is the session: when the client leaves, the session ends.
    if (this.session) void this.session.close().catch(() => {});
    else void this.close();
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.connection.close();
    this.onClosed();
    this.sink?.closed();
  }
}
