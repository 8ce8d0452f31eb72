/**
 * What the undici path of the HTTP client answers with: the parts of a web `Response` the
 * transports read (status, `ok`, `headers.get`, the body as raw chunks) over undici's own header
 * record, so no `Response` or `Headers` is built per request. Where user code receives the
 * response (the auth hooks, or whoever calls the fetch of `createUndiciFetch` directly), a real
 * `Response` is made from it, body included.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { RAW_BODY } from '@mcpkit/client/http';
import type { BodyQueue } from './bodyQueue.js';

/**
 * The key under which such a response offers its real `Response` (`@mcpkit/client/http` looks
 * for it by the same `Symbol.for` key before handing a response to an auth hook).
 */
export const WEB_RESPONSE: unique symbol = Symbol.for('mcpkit.http.webResponse');

/** Statuses whose response has no body, as `Response` requires. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Read access to undici's header record (lower-case names) in the shape of `Headers.get`.
 *
 * @example
 * ```ts
 * new ResponseHeaders({ 'content-type': 'application/json' }).get('Content-Type'); // 'application/json'
 * ```
 */
export class ResponseHeaders {
  constructor(private readonly record: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.record[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  /** Name/value pairs, which `Response` copies once. */
  pairs(): [string, string][] {
    const pairs: [string, string][] = [];
    for (const name in this.record) {
      const value = this.record[name];
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
      else pairs.push([name, value]);
    }
    return pairs;
  }
}

/**
 * One response of the undici path.
 *
 * @example
 * ```ts
 * declare const response: DispatchedResponse;
 * if (response.ok && response.headers.get('content-type') === 'application/json') {
 *   console.log(await response[RAW_BODY].text?.());
 * }
 * ```
 */
export class DispatchedResponse {
  readonly type = 'basic';
  readonly redirected = false;
  /** The body is offered under `RAW_BODY` only; a web stream is made by `[WEB_RESPONSE]()`. */
  readonly body = null;
  readonly bodyUsed = false;
  readonly headers: ResponseHeaders;
  readonly [RAW_BODY]: BodyQueue;

  constructor(
    private readonly target: URL,
    readonly status: number,
    readonly statusText: string,
    headers: IncomingHttpHeaders,
    body: BodyQueue,
    private readonly head: boolean,
  ) {
    this.headers = new ResponseHeaders(headers);
    this[RAW_BODY] = body;
  }

  get url(): string {
    return this.target.href;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** A real `Response` with the same status, headers and body (read from the same chunks). */
  [WEB_RESPONSE](): Response {
    const raw = this[RAW_BODY];
    const init = { status: this.status, statusText: this.statusText, headers: this.headers.pairs() };
    if (NULL_BODY_STATUSES.has(this.status) || this.head) {
      raw.cancel();
      return withRawBody(new Response(null, init), raw);
    }
    const iterator = raw.chunks[Symbol.asyncIterator]();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: () => raw.cancel(),
    });
    return withRawBody(new Response(stream, init), raw);
  }
}

/** The raw chunks stay offered too, so a transport handed this `Response` still reads them directly. */
function withRawBody(response: Response, raw: BodyQueue): Response {
  Object.defineProperty(response, RAW_BODY, { value: raw });
  return response;
}
