/**
 * The Node request as the handlers' raw view ({@link RawHttpRequest}), mcpkit's own handlers' way
 * in without building a web `Request`.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AbortSignalLike, RawHttpRequest } from '@mcpkit/server/http';
import { copyHeaders, type NodeRequestWithBody, nodeRequestUrl, PARSED, parsedBody } from './nodeRequest.js';
import { readLimited } from './socketFlow.js';

/** The view of the request a response answers, so one shared `close` listener serves every request. */
const VIEW = Symbol('mcpkit.requestView');
type ViewedResponse = ServerResponse & { [VIEW]?: NodeRequestView };

/**
 * A Node request as the handlers' {@link RawHttpRequest}: headers read from `rawHeaders` (joined
 * like `Headers.get`, so a repeated Host or Origin is seen as such), the body read straight from
 * the stream, and a signal that fires when the client leaves before the response is complete.
 */
export class NodeRequestView implements RawHttpRequest, AbortSignalLike {
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
