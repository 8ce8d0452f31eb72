/**
 * The client HTTP path on Node: requests go through `undici`'s `request` API (the engine under
 * Node's own `fetch`) instead of the global `fetch`, skipping the fetch algorithm, `Request` and
 * stream objects per call. The result is still a web `Response` (status and headers), its body
 * offered as raw chunks under `RAW_BODY`, so everything the transport does on top (same-origin
 * redirects, auth and the 401 retry, message limits, SSE resumption, abort, the session header)
 * is the same code on both paths.
 * @module
 */
import { type FetchLike, RAW_BODY, type RawBody } from '@mcpkit/client/http';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';

/**
 * Options of {@link createUndiciFetch}.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 *
 * const options: UndiciFetchOptions = { ca: readFileSync('corp-root.pem', 'utf8'), connections: 32 };
 * ```
 */
export interface UndiciFetchOptions {
  /** Extra trusted certificate authorities (PEM), e.g. a company root. Default: Node's own. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** Connections kept per origin. Default: no limit (undici's default). */
  connections?: number;
  /**
   * Honour `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (and their lower-case forms), read once
   * when the fetch is created. Default true.
   */
  proxyFromEnv?: boolean;
  /** A ready undici dispatcher; the options above are then ignored. */
  dispatcher?: Dispatcher;
}

/** Statuses whose response has no body, as `Response` requires. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A {@link FetchLike} on undici's `request`, with its own connection pool.
 *
 * @example
 * ```ts
 * import { StreamableHttpClientTransport } from '@mcpkit/client/http';
 * const transport = new StreamableHttpClientTransport(url, { fetch: createUndiciFetch({ connections: 16 }) });
 * ```
 */
export function createUndiciFetch(options: UndiciFetchOptions = {}): FetchLike {
  const dispatcher = options.dispatcher ?? createDispatcher(options);
  return async (url, init) => {
    // The dispatcher's own `request`, not undici's top-level one: that re-parses the URL and
    // copies the options on every call.
    const { statusCode, statusText, headers, body } = await dispatcher.request({
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: headerRecord(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
    });
    // Errors reach whoever reads the body; an abort (close) that finds nobody reading yet must
    // not become an uncaught exception.
    body.on('error', ignore);
    const response = new Response(null, { status: statusCode, statusText, headers: headerPairs(headers) });
    if (NULL_BODY_STATUSES.has(statusCode) || init.method === 'HEAD') {
      body.dump().catch(() => {});
      return response;
    }
    // The body stays a Node stream, read as chunks by the transport (no web stream per request).
    // A JSON or empty body is drained (`dump` destroys it past 128 KiB) so its socket is reused;
    // an SSE stream may never end, so it is destroyed.
    const streaming = String(headers['content-type'] ?? '').startsWith('text/event-stream');
    const cancel = () => {
      if (body.readableEnded) return;
      if (!streaming) return void body.dump().catch(() => {});
      body.destroy();
    };
    const raw: RawBody = { chunks: body, cancel, text: () => body.text() };
    Object.defineProperty(response, RAW_BODY, { value: raw });
    return response;
  };
}

function ignore(): void {}

function createDispatcher(options: UndiciFetchOptions): Dispatcher {
  const ca = options.ca as string | Buffer | (string | Buffer)[] | undefined;
  const tls = ca === undefined ? undefined : { ca };
  const base = {
    ...(tls ? { connect: tls } : {}),
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  };
  // Without proxy variables a plain Agent does the job: EnvHttpProxyAgent reads NO_PROXY from
  // the environment on every request (≈7% of a call's CPU, measured).
  if (options.proxyFromEnv === false || !proxyVariablesSet()) return new Agent(base);
  return new EnvHttpProxyAgent(tls ? { ...base, requestTls: tls } : base);
}

function proxyVariablesSet(): boolean {
  const env = process.env;
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  if (headers === undefined) return {};
  // The requester hands over a plain object with lower-case names: used as it is.
  if (!(headers instanceof Headers) && !Array.isArray(headers)) return headers as Record<string, string>;
  const record: Record<string, string> = {};
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** undici's header record as name/value pairs, which `Response` copies once (a `Headers` would be copied again). */
function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else pairs.push([name, value]);
  }
  return pairs;
}
