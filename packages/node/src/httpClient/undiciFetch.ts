/**
 * The client HTTP path on Node: requests go to an undici dispatcher (the engine under Node's own
 * `fetch`) with a dispatch handler of our own, skipping the fetch algorithm, undici's `request`
 * API, and the `Request`, `Response`, `Headers` and stream objects per call. The transports of
 * `@mcpkit/client/http` find that direct path on the fetch this module makes and read its answers
 * (status, headers, body as raw chunks) as they read a `Response`; a real `Response` is made only
 * for user code: the auth hooks, and callers of the fetch itself. Everything the transport does on
 * top (same-origin redirects, auth and the 401 retry, message limits, SSE resumption, abort, the
 * session header) is the same code on both paths.
 * @module
 */
import type { FetchLike } from '@mcpkit/client/http';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { type DispatchedResponse, WEB_RESPONSE } from './dispatchedResponse.js';
import { type FetchAbortLike, ResponseHandler } from './responseHandler.js';

/**
 * The key under which the fetch of {@link createUndiciFetch} offers its direct path
 * (`@mcpkit/client/http` looks it up by the same `Symbol.for` key).
 */
const DIRECT_FETCH = Symbol.for('mcpkit.http.directFetch');
/** Where the transport puts the `FetchAbort` of a request on the direct path (same key there). */
const FETCH_ABORT = Symbol.for('mcpkit.http.fetchAbort');

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

/**
 * A {@link FetchLike} on an undici dispatcher, with its own connection pool.
 *
 * @example
 * ```ts
 * import { StreamableHttpClientTransport } from '@mcpkit/client/http';
 * const transport = new StreamableHttpClientTransport(url, { fetch: createUndiciFetch({ connections: 16 }) });
 * ```
 */
export function createUndiciFetch(options: UndiciFetchOptions = {}): FetchLike {
  const dispatcher = options.dispatcher ?? createDispatcher(options);
  const target = new TargetCache();
  const direct = (url: URL, init: RequestInit) => dispatchRequest(dispatcher, target.of(url), url, init);
  const fetchLike: FetchLike = async (url, init) => (await direct(url, init))[WEB_RESPONSE]();
  Object.defineProperty(fetchLike, DIRECT_FETCH, { value: direct });
  return fetchLike;
}

/**
 * The origin and path of the last URL asked for: a transport sends every request to the same
 * `URL` object, whose `origin` getter builds a new string on each read.
 */
class TargetCache {
  private url: URL | undefined;
  private href = '';
  private value = { origin: '', path: '' };

  of(url: URL): { origin: string; path: string } {
    // The href check catches a URL object changed in place.
    if (url !== this.url || url.href !== this.href) {
      this.url = url;
      this.href = url.href;
      this.value = { origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname };
    }
    return this.value;
  }
}

function dispatchRequest(
  dispatcher: Dispatcher,
  target: { origin: string; path: string },
  url: URL,
  init: RequestInit,
): Promise<DispatchedResponse> {
  const fetchAbort = (init as { [FETCH_ABORT]?: FetchAbortLike })[FETCH_ABORT];
  const signal = fetchAbort ? undefined : (init.signal ?? undefined);
  if (fetchAbort?.aborted) return Promise.reject(fetchAbort.reason);
  if (signal?.aborted) return Promise.reject(signal.reason);
  const method = (init.method ?? 'GET') as Dispatcher.HttpMethod;
  return new Promise((resolve, reject) => {
    const handler = new ResponseHandler(url, method === 'HEAD', fetchAbort, signal, resolve, reject);
    dispatcher.dispatch(
      {
        origin: target.origin,
        path: target.path,
        method,
        headers: headerRecord(init.headers),
        body: typeof init.body === 'string' ? init.body : undefined,
      },
      handler,
    );
  });
}

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
