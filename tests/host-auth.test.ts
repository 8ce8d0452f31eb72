/**
 * Remote servers of a host log in through `@mcpkit/auth/client` with the host's one token store,
 * against a real authorization server (`oidc-provider` on loopback) and two mcpkit servers it
 * protects: each server gets a token bound to its own audience and never the other's; a second
 * host on the same store logs in no more.
 */
import { MemoryTokenStore, OAuthClientProvider, type TokenStore } from '@mcpkit/auth/client';
import { jwtVerifier, protect } from '@mcpkit/auth/server';
import { McpHost, type ServerEntry } from '@mcpkit/host';
import { nodeConnector } from '@mcpkit/host/node';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { describe, expect, it } from 'vitest';
import { browser, useAuthServer } from './support/authServer.js';

const REDIRECT = 'http://127.0.0.1/callback';
const { as, cleanups } = useAuthServer();

/** The `aud` claim of a JWT access token (the verifier has checked its signature already). */
function audienceOf(token: string | undefined): unknown {
  const payload = token?.split('.')[1];
  return payload ? JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).aud : undefined;
}

/** An mcpkit server protected by the authorization server, recording each bearer token it gets. */
async function protectedUpstream(name: string) {
  const server = new McpServer({ name, version: '1.0.0' });
  server.tool('whoami', (_args, ctx) => JSON.stringify({ aud: audienceOf(ctx.authInfo?.token) }));
  const mcp = createStreamableHttpHandler(server);
  const tokens = new Set<string>();
  let guarded: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const served = await serve(async (request: Request) => {
    const header = request.headers.get('authorization');
    if (header) tokens.add(header.replace(/^Bearer /i, ''));
    return guarded(request);
  });
  cleanups.push(async () => {
    await served.close();
    await mcp.close();
  });
  const resource = `${served.url.replace(/\/$/, '')}/mcp`;
  guarded = protect(mcp, {
    resource,
    authorizationServers: [as().issuer],
    verifier: jwtVerifier({ issuer: as().issuer, audience: resource, jwks: `${as().issuer}/jwks` }),
    requiredScopes: ['mcp:read'],
    scopesSupported: ['mcp:read'],
  });
  const entry: ServerEntry = {
    kind: 'url',
    name,
    url: new URL(resource),
    headers: {},
    transport: 'auto',
    disabled: false,
    autoApprove: [],
  };
  return { entry, resource, tokens };
}

/** A host whose remote servers log in with `store`; `logins` records which server asked the user. */
function hostWith(entries: ServerEntry[], store: TokenStore, logins: string[]): McpHost {
  const connector = nodeConnector({
    authProvider: (entry) =>
      new OAuthClientProvider({
        serverUrl: entry.url,
        store,
        redirectUri: REDIRECT,
        redirect: (url) => {
          logins.push(entry.name);
          return browser(REDIRECT)(url);
        },
      }),
  });
  const policy = Object.fromEntries(entries.map((entry) => [entry.name, { trusted: true }]));
  const host = new McpHost({ servers: entries, connector, policy });
  cleanups.push(() => host.close());
  return host;
}

/** Two protected servers, and the empty token store the test's hosts share. */
const twoUpstreams = async () => ({
  alpha: await protectedUpstream('alpha'),
  beta: await protectedUpstream('beta'),
  store: new MemoryTokenStore(),
});

const audienceSeen = async (host: McpHost, tool: string) => {
  const result = await host.callTool(tool, {});
  return JSON.parse((result.content[0] as { text: string }).text).aud;
};

describe('host-owned login of remote servers (real oidc-provider)', () => {
  it('each server logs in once through the OAuth client with the host’s store, and sees only a token for its own audience', async () => {
    const { alpha, beta, store } = await twoUpstreams();
    const logins: string[] = [];
    const host = hostWith([alpha.entry, beta.entry], store, logins);
    expect(await audienceSeen(host, 'alpha__whoami')).toBe(alpha.resource);
    expect(await audienceSeen(host, 'beta__whoami')).toBe(beta.resource);
    expect(await audienceSeen(host, 'alpha__whoami')).toBe(alpha.resource);
    expect(logins.sort()).toEqual(['alpha', 'beta']);
    for (const token of alpha.tokens) expect(audienceOf(token)).toBe(alpha.resource);
    for (const token of beta.tokens) expect(audienceOf(token)).toBe(beta.resource);
    expect([...alpha.tokens].filter((token) => beta.tokens.has(token))).toEqual([]);
  });

  it('a second host on the same token store reaches both servers without logging in again', async () => {
    const { alpha, beta, store } = await twoUpstreams();
    const first: string[] = [];
    const one = hostWith([alpha.entry, beta.entry], store, first);
    await one.callTool('alpha__whoami', {});
    await one.callTool('beta__whoami', {});
    await one.close();
    const again: string[] = [];
    const two = hostWith([alpha.entry, beta.entry], store, again);
    expect(await audienceSeen(two, 'alpha__whoami')).toBe(alpha.resource);
    expect(await audienceSeen(two, 'beta__whoami')).toBe(beta.resource);
    expect(first).toHaveLength(2);
    expect(again).toEqual([]);
  });
});
