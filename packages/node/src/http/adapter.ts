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
import type { RawHttpHandler, RawHttpReply } from '@mcpkit/server/http';
import { adoptParsedBody, toRequest } from './nodeRequest.js';
import { NodeRequestView } from './requestView.js';
import { drainRequest, pipeStream } from './socketFlow.js';

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
