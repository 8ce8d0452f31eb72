/**
 * An OAuth login started from the console's page: the client's redirect hook hands the
 * authorization URL here, the page shows it as a "Log in" link (a real navigation in a new tab),
 * and the authorization server sends the person back to the console's own `GET /callback`.
 *
 * The redirect URI is `http://127.0.0.1:PORT/callback`, without the console's token: the token
 * never reaches the authorization server (nor its logs, nor a `Referer`). The callback therefore
 * cannot ask for the token; what protects it instead is the `state` of a login under way (random,
 * from the client, checked again by the client with the code's PKCE verifier): a request without
 * it resolves nothing, and the callback's answer tells nothing and grants nothing.
 * @module
 */
import type { EventHub } from './eventHub.js';

/**
 * Where a login the page starts comes back, and how the client waits for it: what
 * `ConsoleOptions.login.attach` receives, in the shape of a redirect hook's helper.
 *
 * @example
 * ```ts
 * declare const redirect: ConsoleLoginRedirect;
 * const provider = new OAuthClientProvider({
 *   serverUrl: 'http://127.0.0.1:3000/mcp',
 *   redirectUri: redirect.redirectUri,
 *   redirect: (url) => redirect.wait(url, 'HTTP 401 Unauthorized'),
 * });
 * ```
 */
export interface ConsoleLoginRedirect {
  /** `http://127.0.0.1:PORT/callback`: register it as the client's redirect URI. */
  readonly redirectUri: string;
  /**
   * Shows the page a "Log in" link to `authorizationUrl` with `reason` (why the server asks) and,
   * against a host, the `server` that asks; resolves with the query the authorization server sent
   * the person back with (its `state` being the one of `authorizationUrl`); rejects when the
   * person cancels on the page, the console closes, or nobody logs in for ten minutes.
   */
  wait(authorizationUrl: URL, reason?: string, server?: string): Promise<URLSearchParams>;
}

/**
 * A login the page shows while it waits (the `login` event and `state().logins`).
 *
 * @example
 * ```ts
 * const waiting: LoginWaiting = { url: 'https://auth.example.com/authorize?…', reason: 'HTTP 401 Unauthorized', server: 'github' };
 * ```
 */
export interface LoginWaiting {
  readonly url: string;
  readonly reason?: string;
  /** Against a host: the server that asks. */
  readonly server?: string;
}

/** How long a login may wait for the person. */
const LOGIN_WAIT_MS = 10 * 60_000;
/** Logins waiting at most (one per server being authorized); the oldest is given up. */
const MAX_WAITING = 16;

interface Waiter {
  readonly shown: LoginWaiting;
  resolve(params: URLSearchParams): void;
  reject(error: Error): void;
  /** Gives the login up after {@link LOGIN_WAIT_MS}; cleared when it settles. */
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * The logins waiting for the person, by `state`.
 *
 * @example
 * ```ts
 * const login = new PageLogin('http://127.0.0.1:4711/callback', hub);
 * const back = login.wait(authorizationUrl, 'HTTP 401 Unauthorized'); // the page shows "Log in"
 * ```
 */
export class PageLogin implements ConsoleLoginRedirect {
  readonly #waiting = new Map<string, Waiter>();
  readonly #listeners = new Set<() => void>();

  /** `loggedIn` is told when the person comes back from a login the authorization server granted. */
  constructor(
    readonly redirectUri: string,
    private readonly hub: EventHub,
    private readonly loggedIn: () => void = () => {},
  ) {}

  wait(authorizationUrl: URL, reason?: string, server?: string): Promise<URLSearchParams> {
    const state = authorizationUrl.searchParams.get('state');
    if (!state) return Promise.reject(new Error('The authorization URL carries no state'));
    if (this.#waiting.size >= MAX_WAITING) {
      const [oldest] = this.#waiting.keys();
      this.#settle(oldest!)?.reject(new Error('Another login replaced this one'));
    }
    return new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(
        () => this.#settle(state)?.reject(new Error('Nobody logged in from the console within 10 minutes')),
        LOGIN_WAIT_MS,
      );
      (timer as { unref?: () => void }).unref?.();
      const shown = {
        url: authorizationUrl.href,
        ...(reason ? { reason } : {}),
        ...(server ? { server } : {}),
      };
      this.#waiting.set(state, { shown, resolve, reject, timer });
      this.#changed();
    });
  }

  /** The logins the page shows, oldest first. */
  waiting(): LoginWaiting[] {
    return [...this.#waiting.values()].map((waiter) => waiter.shown);
  }

  /**
   * Waits for `connecting`, or only until a login waits for the person (then the connection goes
   * on in the background, and the page shows the "Log in" link).
   */
  async untilConnectedOrWaiting(connecting: Promise<void>): Promise<void> {
    if (this.#waiting.size > 0) return;
    let listener: (() => void) | undefined;
    const waiting = new Promise<void>((resolve) => {
      listener = resolve;
      this.#listeners.add(resolve);
    });
    try {
      await Promise.race([connecting, waiting]);
    } finally {
      this.#listeners.delete(listener!);
    }
  }

  /** The person gave up on the page: every waiting login fails with that reason. */
  cancel(): void {
    for (const state of [...this.#waiting.keys()])
      this.#settle(state)?.reject(new Error('The login was cancelled in the console'));
  }

  /**
   * `GET /callback?code=…&state=…` (or `error=…`), the `Host` already checked: hands the query to
   * the login whose `state` it carries, and tells the tab whether it may close.
   */
  callback(request: Request): Response {
    if (request.method !== 'GET')
      return page(405, 'Not allowed', 'This address only receives a login redirect.');
    // A browser sends the redirect as a top-level navigation; a script's fetch or a frame is refused.
    const mode = request.headers.get('sec-fetch-mode');
    const dest = request.headers.get('sec-fetch-dest');
    if ((mode !== null && mode !== 'navigate') || (dest !== null && dest !== 'document'))
      return page(403, 'Refused', 'This address only receives a login redirect in a browser tab.');
    const params = new URL(request.url).searchParams;
    const state = params.get('state');
    const waiter = state === null ? undefined : this.#settle(state);
    if (!waiter)
      return page(
        400,
        'Not the login the console is waiting for',
        'Start the login again with "Log in" on the console page.',
      );
    waiter.resolve(params);
    if (params.has('error'))
      return page(200, 'Login refused', 'The console page shows why. You can close this tab.');
    this.loggedIn();
    return page(200, 'Logged in', 'The console carries on. You can close this tab.');
  }

  /** The console is closing: every waiting login fails. */
  close(): void {
    for (const state of [...this.#waiting.keys()])
      this.#settle(state)?.reject(new Error('The console is closing'));
  }

  /** Takes the login of `state` out of the waiting ones. */
  #settle(state: string): Waiter | undefined {
    const waiter = this.#waiting.get(state);
    if (!waiter) return undefined;
    clearTimeout(waiter.timer);
    this.#waiting.delete(state);
    this.#changed();
    return waiter;
  }

  #changed(): void {
    this.hub.emit('login', this.waiting());
    for (const listener of [...this.#listeners]) listener();
  }
}

/** The small page the login's tab ends on: no script, nothing of the request echoed. */
function page(status: number, title: string, text: string): Response {
  return new Response(
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>mcpkit console: ${title}</title>` +
      `<body style="font-family:system-ui,sans-serif;margin:4em auto;max-width:32em">` +
      `<h1>${title}</h1><p>${text}</p></body></html>\n`,
    {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      },
    },
  );
}
