/**
 * Bridges `node:http` to web-standard handlers: an `IncomingMessage` becomes a `Request` (body
 * streamed, not buffered), and the handler's `Response` is written back (SSE bodies flushed event
 * by event). A client that disconnects aborts the `Request`'s signal and cancels the response
 * body, so the handler learns at once that nobody is listening.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web-standard request handler, such as the one `createStreamableHttpHandler` returns. */
export type FetchHandler<Extra = unknown> = (request: Request, extra?: Extra) => Response | Promise<Response>;

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions<Extra = unknown> {
  /**
   * Computes the handler's second argument from the Node request, e.g. the identity an earlier
   * authentication middleware attached: `(req) => ({ authInfo: req.auth })`.
   */
  extra?: (req: IncomingMessage) => Extra | undefined;
  /** Receives failures of the handler or of the response stream. Default: `console.error`. */
  onError?: (error: Error) => void;
}

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

type NodeRequestWithBody = IncomingMessage & { body?: unknown };

/**
 * Adapts a web-standard handler to a `node:http` listener, usable directly with
 * `http.createServer` and inside Node frameworks.
 *
 * Mounting in frameworks (no dependency on any of them):
 * ```ts
 * // Express: mount before any body parser, or let one run: a parsed `req.body` is used as is.
 * app.all('/mcp', toNodeListener(handler));
 *
 * // Fastify: hand over the raw objects and tell Fastify the reply is taken care of.
 * fastify.all('/mcp', (request, reply) => {
 *   reply.hijack();
 *   toNodeListener(handler)(request.raw, reply.raw);
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
export function toNodeListener<Extra>(
  handler: FetchHandler<Extra>,
  options: NodeListenerOptions<Extra> = {},
): NodeListener {
  const onError = options.onError ?? defaultOnError;
  return (req, res) => {
    serveOne(handler, options, onError, req, res).catch((error: unknown) => onError(toError(error)));
  };
}

async function serveOne<Extra>(
  handler: FetchHandler<Extra>,
  options: NodeListenerOptions<Extra>,
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
  let response: Response;
  try {
    response = await handler(request, options.extra?.(req));
  } catch (error) {
    onError(toError(error));
    writeSimple(res, 500, '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}');
    return;
  }
  await writeResponse(response, req, res, onError);
}

/**
 * Builds a web `Request` from a Node request. The body is streamed as it arrives (so a size
 * limit in the handler stops reading early); a body a framework already parsed is used instead.
 * `signal` should abort when the client goes away ({@link toNodeListener} does that).
 *
 * @example
 * ```ts
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
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) headers.append(name, raw[i + 1]!);
  }
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
  if (parsed !== undefined && req.readableEnded) {
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
  if (!req.complete) headers.connection = 'close';
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
  res.writeHead(response.status, headers);
  res.flushHeaders(); // an SSE client waits for headers before its first event
  await pipeStream(body, res, onError);
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

/** Copies a streamed body, honouring backpressure; a client that leaves cancels the stream. */
async function pipeStream(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  onError: (error: Error) => void,
): Promise<void> {
  const reader = body.getReader();
  const onClose = (): void => {
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (res.destroyed) break;
    }
    res.end();
  } catch (error) {
    // The stream failed (e.g. it was cut off for not being read): drop the connection.
    if (!res.destroyed) onError(toError(error));
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
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

function defaultOnError(error: Error): void {
  console.error(`[mcpkit] ${error.message}`);
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
