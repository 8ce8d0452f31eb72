/**
 * Discovery and client safety rules of @mcpkit/auth, against small loopback servers that replay
 * the document shapes behind known discovery bugs of other SDKs (typescript-sdk #2784, #2783, #744,
 * #758, #1946) and hostile authorization servers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationError, bearerChallenge, OAuthClientProvider } from '@mcpkit/auth/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  asMetadataCandidates,
  discoverAuthorizationServer,
  discoverResource,
} from '../packages/auth/src/client/discovery.js';
import { redact } from '../packages/auth/src/client/errors.js';

type Route = (origin: string) => { status?: number; body?: unknown; headers?: Record<string, string> };
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A loopback server answering `routes` by path (404 otherwise); records the paths asked for. */
async function documents(routes: Record<string, Route>, asked: string[] = []): Promise<string> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const route = routes[path];
    const answer = route ? route(origin) : { status: 404 };
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

const asMetadata = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  registration_endpoint: `${issuer}/register`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
  ...extra,
});

describe('discovery', () => {
  it('a Keycloak-style issuer path is found by RFC 8414 path insertion and its issuer is checked (ts-sdk #2783)', async () => {
    const asked: string[] = [];
    const origin = await documents(
      {
        '/.well-known/oauth-authorization-server/realms/acme': (o) => ({
          body: asMetadata(`${o}/realms/acme`),
        }),
      },
      asked,
    );
    const as = await discoverAuthorizationServer(new URL(`${origin}/realms/acme`), {});
    expect(as?.issuer).toBe(`${origin}/realms/acme`);
    expect(asked).toEqual(['/.well-known/oauth-authorization-server/realms/acme']);
  });

  it('an issuer with a path falls back to OIDC path insertion, then path append, in the spec order', () => {
    const urls = asMetadataCandidates(new URL('https://as.example/tenant1')).map((url) => url.href);
    expect(urls).toEqual([
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('every metadata URL of an authorization server is built on its own host, never the resource host (ts-sdk #2784)', () => {
    for (const url of asMetadataCandidates(new URL('https://login.example.net/t/1'))) {
      expect(url.host).toBe('login.example.net');
    }
  });

  it('metadata whose issuer differs from the one asked for is not used', async () => {
    const origin = await documents({
      '/.well-known/oauth-authorization-server': () => ({ body: asMetadata('https://evil.example') }),
      '/.well-known/openid-configuration': () => ({ body: asMetadata('https://evil.example') }),
    });
    expect(await discoverAuthorizationServer(new URL(origin), {})).toBeUndefined();
  });

  it('protected resource metadata advertised only through the WWW-Authenticate header is found (ts-sdk #744)', async () => {
    const origin = await documents({
      '/custom/prm.json': (o) => ({ body: { resource: `${o}/mcp`, authorization_servers: [o] } }),
    });
    const prm = await discoverResource(
      new URL(`${origin}/mcp`),
      { resourceMetadata: `${origin}/custom/prm.json` },
      {},
    );
    expect(prm?.authorization_servers).toEqual([origin]);
  });

  it('a PRM document naming another resource stops the flow instead of steering the client', async () => {
    const origin = await documents({
      '/.well-known/oauth-protected-resource/mcp': () => ({
        body: { resource: 'https://evil.example/mcp', authorization_servers: ['https://evil.example'] },
      }),
    });
    await expect(discoverResource(new URL(`${origin}/mcp`), undefined, {})).rejects.toThrow(
      AuthorizationError,
    );
  });

  it('a non-Bearer 401 yields no Bearer challenge, and a Bearer one after another scheme is still read (ts-sdk #758, #1946)', async () => {
    const basic = new Response(null, { status: 401, headers: { 'www-authenticate': 'Basic realm="x"' } });
    expect(await bearerChallenge(basic)).toBeUndefined();
    const both = new Response(null, {
      status: 401,
      headers: {
        'www-authenticate':
          'Basic realm="x", Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource", scope="a b", error="insufficient_scope"',
      },
    });
    expect(await bearerChallenge(both)).toEqual({
      resourceMetadata: 'https://mcp.example/.well-known/oauth-protected-resource',
      scope: 'a b',
      error: 'insufficient_scope',
    });
  });
});

describe('client safety', () => {
  it('an authorization server that does not advertise PKCE S256 is refused before the user is sent anywhere', async () => {
    const origin = await documents({
      '/.well-known/oauth-protected-resource/mcp': (o) => ({
        body: { resource: `${o}/mcp`, authorization_servers: [o] },
      }),
      '/.well-known/oauth-authorization-server': (o) => ({
        body: asMetadata(o, { code_challenge_methods_supported: undefined }),
      }),
      '/register': () => ({ status: 201, body: { client_id: 'c1' } }),
    });
    let redirected = false;
    const auth = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1/cb',
      redirect: async () => {
        redirected = true;
        return { code: 'x', state: 'y' };
      },
    });
    const challenge = new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    await expect(auth.onUnauthorized(challenge)).rejects.toThrow(/does not advertise PKCE S256/);
    expect(redirected).toBe(false);
  });

  it('an authorization server reached over plain HTTP off loopback is never asked for metadata', async () => {
    let fetched = false;
    const as = await discoverAuthorizationServer(new URL('http://as.example'), {
      fetch: async () => {
        fetched = true;
        return new Response('{}');
      },
    });
    expect(as).toBeUndefined();
    expect(fetched).toBe(false);
  });

  it('error messages never carry tokens, codes, verifiers or secrets', () => {
    const text = redact(
      'POST failed: code=abc123&code_verifier=v3r1f13r&client_secret=s3cr3t refresh_token=rt1 Authorization: Bearer eyJhbGciOi.x.y',
    );
    for (const secret of ['abc123', 'v3r1f13r', 's3cr3t', 'rt1', 'eyJhbGciOi'])
      expect(text).not.toContain(secret);
  });
});
