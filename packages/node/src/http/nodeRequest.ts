/**
 * A Node request as web-standard parts: the absolute URL, the headers, and the body (streamed with
 * backpressure, or the one a framework already read and parsed). Both serving paths of
 * `toNodeListener` read requests through these.
 * @module
 */
import type { IncomingMessage } from 'node:http';

/** Marks a body a framework parsed, as {@link adoptParsedBody} records it. */
export const PARSED = Symbol('mcpkit.parsedBody');
export type NodeRequestWithBody = IncomingMessage & { body?: unknown; [PARSED]?: true };

/** Records a body a framework parsed, where the body readers here look for one (as Express leaves it). */
export function adoptParsedBody(req: IncomingMessage, parsedBody: unknown): void {
  if (parsedBody === undefined || typeof parsedBody === 'function') return;
  (req as NodeRequestWithBody).body = parsedBody;
  (req as NodeRequestWithBody)[PARSED] = true;
}

/** A body a framework (express.json() and the like) already consumed and parsed. */
export function parsedBody(parsed: unknown): Uint8Array {
  if (parsed instanceof Uint8Array) return parsed;
  return Buffer.from(typeof parsed === 'string' ? parsed : JSON.stringify(parsed), 'utf8');
}

/**
 * Builds a web `Request` from a Node request. The body is streamed as it arrives (so a size
 * limit in the handler stops reading early); a body a framework already parsed is used instead.
 * `signal` should abort when the client goes away (`toNodeListener` does that).
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

export function copyHeaders(raw: readonly string[], headers: Headers): void {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) headers.append(name, raw[i + 1]!);
  }
}

/** The absolute URL of a Node request, as {@link toRequest} gives it to the handler. */
export function nodeRequestUrl(req: IncomingMessage): string {
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
