/**
 * Issue 35: `protect()` behind `serve(handler, { port, path: '/mcp' })`, composed exactly as the
 * README shows the two, used to answer 404 for `/.well-known/oauth-protected-resource/mcp`, the
 * document its own 401 points to; the client then failed at dynamic registration with a message
 * about a content type. Now `serve` routes the handler's `wellKnownPaths` to it, and a client that
 * meets a 401 naming a missing document says so.
 */
import { createServer } from 'node:net';
import { OAuthClientProvider } from '@mcpkit/auth/client';
import { jwtVerifier, protect } from '@mcpkit/auth/server';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AuthServerFixture, browser, useAuthServer } from './support/authServer.js';

const REDIRECT = 'http://127.0.0.1/callback';
const fixture = useAuthServer();
const cleanups = fixture.cleanups;
let as: AuthServerFixture;
beforeAll(() => {
  as = fixture.as();
});

/** A port nothing listens on right now (the README's code takes a fixed port). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('protect() behind serve(handler, { port, path }) as the README composes them', () => {
  it('serves the metadata its 401 points to, and a client logs in and calls a tool', async () => {
    const port = await freePort();
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    server.tool('forecast', () => 'Sunny');
    // The README's lines, with this test's authorization server and port.
    const resource = `http://127.0.0.1:${port}/mcp`;
    const handler = protect(createStreamableHttpHandler(server), {
      resource,
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer, audience: resource, jwks: `${as.issuer}/jwks` }),
      requiredScopes: ['mcp:read'],
    });
    const { url, close } = await serve(handler, { port, path: '/mcp' });
    cleanups.push(close);

    const refused = await fetch(url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    const pointed = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    expect(pointed).toBe(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`);
    const metadata = await fetch(pointed as string);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource, scopes_supported: ['mcp:read'] });
    expect((await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource`)).status).toBe(200);
    // Other paths are still refused.
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);

    const client = new McpClient({ name: 'readme', version: '1.0.0' });
    cleanups.push(() => client.close());
    const authProvider = new OAuthClientProvider({
      serverUrl: url,
      redirectUri: REDIRECT,
      redirect: browser(REDIRECT),
    });
    await client.connect(new StreamableHttpClientTransport(new URL(url), { authProvider }));
    expect((await client.callTool('forecast', {})).content).toEqual([{ type: 'text', text: 'Sunny' }]);
  });

  it('the client names the missing metadata document (404), not a later step', async () => {
    // A protected resource whose metadata nobody serves: what serve() did before it routed
    // wellKnownPaths (a handler without them gets only its own path).
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const guarded = protect(createStreamableHttpHandler(new McpServer({ name: 'x', version: '1' })), {
      resource,
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer, audience: resource, jwks: `${as.issuer}/jwks` }),
    });
    const served = await serve((request: Request) => guarded(request), { port, path: '/mcp' });
    cleanups.push(served.close);
    const metadataUrl = `${new URL(served.url).origin}/.well-known/oauth-protected-resource/mcp`;
    const client = new McpClient({ name: 'readme', version: '1.0.0' }, { onError: () => {} });
    cleanups.push(() => client.close());
    const authProvider = new OAuthClientProvider({
      serverUrl: served.url,
      redirectUri: REDIRECT,
      redirect: browser(REDIRECT),
    });
    const failure = client.connect(
      new StreamableHttpClientTransport(new URL(served.url), { authProvider, maxRetries: 0 }),
    );
    await expect(failure).rejects.toThrow(`no protected resource metadata at ${metadataUrl} (404)`);
    await expect(failure).rejects.not.toThrow(/content-type|registration/);
  });

  it('a refused login (error=access_denied) fails connect once: the 2026 probe does not fall back to initialize and log in again', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const handler = protect(createStreamableHttpHandler(new McpServer({ name: 'x', version: '1' })), {
      resource,
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer, audience: resource, jwks: `${as.issuer}/jwks` }),
    });
    const { url, close } = await serve(handler, { port, path: '/mcp' });
    cleanups.push(close);
    const asked: URL[] = [];
    const authProvider = new OAuthClientProvider({
      serverUrl: url,
      redirectUri: REDIRECT,
      // The person says no: the authorization server redirects back with an error.
      redirect: async (authorizationUrl) => {
        asked.push(authorizationUrl);
        const back = new URL(REDIRECT);
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'the user said no');
        back.searchParams.set('state', authorizationUrl.searchParams.get('state') ?? '');
        back.searchParams.set('iss', as.issuer);
        return back;
      },
    });
    const client = new McpClient({ name: 'readme', version: '1.0.0' }, { onError: () => {} });
    cleanups.push(() => client.close());
    await expect(
      client.connect(new StreamableHttpClientTransport(new URL(url), { authProvider, maxRetries: 0 })),
    ).rejects.toThrow('the authorization server refused the login: access_denied (the user said no)');
    expect(asked).toHaveLength(1);
  });
});
