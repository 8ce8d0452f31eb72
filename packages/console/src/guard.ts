/**
 * Who may talk to the console's backend: only the page the console itself served, in the browser
 * of the person who started it. Every request must name the console's own `Host` (a DNS-rebinding
 * page names its own domain); a browser's `Origin` and `Sec-Fetch-Site`, when sent, must say the
 * request comes from the console's own origin; and every API call carries the random token of
 * the URL the console printed. A page on another origin can therefore neither drive the backend
 * (no token, wrong origin) nor read its answers (no CORS headers are ever sent).
 * @module
 */

/**
 * The header the console's page sends its token in (a custom header also forces a CORS preflight).
 *
 * @example
 * ```ts
 * await fetch('http://127.0.0.1:4711/api/state', { method: 'POST', headers: { [TOKEN_HEADER]: 'the token' } });
 * ```
 */
export const TOKEN_HEADER = 'x-mcpkit-console-token';

/**
 * The checks of one console backend: its port (for `Host` and `Origin`) and its token.
 *
 * @example
 * ```ts
 * const guard = new RequestGuard(4711, 'secret');
 * guard.refusal(new Request('http://127.0.0.1:4711/api/state')); // a 403 Response: no token
 * ```
 */
export class RequestGuard {
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;
  readonly #token: Uint8Array;

  constructor(port: number, token: string) {
    this.#hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.#origins = new Set([...this.#hosts].map((host) => `http://${host}`));
    this.#token = new TextEncoder().encode(token);
  }

  /**
   * Why `request` is refused, as the response to send, or `undefined` when it may go on.
   * `needsToken` is false only for the page's static assets, which hold no secret.
   */
  refusal(request: Request, needsToken = true): Response | undefined {
    const wrongHost = this.hostRefusal(request);
    if (wrongHost) return wrongHost;
    const origin = request.headers.get('origin');
    if (origin !== null && !this.#origins.has(origin)) return refuse(403, 'Cross-origin request refused');
    const site = request.headers.get('sec-fetch-site');
    // `none`: the person typed or pasted the URL; anything but the console's own origin is refused.
    if (site !== null && site !== 'same-origin' && site !== 'none') {
      return refuse(403, 'Cross-site request refused');
    }
    if (needsToken && !this.tokenMatches(tokenOf(request))) return refuse(403, 'Missing or wrong token');
    return undefined;
  }

  /**
   * The `Host` check alone, for the one route another origin's navigation legitimately reaches:
   * the OAuth redirect back from an authorization server (see `PageLogin.callback`).
   */
  hostRefusal(request: Request): Response | undefined {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    return this.#hosts.has(host.toLowerCase()) ? undefined : refuse(421, 'Wrong Host header');
  }

  /** Compares in time independent of where the first difference is. */
  private tokenMatches(candidate: string | null): boolean {
    if (candidate === null) return false;
    const given = new TextEncoder().encode(candidate);
    if (given.length !== this.#token.length) return false;
    let difference = 0;
    for (let i = 0; i < given.length; i++) difference |= given[i]! ^ this.#token[i]!;
    return difference === 0;
  }
}

/** The token of a request: the header for `fetch`, the `token` query parameter for `EventSource`. */
function tokenOf(request: Request): string | null {
  return request.headers.get(TOKEN_HEADER) ?? new URL(request.url).searchParams.get('token');
}

function refuse(status: number, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * A fresh random token: 32 bytes from the platform's CSPRNG, base64url.
 *
 * @example
 * ```ts
 * const token = randomToken(); // 43 characters
 * ```
 */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}
