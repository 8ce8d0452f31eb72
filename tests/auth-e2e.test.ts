/**
 * End to end: McpClient + StreamableHttpClientTransport with `OAuthClientProvider`, against an
 * mcpkit server wrapped with `protect`, both authorized by a real `oidc-provider` on loopback.
 */
import {
  type AuthStep,
  MemoryTokenStore,
  type OAuthClientOptions,
  OAuthClientProvider,
} from '@mcpkit/auth/client';
import { introspectionVerifier, jwtVerifier, protect } from '@mcpkit/auth/server';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServerFixture, browser, M2M_CLIENT, startAuthServer } from './support/authServer.js';

const REDIRECT = 'http://127.0.0.1/callback';
let as: AuthServerFixture;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(() => as.close());
afterEach(async () => {
  as.accessTokenTtl = 300;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.tool('whoami', (_args, ctx) =>
    JSON.stringify({ scopes: ctx.authInfo?.scopes, clientId: ctx.authInfo?.clientId }),
  );
  return server;
}

/** An mcpkit server at `<origin>/mcp`, protected by the fixture; `require` swaps the needed scopes. */
async function startProtected(requiredScopes: string[] = ['mcp:read'], clockTolerance?: number) {
  const mcp = createStreamableHttpHandler(mcpServer());
  let current: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const served = await serve((request: Request) => current(request));
  cleanups.push(() => served.close());
  const resource = `${served.url.replace(/\/$/, '')}/mcp`;
  const require = (scopes: string[]) => {
    current = protect(mcp, {
      resource,
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({
        issuer: as.issuer,
        audience: resource,
        jwks: `${as.issuer}/jwks`,
        clockTolerance,
      }),
      requiredScopes: scopes,
      scopesSupported: ['mcp:read', 'mcp:write'],
    });
  };
  require(requiredScopes);
  return { resource, require };
}

async function connect(auth: OAuthClientProvider, resource: string): Promise<McpClient> {
  const client = new McpClient({ name: 'auth-test', version: '1.0.0' }, { onError: () => {} });
  cleanups.push(() => client.close());
  await client.connect(new StreamableHttpClientTransport(new URL(resource), { authProvider: auth }));
  return client;
}

async function whoami(client: McpClient): Promise<{ scopes: string[]; clientId: string }> {
  const result = (await client.callTool('whoami', {})) as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0]?.text ?? '{}');
}

describe('OAuth against a real oidc-provider', () => {
  it('a first 401 runs discovery, dynamic registration and authorization code + PKCE S256 with the resource indicator', async () => {
    const { resource } = await startProtected();
    const seen: URL[] = [];
    const auth = new OAuthClientProvider({
      serverUrl: resource,
      redirectUri: REDIRECT,
      redirect: browser(REDIRECT, seen),
    });
    const client = await connect(auth, resource);
    const me = await whoami(client);
    expect(me.scopes).toContain('mcp:read');
    expect(seen).toHaveLength(1);
    const query = (seen[0] as URL).searchParams;
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(query.get('resource')).toBe(resource);
    expect(query.get('scope')).toContain('mcp:read');
    expect(query.get('client_id')).toBe(me.clientId);
  });

  it('a client metadata document URL is used as client_id when the server supports CIMD, with no registration', async () => {
    const { resource } = await startProtected();
    const clientId = 'https://client.test/mcpkit-client.json';
    as.documents.set(clientId, {
      client_id: clientId,
      client_name: 'mcpkit test',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const seen: URL[] = [];
    const auth = new OAuthClientProvider({
      serverUrl: resource,
      redirectUri: REDIRECT,
      redirect: browser(REDIRECT, seen),
      clientMetadataUrl: clientId,
      observer: (step) => steps.push(step),
    });
    const steps: AuthStep[] = [];
    const me = await whoami(await connect(auth, resource));
    expect(me.clientId).toBe(clientId);
    // The observer (the console's Authorization tab) is told how the client was identified.
    expect(steps.find((step) => step.step === 'client')).toEqual({
      step: 'client',
      ok: true,
      detail: `client ID metadata document: client id ${clientId}`,
    });
    expect(seen[0]?.searchParams.get('client_id')).toBe(clientId);
  });

  it('a 403 insufficient_scope steps up to the union of scopes and the call goes through', async () => {
    const server = await startProtected(['mcp:read']);
    const seen: URL[] = [];
    const steps: AuthStep[] = [];
    const auth = userProvider(server.resource, seen, { observer: (step) => steps.push(step) });
    const client = await connect(auth, server.resource);
    expect((await whoami(client)).scopes).not.toContain('mcp:write');
    server.require(['mcp:read', 'mcp:write']);
    const me = await whoami(client);
    expect(me.scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(seen).toHaveLength(2);
    // Each step reported to the observer, in order: the first login, then the step-up's.
    expect(steps.map((step) => `${step.step} ${step.ok}`)).toEqual([
      'protected-resource-metadata true',
      'authorization-server-metadata true',
      'client true',
      'authorization true',
      'token true',
      'step-up true',
      // The 403's challenge names the resource metadata, so discovery runs again.
      'protected-resource-metadata true',
      'authorization-server-metadata true',
      'client true',
      'authorization true',
      'token true',
    ]);
    expect(steps[5]?.detail).toContain('mcp:write');
  });

  it('a server that keeps answering 403 insufficient_scope cannot loop the client: step-ups stop at the limit', async () => {
    const server = await startProtected(['mcp:read']);
    const seen: URL[] = [];
    const auth = userProvider(server.resource, seen, { maxStepUps: 1 });
    const client = await connect(auth, server.resource);
    server.require(['mcp:read', 'mcp:admin']); // a scope the authorization server never grants
    await expect(whoami(client)).rejects.toThrow();
    await expect(whoami(client)).rejects.toThrow(/still asks for scope/);
    expect(seen).toHaveLength(2); // the first authorization and one step-up, then no more
  });

  it('an expiring access token is refreshed with the resource indicator and the refresh token is rotated', async () => {
    const { resource, store, seen, client, steps } = await expiringTokenClient();
    const first = store.loadTokens(resource);
    expect(first?.refreshToken).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await whoami(client);
    const second = store.loadTokens(resource);
    expect(second?.accessToken).not.toBe(first?.accessToken);
    expect(second?.refreshToken).not.toBe(first?.refreshToken);
    expect(seen).toHaveLength(1); // refreshed, not re-authorized
    expect(steps.filter((step) => step.step === 'refresh').map((step) => step.ok)).toEqual([true]);
  });

  it('parallel requests on an expiring token share one refresh, so rotation does not revoke the grant', async () => {
    const { resource, store, seen, client, steps } = await expiringTokenClient();
    const first = store.loadTokens(resource);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Before the fix each request refreshed with the same refresh token; oidc-provider then revoked
    // the grant and the user was sent through authorization again.
    await Promise.all([whoami(client), whoami(client), whoami(client), whoami(client)]);
    await whoami(client);
    expect(store.loadTokens(resource)?.refreshToken).not.toBe(first?.refreshToken);
    expect(seen).toHaveLength(1); // one authorization, one shared refresh
    expect(steps.filter((step) => step.step === 'refresh')).toEqual([
      { step: 'refresh', ok: true, detail: expect.any(String) },
    ]);
  });

  it('a 401 with a refresh token the server no longer honours falls back to a new authorization', async () => {
    const { resource } = await startProtected();
    const store = new MemoryTokenStore();
    const seen: URL[] = [];
    const auth = userProvider(resource, seen, { store });
    const client = await connect(auth, resource);
    const issued = store.loadTokens(resource);
    store.saveTokens(resource, { accessToken: 'revoked', refreshToken: 'revoked-too', issuer: as.issuer });
    await whoami(client);
    expect(seen).toHaveLength(2); // the refresh failed, so the user was sent through authorization again
    expect(store.loadTokens(resource)?.accessToken).not.toBe(issued?.accessToken);
  });

  it('client credentials (client_secret_basic) get a token for this resource only; the other server refuses it', async () => {
    const a = await startProtected();
    const b = await startProtected();
    const { auth, store } = machineProvider(a.resource);
    expect((await whoami(await connect(auth, a.resource))).clientId).toBe(M2M_CLIENT.client_id);
    const token = store.loadTokens(a.resource)?.accessToken;
    const response = await fetch(b.resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('an expired token is refused with 401 invalid_token', async () => {
    const a = await startProtected(['mcp:read'], 0);
    as.accessTokenTtl = 1;
    const { auth, store } = machineProvider(a.resource);
    await connect(auth, a.resource);
    const token = store.loadTokens(a.resource)?.accessToken;
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const response = await fetch(a.resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('the token has expired');
  });

  it('an opaque token is verified by RFC 7662 introspection; one for another resource is refused', async () => {
    const mcp = createStreamableHttpHandler(mcpServer());
    let resource = '';
    const served = await serve((request: Request) => guarded(request));
    cleanups.push(() => served.close());
    resource = `${served.url.replace(/\/$/, '')}/opaque`;
    const guarded = protect(mcp, {
      resource,
      authorizationServers: [as.issuer],
      verifier: introspectionVerifier({
        authorizationServer: {
          issuer: as.issuer,
          introspection_endpoint: `${as.issuer}/token/introspection`,
        },
        clientId: M2M_CLIENT.client_id,
        clientSecret: M2M_CLIENT.client_secret,
        audience: resource,
        allowLoopbackHttp: true,
      }),
    });
    const { auth, store } = machineProvider(resource);
    expect((await whoami(await connect(auth, resource))).clientId).toBe(M2M_CLIENT.client_id);
    expect(store.loadTokens(resource)?.accessToken.split('.')).toHaveLength(1); // opaque, not a JWT
    const other = await startProtected();
    const foreign = machineProvider(other.resource);
    await connect(foreign.auth, other.resource);
    const response = await fetch(resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${foreign.store.loadTokens(other.resource)?.accessToken}` },
    });
    expect(response.status).toBe(401);
  });

  it('the protected resource metadata is served at the path-aware well-known URL with CORS', async () => {
    const { resource } = await startProtected();
    const url = new URL(resource);
    const response = await fetch(`${url.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({ resource, authorization_servers: [as.issuer] });
    const challenge = await fetch(resource, { method: 'POST' });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${url.origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`,
    );
  });
});

function userProvider(
  resource: string,
  seen: URL[],
  extra: Partial<OAuthClientOptions> = {},
): OAuthClientProvider {
  return new OAuthClientProvider({
    serverUrl: resource,
    redirectUri: REDIRECT,
    redirect: browser(REDIRECT, seen),
    ...extra,
  });
}

/**
 * A user client on a protected server whose access tokens live 2 s, refreshed 1 s early: the
 * next request after a 1.5 s wait goes through a refresh.
 */
async function expiringTokenClient() {
  const { resource } = await startProtected();
  const store = new MemoryTokenStore();
  as.accessTokenTtl = 2;
  const seen: URL[] = [];
  const steps: AuthStep[] = [];
  const auth = userProvider(resource, seen, {
    store,
    refreshSkewSeconds: 1,
    observer: (step) => steps.push(step),
  });
  const client = await connect(auth, resource);
  return { resource, store, seen, client, steps };
}

/** A machine client (client credentials, client_secret_basic) pre-registered at the fixture. */
function machineProvider(resource: string) {
  const store = new MemoryTokenStore();
  const auth = new OAuthClientProvider({
    serverUrl: resource,
    grant: 'client_credentials',
    clientId: M2M_CLIENT.client_id,
    clientSecret: M2M_CLIENT.client_secret,
    tokenEndpointAuthMethod: 'client_secret_basic',
    store,
  });
  return { auth, store };
}
