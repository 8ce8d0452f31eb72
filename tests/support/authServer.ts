/**
 * A real authorization server for the auth tests: panva's `oidc-provider` on 127.0.0.1, with
 * dynamic registration, PKCE, resource indicators (JWT access tokens whose `aud` is the resource),
 * refresh-token rotation, client credentials and Client ID Metadata Documents.
 *
 * Its login and consent pages are driven in code: `/interaction/:uid` is answered in the same
 * HTTP server by finishing the interaction programmatically. Client metadata documents are served
 * from memory through the provider's `fetch` option, because its default fetcher refuses loopback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface AuthServerFixture {
  readonly issuer: string;
  readonly provider: Provider;
  /** Client metadata documents served for CIMD, by URL. */
  readonly documents: Map<string, Record<string, unknown>>;
  /** Seconds an access token lives (change it per test). */
  accessTokenTtl: number;
  /** Scope the login's user consents to for each resource (everything asked, by default). */
  readonly resourceScopes: string;
  /** The account the next login signs in as (change it per test; `user-1` by default). */
  loginAs: string;
  close(): Promise<void>;
}

export const M2M_CLIENT = { client_id: 'm2m-client', client_secret: 'm2m-secret-value-0123456789abcdef' };

/** Starts the authorization server on a random loopback port. */
export async function startAuthServer(): Promise<AuthServerFixture> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const documents = new Map<string, Record<string, unknown>>();
  const fixture = {
    issuer,
    documents,
    accessTokenTtl: 300,
    resourceScopes: 'mcp:read mcp:write',
    loginAs: 'user-1',
  } as AuthServerFixture;
  const provider = new Provider(issuer, {
    clients: [{ ...M2M_CLIENT, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          audience: resource,
          // A resource whose path ends in /opaque gets opaque tokens (checked by introspection).
          accessTokenFormat: resource.endsWith('/opaque') ? 'opaque' : 'jwt',
          accessTokenTTL: fixture.accessTokenTtl,
          scope: fixture.resourceScopes,
        }),
      },
    } as Configuration['features'],
    fetch: async (url: URL | string) => {
      const document = documents.get(String(url));
      if (!document) return new Response('not found', { status: 404 });
      return new Response(JSON.stringify(document), { headers: { 'content-type': 'application/json' } });
    },
    scopes: ['openid', 'offline_access'],
    rotateRefreshToken: true,
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      RefreshToken: 600,
      AccessToken: () => fixture.accessTokenTtl,
      ClientCredentials: () => fixture.accessTokenTtl,
    },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  } as Configuration);
  const callback = provider.callback();
  http.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      finishInteraction(provider, fixture.loginAs, req, res).catch(() => {
        res.statusCode = 500;
        res.end();
      });
      return;
    }
    callback(req, res);
  });
  return Object.assign(fixture, {
    provider,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())).then(() => undefined),
  });
}

/** Logs in `accountId` and consents to everything asked, as a person clicking through would. */
async function finishInteraction(
  provider: Provider,
  accountId: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const { missingOIDCScope, missingResourceScopes } = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({
        accountId: details.session?.accountId,
        clientId: String(details.params.client_id),
      });
  if (!grant) throw new Error('grant not found');
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/**
 * The redirect hook of a person who logs in and consents: follows the authorization server's
 * redirects with a cookie jar until it lands on `redirectUri`, and hands back that URL.
 */
export function browser(redirectUri: string, seen: URL[] = []): (url: URL) => Promise<URL> {
  return async (start) => {
    seen.push(start);
    const jar = new Map<string, string>();
    let url = start;
    for (let hop = 0; hop < 20; hop++) {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0] ?? '';
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location)
        throw new Error(`the authorization server stopped at HTTP ${response.status} (${url.pathname})`);
      url = new URL(location, url);
      if (url.href.startsWith(redirectUri)) return url;
    }
    throw new Error('too many redirects');
  };
}

/**
 * One authorization server for a test file: started before its tests, closed after them; after
 * each test the fixture's knobs are reset and the test's `cleanups` run, last added first.
 */
export function useAuthServer(): {
  readonly as: () => AuthServerFixture;
  readonly cleanups: Array<() => Promise<void>>;
} {
  let fixture: AuthServerFixture | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    fixture = await startAuthServer();
  });
  afterAll(() => fixture?.close());
  afterEach(async () => {
    if (fixture) {
      fixture.accessTokenTtl = 300;
      fixture.loginAs = 'user-1';
    }
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    as: () => {
      if (!fixture) throw new Error('the authorization server is not started yet');
      return fixture;
    },
    cleanups,
  };
}
