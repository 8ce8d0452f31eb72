/**
 * The OAuth 2.1 client of the MCP authorization spec, as an `AuthProvider` of mcpkit's HTTP client
 * transports: `headers()` hands out the bearer token (refreshing it before expiry), `onUnauthorized`
 * discovers and authorizes on a 401, `onForbidden` steps up on a 403 `insufficient_scope`.
 * @module
 */
import type { CryptoKey } from 'jose';
import * as oauth from 'oauth4webapi';
import {
  type BearerChallenge,
  bearerChallenge,
  discoverAuthorizationServer,
  discoverLegacyAuthorizationServer,
  discoverResource,
  httpOptions,
  legacyAuthorizationServer,
} from './discovery.js';
import { AuthorizationError, wrapError } from './errors.js';
import {
  authorizationCodeGrant,
  type CallbackParameters,
  type CrossAppAccess,
  clientCredentialsGrant,
  crossAppGrant,
  type GrantContext,
  type RedirectHook,
  refreshGrant,
} from './grants.js';
import { type AuthObserver, observed } from './steps.js';
import { MemoryTokenStore, type StoredClient, type StoredTokens, type TokenStore } from './store.js';

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'none'
  | 'private_key_jwt';

/** Options of {@link OAuthClientProvider}. */
export interface OAuthClientOptions {
  /** The MCP server URL; its canonical form is the RFC 8707 `resource` of every request. */
  readonly serverUrl: string | URL;
  /** `authorization_code` (default, needs `redirect` and `redirectUri`), `client_credentials`, or `cross_app`. */
  readonly grant?: 'authorization_code' | 'client_credentials' | 'cross_app';
  /** Where the authorization server sends the user back. */
  readonly redirectUri?: string;
  /** Sends the user to the authorization URL and resolves with the redirect's parameters. */
  readonly redirect?: RedirectHook;
  /** Pre-registered client id (first in the spec's priority). */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** For `private_key_jwt`: the signing key (WebCrypto) and its `kid`. */
  readonly privateKey?: { readonly key: CryptoKey; readonly kid?: string };
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** An HTTPS URL serving this client's metadata document, used as `client_id` where supported (CIMD). */
  readonly clientMetadataUrl?: string;
  /** Metadata sent with Dynamic Client Registration (client_name, …). */
  readonly clientMetadata?: Partial<oauth.Client>;
  /** Scope to ask for when the server names none. */
  readonly scope?: string;
  /** Cross-app access settings (grant `cross_app`). */
  readonly crossApp?: CrossAppAccess;
  readonly store?: TokenStore;
  readonly fetch?: typeof fetch;
  /** Step-ups allowed in a row before giving up, so a server cannot loop the client (default 2). */
  readonly maxStepUps?: number;
  /** Refresh this many seconds before expiry (default 30). */
  readonly refreshSkewSeconds?: number;
  /** Told of each step of a login as it ends, done or failed (never given a token or secret). */
  readonly observer?: AuthObserver;
}

/**
 * An mcpkit `AuthProvider` that runs the whole MCP authorization flow.
 *
 * @example
 * ```ts
 * declare function waitForCallback(url: URL): Promise<CallbackParameters>;
 * const auth = new OAuthClientProvider({
 *   serverUrl: 'https://mcp.example.com/mcp',
 *   redirectUri: 'http://127.0.0.1:8765/callback',
 *   redirect: async (url) => waitForCallback(url), // show `url` to the user, resolve with the callback query
 * });
 * await client.connect(new StreamableHttpClientTransport(new URL('https://mcp.example.com/mcp'), { authProvider: auth }));
 * ```
 */
export class OAuthClientProvider {
  /** The canonical URI of the MCP server. */
  readonly resource: string;
  private readonly resourceUrl: URL;
  private readonly store: TokenStore;
  private grantContext: GrantContext | undefined;
  private stepUps = 0;
  private stepUpScope: string | undefined;
  private inFlight: Promise<void> | undefined;
  private refreshing: Promise<StoredTokens | undefined> | undefined;
  private prmScopes: string | undefined;
  /** How the client was identified last (for the observer). */
  private identityHow = '';

  constructor(private readonly options: OAuthClientOptions) {
    this.resourceUrl = new URL(String(options.serverUrl));
    this.resourceUrl.hash = '';
    this.resource = canonicalResource(this.resourceUrl);
    this.store = options.store ?? new MemoryTokenStore();
  }

  /** The bearer header, refreshed first when the token is about to expire. */
  async headers(): Promise<Record<string, string>> {
    let tokens = await this.store.loadTokens(this.resource);
    if (!tokens) return {};
    const skew = (this.options.refreshSkewSeconds ?? 30) * 1000;
    if (tokens.expiresAt !== undefined && tokens.expiresAt - skew <= Date.now() && tokens.refreshToken) {
      tokens = await this.tryRefresh(tokens);
      if (!tokens) return {};
    }
    return { Authorization: `Bearer ${tokens.accessToken}` };
  }

  /** On a 401: refresh when possible, else discover and authorize. Resolves true to retry. */
  async onUnauthorized(response: Response): Promise<boolean> {
    const challenge = await bearerChallenge(response);
    return this.singleFlight(async () => {
      const tokens = await this.store.loadTokens(this.resource);
      if (tokens?.refreshToken && challenge?.error !== 'insufficient_scope') {
        if (await this.tryRefresh(tokens)) return;
      }
      await this.authorize(challenge, tokens?.scope);
    });
  }

  /**
   * Runs one refresh or authorization at a time: requests refused while one is under way (the
   * standalone GET and a POST, say) wait for it and retry, instead of each sending the user off.
   */
  private async singleFlight(run: () => Promise<void>): Promise<boolean> {
    if (this.inFlight) {
      await this.inFlight.catch(() => {});
      return true;
    }
    this.inFlight = run().finally(() => {
      this.inFlight = undefined;
    });
    await this.inFlight;
    return true;
  }

  /** On a 403 `insufficient_scope`: re-authorize with the union of scopes, up to `maxStepUps` times. */
  async onForbidden(response: Response): Promise<boolean> {
    const challenge = await bearerChallenge(response);
    if (challenge?.error !== 'insufficient_scope') return false;
    if (this.inFlight) return this.singleFlight(async () => {}); // wait for the step-up under way
    // Only repeated demands for the same scope count: a new scope is a legitimate new step-up.
    const asked = challenge.scope ?? '';
    if (asked !== this.stepUpScope) {
      this.stepUpScope = asked;
      this.stepUps = 0;
    }
    const limit = this.options.maxStepUps ?? 2;
    if (this.stepUps >= limit) {
      throw new AuthorizationError(`the server still asks for scope "${asked}" after ${limit} step-up(s)`);
    }
    this.stepUps++;
    this.options.observer?.({ step: 'step-up', ok: true, detail: `the server asks for scope "${asked}"` });
    return this.singleFlight(async () => {
      const tokens = await this.store.loadTokens(this.resource);
      await this.authorize(challenge, tokens?.scope);
    });
  }

  /** Forgets the tokens of this server. */
  async logout(): Promise<void> {
    await this.store.saveTokens(this.resource, undefined);
  }

  /**
   * One refresh at a time, shared by every caller: with refresh-token rotation, a second refresh
   * presenting the same (now used) refresh token makes the authorization server revoke the whole
   * grant, so parallel requests that all see an expiring token must wait for the same refresh.
   */
  private tryRefresh(tokens: StoredTokens): Promise<StoredTokens | undefined> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = this.refreshNow(tokens).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshNow(tokens: StoredTokens): Promise<StoredTokens | undefined> {
    try {
      const g = await this.context(undefined);
      if (g.as.issuer !== tokens.issuer || !tokens.refreshToken) return undefined;
      const refreshToken = tokens.refreshToken;
      const fresh = await observed(
        this.options.observer,
        'refresh',
        () => refreshGrant(g, refreshToken),
        (fresh) => (fresh.scope ? `scope ${fresh.scope}` : undefined),
      );
      await this.store.saveTokens(this.resource, fresh);
      return fresh;
    } catch {
      await this.store.saveTokens(this.resource, undefined);
      return undefined; // a failed refresh falls back to a new authorization
    }
  }

  private async authorize(
    challenge: BearerChallenge | undefined,
    granted: string | undefined,
  ): Promise<void> {
    const g = await this.context(challenge);
    const scope = this.scopeFor(g.as, challenge, granted);
    const tokens = await this.runGrant(g, scope);
    await this.store.saveTokens(this.resource, tokens);
  }

  private runGrant(g: GrantContext, scope: string | undefined): Promise<StoredTokens> {
    const grant = this.options.grant ?? 'authorization_code';
    if (grant === 'client_credentials') return clientCredentialsGrant(g, scope);
    if (grant === 'cross_app') {
      if (!this.options.crossApp) throw new AuthorizationError('grant "cross_app" needs the crossApp option');
      return crossAppGrant(g, this.options.crossApp, scope);
    }
    const { redirect, redirectUri, observer } = this.options;
    if (!redirect || !redirectUri)
      throw new AuthorizationError('the authorization code grant needs redirect and redirectUri');
    if (!observer) return authorizationCodeGrant(g, redirectUri, scope, redirect);
    // The authorization step ends when the user comes back (refused or with a code); the token
    // exchange follows it.
    let back = false;
    const watched: RedirectHook = async (url) => {
      let callback: CallbackParameters;
      try {
        callback = await redirect(url);
      } catch (error) {
        observer({ step: 'authorization', ok: false, reason: messageOf(error) });
        throw error;
      }
      const refusal = refusalOf(callback);
      if (refusal !== undefined) {
        observer({
          step: 'authorization',
          ok: false,
          reason: `the authorization server refused the login: ${refusal}`,
        });
      } else {
        back = true;
        const method = url.searchParams.get('code_challenge_method');
        const detail = `${url.origin}${url.pathname}, PKCE ${method}${scope ? `, scope ${scope}` : ''}`;
        observer({ step: 'authorization', ok: true, detail });
      }
      return callback;
    };
    return authorizationCodeGrant(g, redirectUri, scope, watched).then(
      (tokens) => {
        observer({
          step: 'token',
          ok: true,
          detail: tokens.scope ? `granted scope ${tokens.scope}` : 'granted',
        });
        return tokens;
      },
      (error: unknown) => {
        if (back)
          observer({
            step: 'token',
            ok: false,
            reason: error instanceof Error ? error.message : String(error),
          });
        throw error;
      },
    );
  }

  /** Scope: the challenge's, else PRM `scopes_supported`, else the configured one; unioned with what was granted. */
  private scopeFor(
    as: oauth.AuthorizationServer,
    challenge: BearerChallenge | undefined,
    granted: string | undefined,
  ) {
    const asked = challenge?.scope ?? this.prmScopes ?? this.options.scope;
    const set = new Set<string>();
    if (challenge?.error === 'insufficient_scope')
      for (const s of (granted ?? '').split(' ')) if (s) set.add(s);
    for (const s of (asked ?? '').split(' ')) if (s) set.add(s);
    const wantsRefresh = (this.options.grant ?? 'authorization_code') === 'authorization_code';
    if (wantsRefresh && set.size > 0 && as.scopes_supported?.includes('offline_access'))
      set.add('offline_access');
    return set.size > 0 ? [...set].join(' ') : undefined;
  }

  /** Discovers the authorization server and the client identity once, then reuses them. */
  private async context(challenge: BearerChallenge | undefined): Promise<GrantContext> {
    if (this.grantContext && !challenge?.resourceMetadata) return this.grantContext;
    const ctx = { fetch: this.options.fetch };
    const { observer } = this.options;
    const prm = await observed(
      observer,
      'protected-resource-metadata',
      () => discoverResource(this.resourceUrl, challenge, ctx),
      (prm) =>
        prm
          ? `authorization servers: ${(prm.authorization_servers ?? []).join(', ') || 'none'}`
          : 'none published (the server itself is asked)',
    );
    this.prmScopes = prm?.scopes_supported?.join(' ') || undefined;
    const issuers = prm?.authorization_servers ?? [];
    const as = await observed(
      observer,
      'authorization-server-metadata',
      () => this.authorizationServer(issuers, ctx),
      (as) => `issuer ${as.issuer}`,
    );
    const identity = await observed(
      observer,
      'client',
      () => this.identity(as),
      (identity) => `${this.identityHow}: client id ${identity.client.client_id}`,
    );
    // The resource exactly as the metadata publishes it (2026-07-28: no re-canonicalizing, which
    // would turn a pathless identifier into "origin/"); discovery checked it names this server.
    const resource = typeof prm?.resource === 'string' ? prm.resource : this.resource;
    this.grantContext = { as, ...identity, resource, fetch: this.options.fetch };
    return this.grantContext;
  }

  /** The first of `issuers` that publishes usable metadata, else the server's own origin's (legacy). */
  private async authorizationServer(
    issuers: readonly string[],
    ctx: { fetch?: typeof fetch | undefined },
  ): Promise<oauth.AuthorizationServer> {
    for (const issuer of issuers) {
      const as = await discoverAuthorizationServer(new URL(issuer), ctx);
      if (as) return as;
    }
    if (issuers.length > 0) {
      throw new AuthorizationError(
        `none of the authorization servers of ${this.resource} published usable metadata`,
      );
    }
    return (
      (await discoverAuthorizationServer(new URL(this.resourceUrl.origin), ctx)) ??
      (await discoverLegacyAuthorizationServer(this.resourceUrl, ctx)) ??
      legacyAuthorizationServer(this.resourceUrl)
    );
  }

  private async identity(
    as: oauth.AuthorizationServer,
  ): Promise<Pick<GrantContext, 'client' | 'clientAuth'>> {
    const o = this.options;
    this.identityHow = 'pre-registered';
    if (o.clientId)
      return this.clientFor(
        { clientId: o.clientId, clientSecret: o.clientSecret },
        o.tokenEndpointAuthMethod,
      );
    const stored = await this.store.loadClient(as.issuer);
    this.identityHow = 'registered before';
    if (stored) return this.clientFor(stored, stored.tokenEndpointAuthMethod as TokenEndpointAuthMethod);
    if (o.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
      this.identityHow = 'client ID metadata document';
      return this.clientFor({ clientId: o.clientMetadataUrl }, o.privateKey ? 'private_key_jwt' : 'none');
    }
    if (!as.registration_endpoint) {
      throw new AuthorizationError(
        `${as.issuer} supports neither client metadata documents nor dynamic registration; configure clientId`,
      );
    }
    this.identityHow = 'dynamic registration';
    const registered = await this.register(as);
    await this.store.saveClient(as.issuer, registered);
    return this.clientFor(registered, registered.tokenEndpointAuthMethod as TokenEndpointAuthMethod);
  }

  private async register(as: oauth.AuthorizationServer): Promise<StoredClient> {
    const o = this.options;
    const grant = o.grant ?? 'authorization_code';
    const metadata: Partial<oauth.Client> = {
      client_name: 'mcpkit',
      grant_types:
        grant === 'client_credentials' ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: grant === 'client_credentials' ? [] : ['code'],
      token_endpoint_auth_method:
        o.tokenEndpointAuthMethod ?? (grant === 'client_credentials' ? 'client_secret_basic' : 'none'),
      ...(o.redirectUri
        ? { redirect_uris: [o.redirectUri], application_type: applicationTypeOf(o.redirectUri) }
        : {}),
      ...o.clientMetadata,
    };
    try {
      const response = await oauth.dynamicClientRegistrationRequest(
        as,
        metadata,
        httpOptions(as.registration_endpoint, { fetch: tolerantRegistrationFetch(o.fetch ?? fetch) }),
      );
      const client = await oauth.processDynamicClientRegistrationResponse(response);
      return {
        clientId: client.client_id,
        clientSecret: typeof client.client_secret === 'string' ? client.client_secret : undefined,
        tokenEndpointAuthMethod:
          typeof client.token_endpoint_auth_method === 'string'
            ? client.token_endpoint_auth_method
            : (metadata.token_endpoint_auth_method as string | undefined),
      };
    } catch (error) {
      throw wrapError('dynamic client registration', error);
    }
  }

  private clientFor(
    c: StoredClient,
    method: TokenEndpointAuthMethod | undefined,
  ): Pick<GrantContext, 'client' | 'clientAuth'> {
    const chosen = method ?? (c.clientSecret ? 'client_secret_basic' : 'none');
    return {
      client: { client_id: c.clientId, token_endpoint_auth_method: chosen },
      clientAuth: this.clientAuth(chosen, c),
    };
  }

  private clientAuth(method: TokenEndpointAuthMethod, c: StoredClient): oauth.ClientAuth {
    if (method === 'none') return oauth.None();
    if (method === 'private_key_jwt') {
      if (!this.options.privateKey)
        throw new AuthorizationError('private_key_jwt needs the privateKey option');
      return oauth.PrivateKeyJwt(this.options.privateKey);
    }
    if (!c.clientSecret) throw new AuthorizationError(`${method} needs a client secret`);
    return method === 'client_secret_post'
      ? oauth.ClientSecretPost(c.clientSecret)
      : clientSecretBasic(c.clientSecret);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `error` (and its description) a redirect came back with, if it did. */
function refusalOf(callback: CallbackParameters): string | undefined {
  const params =
    callback instanceof URL
      ? callback.searchParams
      : callback instanceof URLSearchParams
        ? callback
        : undefined;
  const error = params?.get('error');
  if (!error) return undefined;
  const description = params?.get('error_description');
  return description ? `${error} (${description})` : error;
}

/**
 * The canonical URI of an MCP server: lower-case scheme and host, no fragment, no lone trailing slash.
 *
 * @example
 * ```ts
 * canonicalResource(new URL('HTTPS://MCP.Example.com/mcp#x')); // 'https://mcp.example.com/mcp'
 * ```
 */
export function canonicalResource(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.pathname === '/' && !copy.search ? copy.origin : copy.href;
}

/**
 * `client_secret_basic` with WHATWG form encoding of the id and secret. oauth4webapi's own
 * escapes unreserved characters too (`-` as `%2D`), which servers that do not form-decode the
 * Basic credentials (many do not) then refuse.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/**
 * Many registration endpoints issue a `client_secret` without the `client_secret_expires_at` that
 * RFC 7591 requires with it; oauth4webapi refuses such answers. This fills in 0 ("never expires").
 */
function tolerantRegistrationFetch(
  base: typeof fetch,
): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.ok) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!body || typeof body.client_secret !== 'string' || body.client_secret_expires_at !== undefined)
      return response;
    return new Response(JSON.stringify({ ...body, client_secret_expires_at: 0 }), {
      status: response.status,
      headers: response.headers,
    });
  };
}

/**
 * The OIDC `application_type` a client registers with (2026-07-28 client-registration: clients
 * MUST send one): `native` for a loopback or custom-scheme redirect (desktop apps, CLIs, local web
 * apps), `web` for a redirect to a remote host.
 */
function applicationTypeOf(redirectUri: string): 'native' | 'web' {
  if (!URL.canParse(redirectUri)) return 'native';
  const url = new URL(redirectUri);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'native';
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.') ? 'native' : 'web';
}
