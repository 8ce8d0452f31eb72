/**
 * The loopback redirect listener of a native OAuth client (RFC 8252 §7.3): an HTTP server on
 * 127.0.0.1 with a random port, where the browser lands after the login with `code` and `state`.
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError, ExitCode } from '../errors.js';

/** How long a login in the browser may take. */
const LOGIN_WAIT_MS = 5 * 60_000;

/**
 * Where a login comes back: this module's listener, or `mcpkit console`'s own page.
 *
 * @example
 * ```ts
 * declare const redirect: LoginRedirect;
 * const params = await redirect.wait(authorizationUrl, 'HTTP 401');
 * ```
 */
export interface LoginRedirect {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUri: string;
  /**
   * Resolves with the query of the redirect that carries the `state` of `authorizationUrl`.
   * Requests with another state (a stale tab, a page poking at the port) are refused and ignored.
   * `reason` says why the server asks for a login (shown where the person starts it).
   */
  wait(authorizationUrl: URL, reason?: string): Promise<URLSearchParams>;
}

/**
 * A listening redirect endpoint.
 *
 * @example
 * ```ts
 * const loopback = await startLoopbackRedirect();
 * const provider = new OAuthClientProvider({ serverUrl, redirectUri: loopback.redirectUri, redirect: (url) => { open(url); return loopback.wait(url); } });
 * ```
 */
export interface LoopbackRedirect extends LoginRedirect {
  close(): Promise<void>;
}

interface Pending {
  readonly state: string;
  resolve(params: URLSearchParams): void;
  reject(error: Error): void;
}

/**
 * Starts the listener on 127.0.0.1: on `preferredPort` when given and free, else on a port the
 * system picks.
 *
 * @example
 * ```ts
 * const { redirectUri, close } = await startLoopbackRedirect(); // http://127.0.0.1:53412/callback
 * ```
 */
export async function startLoopbackRedirect(preferredPort?: number): Promise<LoopbackRedirect> {
  let pending: Pending | undefined;
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      page(res, 404, 'Not found', 'This address only receives the login redirect of mcpkit.');
      return;
    }
    const params = url.searchParams;
    if (!pending || params.get('state') !== pending.state) {
      page(res, 400, 'Not the login mcpkit is waiting for', 'Start the login again from the terminal.');
      return;
    }
    const refusal = refusalOf(params);
    if (refusal) {
      page(
        res,
        400,
        'Login refused',
        `The authorization server refused the login: ${refusal}. If it refused the scope mcpkit ` +
          'asked for, log in again naming one it grants: mcpkit login URL --scope SCOPE. ' +
          'The terminal says the same; you can close this page.',
      );
    } else page(res, 200, 'Logged in', 'mcpkit has what it needs. You can close this page.');
    pending.resolve(params);
    pending = undefined;
  });
  if (!(preferredPort && (await listen(http, preferredPort)))) {
    if (!(await listen(http, 0))) throw new CliError(ExitCode.Connection, 'Could not listen on 127.0.0.1');
  }
  const port = (http.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    wait(authorizationUrl) {
      return new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending = undefined;
          reject(
            new CliError(
              ExitCode.Connection,
              `Gave up waiting for the login in the browser after ${LOGIN_WAIT_MS / 60_000} minutes.`,
              'Run the command again, and finish the login in the browser',
            ),
          );
        }, LOGIN_WAIT_MS);
        timer.unref();
        pending = {
          state: authorizationUrl.searchParams.get('state') ?? '',
          resolve: (params) => {
            clearTimeout(timer);
            resolve(params);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
      });
    },
    async close() {
      pending?.reject(new CliError(ExitCode.Connection, 'The login was abandoned.'));
      pending = undefined;
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * What the authorization server refused, from the redirect's `error` and `error_description`
 * (RFC 6749 §4.1.2.1), escaped and shortened for the page; undefined for a successful redirect.
 *
 * @example
 * ```ts
 * refusalOf(new URLSearchParams('error=access_denied&error_description=No')); // 'access_denied (No)'
 * ```
 */
export function refusalOf(params: URLSearchParams): string | undefined {
  const error = params.get('error');
  if (error === null) return undefined;
  const description = params.get('error_description');
  const text = description ? `${error} (${description})` : error;
  return escapeHtml(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** Listens on `port` of 127.0.0.1; resolves false when it is taken (or refused). */
function listen(http: ReturnType<typeof createServer>, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const failed = () => resolve(false);
    http.once('error', failed);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', failed);
      resolve(true);
    });
  });
}

/** A small page for the browser tab; the request is echoed into it only escaped ({@link refusalOf}). */
function page(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>mcpkit: ${title}</title>` +
      `<body style="font-family:system-ui,sans-serif;margin:4em auto;max-width:32em">` +
      `<h1>${title}</h1><p>${text}</p></body></html>\n`,
  );
}
