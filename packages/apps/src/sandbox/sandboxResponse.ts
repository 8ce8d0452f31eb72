/**
 * The sandbox proxy page as a web response, for any server: `GET <path>?host=<origin>&csp=<json>`
 * answers the page with a `Content-Security-Policy` header built only from the declared domains
 * in `csp` (see `contentSecurityPolicy`); a malformed `host` or `csp` gets 400, another path 404,
 * another method 405. Web-standard (`Request` → `Response`), so it runs on any runtime.
 * @module
 */
import { contentSecurityPolicy, InvalidCspError } from '../shared/csp.js';
import type { UiCsp } from '../shared/meta.js';
import { SANDBOX_PROXY_HTML } from './proxyPage.js';

/** The longest `csp` parameter accepted. */
const MAX_CSP_PARAM = 8192;
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/;

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
}

function parseCsp(raw: string | null): UiCsp {
  if (raw === null || raw === '') return {};
  if (raw.length > MAX_CSP_PARAM) throw new InvalidCspError('csp is too long');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InvalidCspError('csp is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidCspError('csp is not an object');
  return value as UiCsp;
}

/**
 * Answers a request for the sandbox proxy page at `path`.
 *
 * @example
 * ```ts
 * const response = sandboxResponse(new Request('http://127.0.0.1:4100/sandbox?host=http%3A%2F%2F127.0.0.1%3A3000'));
 * response.headers.get('content-security-policy'); // "default-src 'none'; …"
 * ```
 */
export function sandboxResponse(request: Request, path = '/sandbox'): Response {
  const url = new URL(request.url);
  if (url.pathname !== path) return plain(404, 'Not found');
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
  const host = url.searchParams.get('host');
  if (host === null || !ORIGIN.test(host)) return plain(400, 'host must be the origin of the host page');
  let policy: string;
  try {
    policy = contentSecurityPolicy(parseCsp(url.searchParams.get('csp')));
  } catch (error) {
    if (error instanceof InvalidCspError) return plain(400, error.message);
    throw error;
  }
  return new Response(request.method === 'HEAD' ? null : SANDBOX_PROXY_HTML, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  });
}
