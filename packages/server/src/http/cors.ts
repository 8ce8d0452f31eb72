/**
 * CORS for the HTTP handlers, so a web page on another origin can talk to an MCP server.
 *
 * Off by default: no origin is allowed, `OPTIONS` gets 405, and no response carries
 * `Access-Control-*` headers, so DNS-rebinding protection is as strict as without it. When on, it
 * only adds headers and answers preflights: the `Host` and `Origin` checks still run first, and
 * every origin listed here must also pass the `Origin` check (`allowedOrigins`), or the handler
 * refuses to start.
 * @module
 */

import type { HostGuard } from './hostGuard.js';
import { emptyReply, type Reply } from './responses.js';

/** The `cors` option of the HTTP handlers. */
export interface CorsOptions {
  /**
   * Origins whose pages may call the endpoint, exactly as browsers send them
   * (`"https://app.example.com"`, `"http://localhost:5173"`). No wildcards. Each must also be
   * accepted by `allowedOrigins` (the loopback names are by default).
   */
  readonly allowedOrigins: readonly string[];
  /** How long (seconds) a browser may cache a preflight answer (`Access-Control-Max-Age`). Default 600. */
  readonly maxAge?: number;
}

/**
 * The request headers of MCP over HTTP that a page must be allowed to send: those of 2025-11-25,
 * and `Mcp-Method` and `Mcp-Name` of 2026-07-28 (its `Mcp-Param-*` headers are added per preflight).
 */
const ALLOWED_HEADERS =
  'mcp-session-id, mcp-protocol-version, last-event-id, authorization, content-type, accept, mcp-method, mcp-name';
/**
 * An `Mcp-Param-{Name}` header name as a browser lists it in `Access-Control-Request-Headers`
 * (lower case; `Name` is an HTTP token). Anchored and linear: no backtracking.
 */
const PARAM_HEADER = /^mcp-param-[a-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
/** At most this many `Mcp-Param-*` names are echoed from one preflight; the header is read this far. */
const PARAM_LIMITS = { names: 32, headerChars: 4096 } as const;
/** The response headers a page must be able to read. */
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

/** What the policy reads of a request. */
interface CorsRequest {
  readonly method: string;
  readonly url: string;
  header(name: string): string | null;
}

/**
 * A compiled CORS policy; one per handler, no allocation per request beyond the headers it adds.
 *
 * @example
 * ```ts
 * const cors = CorsPolicy.create({ allowedOrigins: ['http://localhost:5173'] }, guard, 'GET, POST');
 * ```
 */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;
  private readonly maxAge: string;

  private constructor(
    options: CorsOptions,
    private readonly methods: string,
  ) {
    this.origins = new Set(options.allowedOrigins.map(normalizeOrigin));
    const maxAge = options.maxAge ?? 600;
    if (!Number.isInteger(maxAge) || maxAge < 0) throw new RangeError('cors.maxAge must be an integer >= 0');
    this.maxAge = String(maxAge);
  }

  /**
   * The policy for `options`, or undefined when CORS is off. Throws when an origin is malformed or
   * would be refused by the `Origin` check anyway.
   */
  static create(options: CorsOptions | undefined, guard: HostGuard, methods: string): CorsPolicy | undefined {
    if (options === undefined) return undefined;
    const policy = new CorsPolicy(options, methods);
    for (const origin of policy.origins) {
      if (!guard.allowsOrigin(origin)) {
        throw new RangeError(
          `cors.allowedOrigins: ${origin} is refused by the Origin check; add it to allowedOrigins as well`,
        );
      }
    }
    return policy;
  }

  /** The answer to an `OPTIONS` request (a preflight, or a plain question about methods). */
  preflight(request: CorsRequest): Reply {
    const reply = emptyReply(204);
    const headers = reply.headers;
    headers.allow = `${this.methods}, OPTIONS`;
    // The allowed headers echo the asked-for Mcp-Param-* names, so caches must key on them too.
    headers.vary = 'origin, access-control-request-headers';
    const origin = request.header('origin');
    if (origin !== null && this.origins.has(origin)) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-allow-methods'] = this.methods;
      headers['access-control-allow-headers'] = allowedHeaders(
        request.header('access-control-request-headers'),
      );
      headers['access-control-max-age'] = this.maxAge;
    }
    return reply;
  }

  /** Adds the CORS headers to an actual response for an allowed origin. */
  decorate(request: CorsRequest, reply: Reply): Reply {
    const headers = reply.headers;
    // Answers differ by Origin, so caches must keep them apart.
    headers.vary = headers.vary === undefined ? 'origin' : `${headers.vary}, origin`;
    const origin = request.header('origin');
    if (origin !== null && this.origins.has(origin)) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    }
    return reply;
  }

  /**
   * The same headers on a web `Response` made outside the handler (an authentication layer's 401,
   * whose `WWW-Authenticate` the page must read).
   */
  decorateResponse(request: Request, response: Response): Response {
    const origin = request.headers.get('origin');
    // A copy: the response's own headers may be immutable (one that came from fetch()). Only
    // refusals take this path, so the copy costs nothing on the hot path.
    const target = new Response(response.body, response);
    target.headers.append('vary', 'origin');
    if (origin !== null && this.origins.has(origin)) {
      target.headers.set('access-control-allow-origin', origin);
      target.headers.set('access-control-expose-headers', EXPOSED_HEADERS);
    }
    return target;
  }
}

/**
 * The handler's entry with CORS around `answer`, or `answer` itself when CORS is off (no cost
 * then). Built once per handler.
 *
 * @example
 * ```ts
 * this.handle = withCors(CorsPolicy.create(options.cors, guard, 'GET, POST'), guard, (r, e) => this.answer(r, e));
 * ```
 */
export function withCors<Request extends CorsRequest, Extra>(
  cors: CorsPolicy | undefined,
  guard: HostGuard,
  answer: (request: Request, extra: Extra) => Promise<Reply>,
): (request: Request, extra: Extra) => Promise<Reply> {
  if (cors === undefined) return answer;
  return async (request, extra) => {
    // A preflight carries no credentials and no session: answer it before routing, once the Host
    // and Origin checks pass (when they fail, `answer` gives the usual 403).
    if (request.method === 'OPTIONS' && guard.check(request) === undefined) return cors.preflight(request);
    return cors.decorate(request, await answer(request, extra));
  };
}

/**
 * The fixed allowed headers, plus each well-formed `Mcp-Param-*` name the preflight asks for
 * (2026-07-28 tools name their own headers, so no fixed list can hold them). Anything else asked
 * for is left out, and the browser then refuses the request itself.
 */
function allowedHeaders(requested: string | null): string {
  if (requested === null || !requested.toLowerCase().includes('mcp-param-')) return ALLOWED_HEADERS;
  const params: string[] = [];
  for (const part of requested.slice(0, PARAM_LIMITS.headerChars).split(',')) {
    const name = part.trim().toLowerCase();
    if (PARAM_HEADER.test(name) && !params.includes(name)) params.push(name);
    if (params.length === PARAM_LIMITS.names) break;
  }
  return params.length === 0 ? ALLOWED_HEADERS : `${ALLOWED_HEADERS}, ${params.join(', ')}`;
}

/** An origin as browsers serialize it; anything else is a configuration mistake. */
function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RangeError(`cors.allowedOrigins: ${JSON.stringify(value)} is not an origin`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.origin !== value.replace(/\/$/, '').toLowerCase()
  ) {
    throw new RangeError(
      `cors.allowedOrigins: ${JSON.stringify(value)} is not an origin (scheme://host[:port], no path)`,
    );
  }
  return url.origin;
}
