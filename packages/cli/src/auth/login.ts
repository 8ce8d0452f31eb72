/**
 * How the CLI logs in to an HTTP server that asks for OAuth: `@mcpkit/auth`'s client does the
 * protocol; this module decides when a browser may be opened, runs the loopback redirect, and
 * keeps the tokens in the user's cache.
 *
 * On a terminal, the first 401 opens the browser (or prints the URL when none opens). Off a
 * terminal or with `--no-login`, cached tokens are used and refreshed, but a login is never
 * started: the command fails with exit code 3 and says to run `mcpkit login`.
 * @module
 */

import {
  type AuthObserver,
  bearerChallenge,
  OAuthClientProvider,
  type StoredClient,
} from '@mcpkit/auth/client';
import type { AuthProvider } from '@mcpkit/client/http';
import type { AuthSettings } from '../args.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import type { BrowserOpener } from './browser.js';
import { type LoginRedirect, type LoopbackRedirect, startLoopbackRedirect } from './loopback.js';
import type { FileTokenCache, ServerSettings } from './tokenCache.js';

/** What {@link CliAuth} needs from the command around it. */
export interface CliAuthOptions {
  readonly url: URL;
  readonly settings: AuthSettings;
  readonly cache: FileTokenCache;
  /** Whether a login may be started here (on a terminal without `--no-login`, or `mcpkit login`). */
  readonly interactive: boolean;
  /** Why a login may not be started, for the error (when not `interactive`). */
  readonly whyNot?: string;
  /** The command that logs in to this server, for the error's hint; `mcpkit login URL` by default. */
  readonly loginCommand?: string;
  readonly openBrowser: BrowserOpener;
  /** Tells the user something on stderr. */
  readonly notice: (text: string) => void;
  /** The `--verbose` trace; never given a token or secret. */
  readonly trace?: ((line: string) => void) | undefined;
  /** Told of each step of a login (the console shows them); never given a token or secret. */
  readonly observer?: AuthObserver | undefined;
  /**
   * Where logins come back instead of a listener of this command's own (`mcpkit console`'s
   * page, where the person starts them): no browser is opened from here then.
   */
  readonly redirect?: LoginRedirect | undefined;
}

/** Where a non-interactive provider would send the user; never used, since it refuses to log in. */
const NO_REDIRECT = 'http://127.0.0.1/callback';

/**
 * The CLI's `AuthProvider`: cached tokens first, refresh when they expire, a browser login when
 * allowed.
 *
 * @example
 * ```ts
 * const auth = await CliAuth.create({ url, settings: settings.auth, cache, interactive: true, openBrowser: openSystemBrowser, notice });
 * const transport = new HttpClientTransport(url, { authProvider: auth });
 * ```
 */
export class CliAuth implements AuthProvider {
  /** The canonical URI of the server: the key of its cache entry. */
  readonly resource: string;
  /** Set once a login in the browser finished during this command. */
  loggedIn = false;
  private readonly quiet: OAuthClientProvider;
  private login: Promise<{ provider: OAuthClientProvider; loopback: LoopbackRedirect }> | undefined;
  /** The login provider once started: `headers()` must read through it (it may have refreshed). */
  private started: OAuthClientProvider | undefined;
  private reading: Promise<Record<string, string>> | undefined;
  private readonly client: StoredClient | undefined;
  private readonly scope: string | undefined;
  /**
   * The failure of this command's login, given again to every later 401: a client that retries
   * (the 2026-07-28 probe falling back to `initialize`) must not start a second login in the
   * browser after the user or the authorization server said no.
   */
  private failed: unknown;
  /** Counts {@link allowAnotherLogin}: a login of an earlier attempt that fails late is not remembered. */
  private attempt = 0;
  /** Why the server asked for the login under way (its status and `WWW-Authenticate`). */
  private why: string | undefined;

  private constructor(
    private readonly options: CliAuthOptions,
    remembered: ServerSettings | undefined,
  ) {
    const { settings } = options;
    if (settings.clientSecret !== undefined && settings.clientId === undefined) {
      throw usageError(
        '--client-secret needs --client-id',
        'mcpkit login URL --client-id ID --client-secret S',
      );
    }
    this.client = settings.clientId
      ? { clientId: settings.clientId, clientSecret: settings.clientSecret }
      : remembered?.client;
    this.scope = settings.scope ?? remembered?.scope;
    this.quiet = this.provider(NO_REDIRECT, async () => {
      throw this.loginRequired();
    });
    this.resource = this.quiet.resource;
  }

  /** Builds the provider for `url`, with the client id remembered from an earlier `login`. */
  static async create(options: CliAuthOptions): Promise<CliAuth> {
    const probe = new OAuthClientProvider({ serverUrl: options.url });
    const entry = await options.cache.server(probe.resource);
    return new CliAuth(options, entry);
  }

  /**
   * One at a time: `headers()` may refresh, and two refreshes with the same rotating refresh token
   * make the authorization server revoke the grant (the POST, the GET stream and a notification
   * of one command all ask at once).
   */
  async headers(): Promise<Record<string, string>> {
    while (this.reading) await this.reading.catch(() => {});
    const reading = (this.started ?? this.quiet).headers();
    this.reading = reading;
    try {
      return await reading;
    } finally {
      if (this.reading === reading) this.reading = undefined;
    }
  }

  async onUnauthorized(response: Response): Promise<boolean> {
    this.options.trace?.(`auth: HTTP 401 from ${this.resource}; refreshing or logging in`);
    this.why = loginReason(response);
    if (!this.options.interactive) {
      // Refreshing needs no browser; anything more fails with loginRequired (from the redirect hook).
      if (!(await this.options.cache.loadTokens(this.resource))?.refreshToken) throw this.loginRequired();
      return this.quiet.onUnauthorized(response);
    }
    return this.afterLogin(await this.once((provider) => provider.onUnauthorized(response)));
  }

  async onForbidden(response: Response): Promise<boolean> {
    this.options.trace?.(`auth: HTTP 403 from ${this.resource}; the token may lack a scope`);
    this.why = loginReason(response);
    if (!this.options.interactive) {
      // Only a step-up (403 insufficient_scope) is ours to handle, and it needs the browser.
      const challenge = await bearerChallenge(response);
      if (challenge?.error === 'insufficient_scope') throw this.loginRequired(challenge.scope);
      return false;
    }
    return this.afterLogin(await this.once((provider) => provider.onForbidden(response)));
  }

  /** Runs `step` on the login provider, unless a login already failed in this command. */
  private async once(step: (provider: OAuthClientProvider) => Promise<boolean>): Promise<boolean> {
    if (this.failed !== undefined) throw this.failed;
    const attempt = this.attempt;
    try {
      return await step(await this.loginProvider());
    } catch (error) {
      if (attempt === this.attempt) this.failed = error;
      throw error;
    }
  }

  /** Forgets this command's failed login: the person asked to try again (the console's page). */
  allowAnotherLogin(): void {
    this.attempt++;
    this.failed = undefined;
  }

  /** Forgets the cached tokens of this server, so the next 401 starts a login. */
  async forgetTokens(): Promise<void> {
    await this.options.cache.saveTokens(this.resource, undefined);
  }

  /** Stops the loopback listener, if a login started one. */
  async close(): Promise<void> {
    const login = await this.login?.catch(() => undefined);
    await login?.loopback.close();
  }

  private provider(redirectUri: string, redirect: (url: URL) => Promise<URLSearchParams>) {
    const { url, cache } = this.options;
    return new OAuthClientProvider({
      serverUrl: url,
      store: cache,
      redirectUri,
      redirect,
      ...(this.client ? { clientId: this.client.clientId, clientSecret: this.client.clientSecret } : {}),
      ...(this.scope ? { scope: this.scope } : {}),
      // A native app (RFC 8252): servers then accept the loopback redirect on any port.
      clientMetadata: { client_name: 'mcpkit CLI', application_type: 'native' },
      ...(this.options.observer ? { observer: this.options.observer } : {}),
    });
  }

  /** The provider that may log in, with its loopback listener; started once, on first need. */
  private loginProvider(): Promise<OAuthClientProvider> {
    this.login ??= this.startLoopback().then((loopback) => {
      this.options.trace?.(`auth: waiting for the login redirect on ${loopback.redirectUri}`);
      const provider = this.provider(loopback.redirectUri, (url) => this.browse(url, loopback));
      this.started = provider;
      return { provider, loopback };
    });
    return this.login.then(({ provider }) => provider);
  }

  /** The listener, on the port of the last login when it is free. */
  private async startLoopback(): Promise<LoopbackRedirect> {
    const { cache, redirect } = this.options;
    if (redirect) {
      return {
        redirectUri: redirect.redirectUri,
        wait: (url, why) => redirect.wait(url, why),
        close: async () => {}, // the console owns it
      };
    }
    const preferred = await cache.loopbackPort();
    const loopback = await startLoopbackRedirect(preferred);
    const port = Number(new URL(loopback.redirectUri).port);
    if (port !== preferred) await cache.saveLoopbackPort(port);
    return loopback;
  }

  /** Sends the user to the authorization URL and waits for the redirect back. */
  private async browse(url: URL, loopback: LoopbackRedirect): Promise<URLSearchParams> {
    const back = loopback.wait(url, this.why);
    if (this.options.redirect) {
      this.options.notice(`${this.resource} asks you to log in: press "Log in" on the console's page.`);
      const params = await back;
      this.loggedIn = true;
      return params;
    }
    this.options.notice(`${this.resource} asks you to log in; opening your browser…`);
    const opened = await this.options.openBrowser(url.href).catch(() => false);
    this.options.notice(
      opened
        ? 'Finish the login in your browser (Ctrl-C to give up).'
        : `No browser could be opened. To log in, open this URL:\n  ${url.href}`,
    );
    const params = await back;
    this.loggedIn = true;
    this.options.trace?.('auth: the browser came back; exchanging the code for tokens');
    return params;
  }

  /** After a login: the client id and scope given on the command line are remembered for this server. */
  private async afterLogin(retry: boolean): Promise<boolean> {
    const { clientId, scope } = this.options.settings;
    if (this.loggedIn && (clientId || scope)) {
      await this.options.cache.saveServerSettings(this.resource, {
        ...(clientId ? { client: this.client } : {}),
        ...(scope ? { scope } : {}),
      });
    }
    return retry;
  }

  private loginRequired(scope?: string): CliError {
    const why = this.options.whyNot ?? 'mcpkit may not open a browser here';
    const need = scope ? `a login with scope "${scope}"` : 'you to log in';
    return new CliError(
      ExitCode.Connection,
      `${this.resource} needs ${need}, and ${why}.`,
      `Log in first: ${this.options.loginCommand ?? `mcpkit login ${this.options.url.href}`}`,
    );
  }
}

/** The longest `WWW-Authenticate` value repeated to the person. */
const MAX_CHALLENGE = 500;

/**
 * Why a server asks for a login, from its 401 or 403: the status and its `WWW-Authenticate`
 * challenge (which names the error, the scope and where its metadata is).
 *
 * @example
 * ```ts
 * loginReason(new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer resource_metadata="…"' } }));
 * // 'HTTP 401; WWW-Authenticate: Bearer resource_metadata="…"'
 * ```
 */
export function loginReason(response: Response): string {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const challenge = response.headers.get('www-authenticate');
  if (!challenge) return status;
  const shown = challenge.length > MAX_CHALLENGE ? `${challenge.slice(0, MAX_CHALLENGE)}…` : challenge;
  return `${status}; WWW-Authenticate: ${shown}`;
}
