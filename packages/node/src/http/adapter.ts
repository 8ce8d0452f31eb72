/**
 * Bridges `node:http` to web-standard handlers: an `IncomingMessage` becomes a `Request` (body
 * streamed, not buffered), and the handler's `Response` is written back (SSE bodies flushed event
 * by event). A client that disconnects aborts the `Request`'s signal and cancels the response
 * body, so the handler learns at once that nobody is listening.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { toError } from '@mcpkit/core/internal';
import type { AbortSignalLike, RawHttpHandler, RawHttpReply, RawHttpRequest } from '@mcpkit/server/http';
import { drainRequest, pipeStream, readLimited } from './socketFlow.js';

/**
 * A web-standard request handler of one argument, such as the one `createStreamableHttpHandler`
 * returns.
 *
 * @example
 * ```ts
 * const hello: FetchHandler = () => new Response('hello');
 * ```
 */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * A handler that also takes what the host verified about a request, through a method a runtime
 * never calls (mcpkit's HTTP handlers are such handlers, with `extra: { authInfo }`).
 *
 * @example
 * ```ts
 * const handler: ExtraAwareHandler<{ authInfo?: AuthInfo }> = createStreamableHttpHandler(server);
 * ```
 */
export interface ExtraAwareHandler<Extra> {
  (request: Request): Response | Promise<Response>;
  handle(request: Request, extra: Extra): Response | Promise<Response>;
}

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions<Extra = never> {
  /**
   * Computes what the host verified about the Node request, e.g. the identity an earlier
   * authentication middleware attached: `(req) => ({ authInfo: req.auth })`. It reaches the
   * handler through its `handle(request, extra)` method, so the handler must have one.
   */
  extra?: (req: IncomingMessage) => Extra;
  /** Receives failures of the handler or of the response stream. Default: none (the library never writes to the console). */
  onError?: (error: Error) => void;
}

/**
 * A `node:http` request listener. The optional third argument is a body a framework already read
 * and parsed (Fastify's `request.body`); a function there (Express's `next`) is ignored.
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => void;

/**
 * Where mcpkit's handlers keep their lower-level entry (`RAW_HTTP_HANDLER` of
 * `@mcpkit/server/http`): the same registry symbol, made here so that serving a non-mcpkit handler
 * does not load `@mcpkit/server` (only its types are imported).
 */
const RAW_HTTP_HANDLER = Symbol.for('mcpkit.rawHttpHandler');
const PARSED = Symbol('mcpkit.parsedBody');
type NodeRequestWithBody = IncomingMessage & { body?: unknown; [PARSED]?: true };
/** The view of the request a response answers, so one shared `close` listener serves every request. */
const VIEW = Symbol('mcpkit.requestView');
type ViewedResponse = ServerResponse & { [VIEW]?: NodeRequestView };

/**
 * Adapts a web-standard handler to a `node:http` listener, usable directly with
 * `http.createServer` and inside Node frameworks.
 *
 * Mounting in frameworks (no dependency on any of them):
 * ```ts
 * // Express: mount before any body parser, or let one run: a parsed `req.body` is used as is.
 * app.all('/mcp', toNodeListener(handler));
 *
 * // Fastify has read the body already: pass the parsed body along, and tell Fastify the reply
 * // is taken care of.
 * const listener = toNodeListener(handler);
 * fastify.all('/mcp', (request, reply) => {
 *   reply.hijack();
 *   listener(request.raw, reply.raw, request.body);
 * });
 *
 * // Hono (any runtime): no adapter needed, the handler speaks Request/Response.
 * app.all('/mcp', (c) => handler(c.req.raw));
 * ```
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const listener = toNodeListener(createStreamableHttpHandler(server));
 * createServer(listener).listen(3000, '127.0.0.1');
 * ```
 */
export function toNodeListener(handler: FetchHandler, options?: NodeListenerOptions): NodeListener;
export function toNodeListener<Extra>(
  handler: ExtraAwareHandler<Extra>,
  options: NodeListenerOptions<Extra>,
): NodeListener;
export function toNodeListener<Extra>(
  handler: FetchHandler | ExtraAwareHandler<Extra>,
  options: NodeListenerOptions<Extra> = {},
): NodeListener {
  const onError = options.onError ?? defaultOnError;
  const entry = webEntry(handler, options.extra);
  // mcpkit's own handlers also offer their logic without Request/Response, which on Node cost
  // more than the MCP exchange itself; any other handler gets real web objects.
  const raw = (handler as unknown as Record<symbol, RawHttpHandler<Extra> | undefined>)[RAW_HTTP_HANDLER];
  if (typeof raw === 'function') {
    return (req, res, parsedBody) => {
      adoptParsedBody(req, parsedBody);
      serveRaw(raw, options, onError, req, res).catch((error: unknown) => onError(toError(error)));
    };
  }
  return (req, res, parsedBody) => {
    adoptParsedBody(req, parsedBody);
    serveOne(entry, onError, req, res).catch((error: unknown) => onError(toError(error)));
  };
}

/** How the web-standard path calls the handler: with the host's extra only through `handle`. */
function webEntry<Extra>(
  handler: FetchHandler | ExtraAwareHandler<Extra>,
  extraOf: ((req: IncomingMessage) => Extra) | undefined,
): (request: Request, req: IncomingMessage) => Response | Promise<Response> {
  if (extraOf === undefined) return (request) => handler(request);
  const handle = (handler as Partial<ExtraAwareHandler<Extra>>).handle;
  if (typeof handle !== 'function') {
    throw new TypeError(
      'toNodeListener: the extra option needs a handler with a handle(request, extra) method, as createStreamableHttpHandler returns',
    );
  }
  return (request, req) => handle.call(handler, request, extraOf(req));
}

/** Records a body a framework parsed, where the readers below look for one (as Express leaves it). */
function adoptParsedBody(req: IncomingMessage, parsedBody: unknown): void {
  if (parsedBody === undefined || typeof parsedBody === 'function') return;
  (req as NodeRequestWithBody).body = parsedBody;
  (req as NodeRequestWithBody)[PARSED] = true;
}

async function serveRaw<Extra>(
  handler: RawHttpHandler<Extra>,
  options: NodeListenerOptions<Extra>,
  onError: (error: Error) => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const reply = await callHandler(handler, new NodeRequestView(req, res), options.extra?.(req), res, onError);
  if (reply) await writeReply(reply, req, res, onError);
}

/**
 * Calls a handler; one that throws is reported to `onError` and answered 500 with a bare JSON-RPC
 * internal error, and the result is then `undefined`.
 */
async function callHandler<In, Extra, Out>(
  handler: (input: In, extra: Extra) => Out | Promise<Out>,
  input: In,
  extra: Extra,
  res: ServerResponse,
  onError: (error: Error) => void,
): Promise<Out | undefined> {
  try {
    return await handler(input, extra);
  } catch (error) {
    onError(toError(error));
    writeSimple(res, 500, '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}');
    return undefined;
  }
}

/** Writes a handler's plain reply: text in one write, an SSE stream as it comes. */
async function writeReply(
  reply: RawHttpReply,
  req: IncomingMessage,
  res: ServerResponse,
  onError: (error: Error) => void,
): Promise<void> {
  const body = reply.body;
  if (res.destroyed) {
    if (body !== null && typeof body !== 'string') await body.cancel().catch(() => {});
    return;
  }
  const headers = reply.headers;
  // Unread request bytes would otherwise be parsed as the next request on this connection.
  if (!req.complete && !(await drainRequest(req, res))) headers.connection = 'close';
  if (res.destroyed) {
    if (body !== null && typeof body !== 'string') await body.cancel().catch(() => {});
    return;
  }
  if (body === null) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  if (typeof body === 'string') {
    headers['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(reply.status, headers).end(body);
    return;
  }
  startStream(res, reply.status, headers);
  await pipeStream(body, res, onError);
}

/**
 * A Node request as the handlers' {@link RawHttpRequest}: headers read from `rawHeaders` (joined
 * like `Headers.get`, so a repeated Host or Origin is seen as such), the body read straight from
 * the stream, and a signal that fires when the client leaves before the response is complete.
 */
class NodeRequestView implements RawHttpRequest, AbortSignalLike {
  private fullUrl: string | undefined;
  private request: Request | undefined;
  private controller: AbortController | undefined;
  /** Abort listeners; the handlers register at most one per request, so no array until a second. */
  private listener: (() => void) | undefined;
  private moreListeners: Array<() => void> | undefined;
  private isAborted = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    // No closure per request: the listener is shared and finds this view on the response.
    (res as ViewedResponse)[VIEW] = this;
    res.on('close', closeView);
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get url(): string {
    this.fullUrl ??= nodeRequestUrl(this.req);
    return this.fullUrl;
  }

  get signal(): AbortSignalLike {
    return this;
  }

  get aborted(): boolean {
    return this.isAborted;
  }

  /**
   * Node has parsed `req.headers` already (its server reads them for every request), so most names
   * are one lookup there: Node joins a repeated header with `", "` as `Headers.get` does. The
   * names Node keeps only the first of (Host, Content-Type, Authorization, ...) or joins otherwise
   * (Cookie) are read from `rawHeaders`, so a repeated one is still seen as such.
   */
  header(name: string): string | null {
    const value = this.req.headers[name];
    if (value === undefined) return null;
    if (typeof value === 'string' && !READ_RAW.has(name)) return value;
    return rawHeader(this.req.rawHeaders, name);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === undefined) this.listener = listener;
    else if (this.moreListeners) this.moreListeners.push(listener);
    else this.moreListeners = [listener];
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
    else if (this.moreListeners)
      this.moreListeners = this.moreListeners.filter((other) => other !== listener);
  }

  /** The peer's address as the socket reports it: no header can forge it. */
  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  readBody(limit: number): Promise<Uint8Array | 'too-large' | 'aborted'> {
    const req = this.req as NodeRequestWithBody;
    if (req.body !== undefined && (req.readableEnded || req[PARSED])) {
      const bytes = parsedBody(req.body);
      return Promise.resolve(bytes.byteLength > limit ? 'too-large' : bytes);
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      req.resume(); // discard; the reply closes the connection since the request is incomplete
      return Promise.resolve('too-large');
    }
    return readLimited(req, limit);
  }

  toRequest(): Request {
    if (!this.request) {
      const controller = new AbortController();
      if (this.isAborted) controller.abort();
      this.controller = controller;
      const headers = new Headers();
      copyHeaders(this.req.rawHeaders, headers);
      this.request = new Request(this.url, { method: this.method, headers, signal: controller.signal });
    }
    return this.request;
  }

  /** The response closed. 'close' also fires after a normal end; only an unfinished response means the client left. */
  closed(): void {
    if (this.res.writableFinished || this.isAborted) return;
    this.isAborted = true;
    const first = this.listener;
    const more = this.moreListeners;
    this.listener = undefined;
    this.moreListeners = undefined;
    first?.();
    if (more) for (const listener of more) listener();
    this.controller?.abort();
  }
}

/** The `close` listener of every response served through a {@link NodeRequestView} (`this` is the response). */
function closeView(this: ViewedResponse): void {
  this[VIEW]?.closed();
}

/**
 * The headers whose repeats Node's `req.headers` does not join with `", "` (it keeps the first, or
 * joins Cookie with `"; "`, or makes Set-Cookie an array): read from `rawHeaders` instead. The
 * list is Node's (`matchKnownFields` in `_http_incoming.js`); `tests/http-node-raw.test.ts` holds
 * every name of it, and some that Node joins, to `Headers.get`.
 */
const READ_RAW: ReadonlySet<string> = new Set(
  'age authorization content-length content-type cookie etag expires from host if-modified-since if-unmodified-since last-modified location max-forwards proxy-authorization referer retry-after server set-cookie user-agent'.split(
    ' ',
  ),
);

/** One header by lower-case name from `rawHeaders`, repeats joined with `", "` (as `Headers.get`); null when absent. */
function rawHeader(raw: readonly string[], name: string): string | null {
  let joined: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const field = raw[i]!;
    if (field.length !== name.length || (field !== name && field.toLowerCase() !== name)) continue;
    const value = raw[i + 1]!;
    joined = joined === null ? value : `${joined}, ${value}`;
  }
  return joined;
}

/** A body a framework (express.json() and the like) already consumed and parsed. */
function parsedBody(parsed: unknown): Uint8Array {
  if (parsed instanceof Uint8Array) return parsed;
  return Buffer.from(typeof parsed === 'string' ? parsed : JSON.stringify(parsed), 'utf8');
}

async function serveOne(
  handler: (request: Request, req: IncomingMessage) => Response | Promise<Response>,
  onError: (error: Error) => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  // 'close' also fires after a normal end; only an unfinished response means the client left.
  const onClose = (): void => {
    if (!res.writableFinished) controller.abort();
  };
  res.once('close', onClose);
  let request: Request;
  try {
    request = toRequest(req, controller.signal);
  } catch {
    // Header values Node accepted but the Fetch API rejects, or a garbled URL.
    writeSimple(res, 400, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request"}}');
    return;
  }
  const response = await callHandler(handler, request, req, res, onError);
  if (response) await writeResponse(response, req, res, onError);
}

/**
 * Builds a web `Request` from a Node request. The body is streamed as it arrives (so a size
 * limit in the handler stops reading early); a body a framework already parsed is used instead.
 * `signal` should abort when the client goes away ({@link toNodeListener} does that).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 *
 * createServer(async (req, res) => {
 *   const controller = new AbortController();
 *   res.once('close', () => controller.abort());
 *   const request = toRequest(req, controller.signal);
 *   res.end(await request.text());
 * });
 * ```
 */
export function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const method = req.method ?? 'GET';
  const headers = new Headers();
  copyHeaders(req.rawHeaders, headers);
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = bodyOf(req as NodeRequestWithBody);
    init.duplex = 'half';
  }
  try {
    return new Request(urlOf(req, req.headers.host), init);
  } catch (error) {
    // A Host the URL parser rejects (say "localhost:notaport"): keep the header for the handler
    // to judge, and build the URL on a neutral host.
    if (req.headers.host === undefined) throw error;
    return new Request(urlOf(req, undefined), init);
  }
}

function copyHeaders(raw: readonly string[], headers: Headers): void {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) headers.append(name, raw[i + 1]!);
  }
}

/** The absolute URL of a Node request, as {@link toRequest} gives it to the handler. */
function nodeRequestUrl(req: IncomingMessage): string {
  const url = urlOf(req, req.headers.host);
  try {
    new URL(url);
    return url;
  } catch {
    return urlOf(req, undefined);
  }
}

function urlOf(req: IncomingMessage, host: string | undefined): string {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const path = req.url ?? '/';
  // The Host header is checked by the handler; here it only needs to make a parseable URL.
  if (host !== undefined && isPlainHost(host))
    return `${scheme}://${host}${path.startsWith('/') ? path : `/${path}`}`;
  return `${scheme}://localhost${path.startsWith('/') ? path : `/${path}`}`;
}

function isPlainHost(host: string): boolean {
  if (host.length === 0 || host.length > 300) return false;
  for (let i = 0; i < host.length; i++) {
    const code = host.charCodeAt(i);
    // Letters, digits, '-', '.', ':', '[', ']': anything else could change how the URL parses.
    const ok =
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 58) ||
      code === 45 ||
      code === 46 ||
      code === 91 ||
      code === 93;
    if (!ok) return false;
  }
  return true;
}

function bodyOf(req: NodeRequestWithBody): BodyInit {
  const parsed = req.body;
  if (parsed !== undefined && (req.readableEnded || req[PARSED])) {
    // A framework consumed the stream already (express.json() and the like).
    if (typeof parsed === 'string' || parsed instanceof Uint8Array) return parsed as BodyInit;
    return JSON.stringify(parsed);
  }
  return streamOf(req);
}

/** The request body as a web stream, with backpressure: Node pauses while the reader lags. */
function streamOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.once('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      req.once('error', (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      // The handler stopped reading (e.g. the body is too large): discard the rest.
      done = true;
      req.resume();
    },
  });
}

async function writeResponse(
  response: Response,
  req: IncomingMessage,
  res: ServerResponse,
  onError: (error: Error) => void,
): Promise<void> {
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const headers = headersOf(response);
  // Unread request bytes would otherwise be parsed as the next request on this connection.
  if (!req.complete && !(await drainRequest(req, res))) headers.connection = 'close';
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const body = response.body;
  if (!body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!isEventStream(response)) {
    const bytes = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(bytes.byteLength);
    res.writeHead(response.status, headers).end(bytes);
    return;
  }
  startStream(res, response.status, headers);
  await pipeStream(body, res, onError);
}

/**
 * Sends the head of a streamed response. An SSE client waits for the headers before its first
 * event, so they go out in this tick; the socket is corked until the tick ends, so the headers, the
 * events already written and, when the answer is complete (a POST answered at once), the end of
 * the response leave in one write instead of three (each a wake-up of the client).
 */
function startStream(res: ServerResponse, status: number, headers: Record<string, string | string[]>): void {
  res.writeHead(status, headers);
  const socket = res.socket;
  if (socket) {
    socket.cork();
    process.nextTick(uncork, socket);
  }
  res.flushHeaders();
}

function uncork(socket: Socket): void {
  socket.uncork();
}

function headersOf(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
}

function writeSimple(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    })
    .end(body);
}

/** Without an `onError` hook problems go unreported: a library never writes to the console. */
function defaultOnError(_error: Error): void {}
