/**
 * DNS-rebinding protection: the `Host` and `Origin` checks every HTTP request goes through.
 *
 * A web page on `evil.example` can make a browser resolve its own name to 127.0.0.1 and then talk
 * to a local server; the browser still sends `Host: evil.example` and `Origin: http://evil.example`.
 * Checking both against an allow-list defeats it. The default list is the loopback names, which is
 * right for a local server; a server reachable under another name must list it.
 * @module
 */
import type { CorsOptions } from './cors.js';
import type { GuardedRequest, HostGuard } from './hostGuard.js';

export type { GuardedRequest, HostGuard } from './hostGuard.js';

/**
 * The names a local server answers to by default (any port).
 *
 * @example
 * ```ts
 * createStreamableHttpHandler(server, { allowedHosts: [...LOCALHOST_NAMES, 'mcp.internal'] });
 * ```
 */
export const LOCALHOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Allow-list options shared by the Streamable HTTP and legacy SSE handlers. */
export interface HostSecurityOptions {
  /**
   * Accepted `Host` header values: a bare name (`"mcp.example.com"`, any port) or `name:port`
   * (exact). IPv6 addresses in brackets (`"[::1]"`). `false` turns the check off (only behind a
   * proxy that checks it). Default: `localhost`, `127.0.0.1`, `[::1]`, any port.
   */
  allowedHosts?: readonly string[] | false;
  /**
   * Accepted `Origin` header values, checked when the header is present: a full origin
   * (`"https://app.example.com"`, exact) or a bare name (any scheme and port). `false` turns the
   * check off. Default: the loopback names, any scheme and port.
   */
  allowedOrigins?: readonly string[] | false;
  /**
   * Let web pages on these origins call the endpoint (CORS): preflights are answered, responses
   * carry `Access-Control-Allow-Origin` and expose `Mcp-Session-Id`, `MCP-Protocol-Version` and
   * `WWW-Authenticate`. Each origin must also pass `allowedOrigins`. Default: off.
   */
  cors?: CorsOptions;
}

/**
 * Compiles the allow-lists of `options` into a guard.
 *
 * @example
 * ```ts
 * const guard = createHostGuard({ allowedHosts: ['mcp.example.com'] });
 * if (guard.check(webRequestView(request))) return new Response(null, { status: 403 });
 * ```
 */
export function createHostGuard(options: HostSecurityOptions): HostGuard {
  const hosts =
    options.allowedHosts === false ? undefined : lowerSet(options.allowedHosts ?? LOCALHOST_NAMES);
  const origins =
    options.allowedOrigins === false ? undefined : lowerSet(options.allowedOrigins ?? LOCALHOST_NAMES);
  return {
    check(request) {
      if (hosts && !hostAllowed(hostOf(request), hosts)) return 'host';
      if (origins) {
        const origin = request.header('origin');
        if (origin !== null && !originAllowed(origin, origins)) return 'origin';
      }
      return undefined;
    },
    allowsOrigin: (origin) => origins === undefined || originAllowed(origin, origins),
  };
}

function lowerSet(values: readonly string[]): ReadonlySet<string> {
  return new Set(values.map((value) => value.toLowerCase()));
}

/** The `Host` header; runtimes that drop it still carry the host in the request URL. */
function hostOf(request: GuardedRequest): string {
  const header = request.header('host');
  if (header !== null) return header;
  try {
    return new URL(request.url).host;
  } catch {
    return '';
  }
}

/** Splits `name[:port]` (names in brackets for IPv6). `undefined` when malformed. */
export function splitHost(host: string): { name: string; port: string } | undefined {
  const value = host.trim().toLowerCase();
  if (value === '' || value.length > 300) return undefined;
  let name: string;
  let rest: string;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close < 0) return undefined;
    name = value.slice(0, close + 1);
    rest = value.slice(close + 1);
  } else {
    const colon = value.indexOf(':');
    name = colon < 0 ? value : value.slice(0, colon);
    rest = colon < 0 ? '' : value.slice(colon);
  }
  if (name === '' || name === '[]') return undefined;
  if (rest === '') return { name, port: '' };
  const port = rest.slice(1);
  if (rest[0] !== ':' || port === '' || port.length > 5 || !isDigits(port)) return undefined;
  return { name, port };
}

function hostAllowed(host: string, allowed: ReadonlySet<string>): boolean {
  const parts = splitHost(host);
  if (!parts) return false;
  return allowed.has(parts.name) || (parts.port !== '' && allowed.has(`${parts.name}:${parts.port}`));
}

function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return allowed.has(url.origin) || allowed.has(url.hostname);
}

function isDigits(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
