/**
 * Authorization across implementations, both authorized by one real `oidc-provider` on loopback:
 *
 * 1. the official SDK's `Client` with its own OAuth provider (discovery, DCR, PKCE, resource
 *    indicator, and its 403 `insufficient_scope` step-up) against an mcpkit server wrapped with
 *    `protect()` and guarded by `requireScopes()`;
 * 2. mcpkit's `McpClient` with `OAuthClientProvider` against an official SDK server behind the
 *    SDK's `requireBearerAuth` and `mcpAuthMetadataRouter` (its PRM), with a 401 first login and
 *    a 403 step-up.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryTokenStore, OAuthClientProvider } from '@mcpkit/auth/client';
import { jwtVerifier, protect, requireScopes } from '@mcpkit/auth/server';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { CallToolResult } from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import {
  type OAuthClientProvider as SdkAuthProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { browser, useAuthServer } from './support/authServer.js';

const REDIRECT = 'http://127.0.0.1/callback';
const { as: fixture, cleanups } = useAuthServer();

/** What a tool saw of its caller, as JSON text. */
function principal(sub: unknown, scopes: readonly string[] | undefined): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify({ sub, scopes: [...(scopes ?? [])].sort() }) }] };
}

function read(result: unknown): { sub: string; scopes: string[] } {
  return JSON.parse((result as CallToolResult).content.map((c) => (c as { text: string }).text).join(''));
}

// ---------------------------------------------------------------- 1. official client, mcpkit server

/** The official SDK's OAuth provider interface, kept in memory; the login is finished by the test. */
class SdkProvider implements SdkAuthProvider {
  authorizationUrl: URL | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'official sdk client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /**
   * Registers the client at the fixture (RFC 7591) without a `scope`, as a pre-registered client:
   * the SDK's own registration sends the challenge's resource scopes as the client's `scope`, and
   * oidc-provider accepts only its OpenID scopes there.
   */
  async register(): Promise<void> {
    const metadata = await (await fetch(`${fixture().issuer}/.well-known/openid-configuration`)).json();
    const response = await fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.clientMetadata),
    });
    this.info = await response.json();
  }
  /** Logs in and consents at the authorization URL the SDK asked for; hands back the code. */
  async login(): Promise<string> {
    const url = this.authorizationUrl;
    if (!url) throw new Error('the SDK did not ask for an authorization');
    this.authorizationUrl = undefined;
    const landed = await browser(REDIRECT)(url);
    return landed.searchParams.get('code') ?? '';
  }
}

async function startMcpkitServer() {
  const server = new McpServer({ name: 'mcpkit-protected', version: '1.0.0' });
  server.tool('whoami', (_args, ctx) => principal(ctx.authInfo?.extra?.sub, ctx.authInfo?.scopes));
  server.tool('write_note', (_args, ctx) => principal(ctx.authInfo?.extra?.sub, ctx.authInfo?.scopes));
  const scopes = requireScopes({ tools: { write_note: ['mcp:write'] } });
  server.use(scopes);
  const mcp = createStreamableHttpHandler(server);
  let guarded: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const served = await serve((request: Request) => guarded(request));
  cleanups.push(async () => {
    await mcp.close();
    await served.close();
  });
  const resource = `${served.url.replace(/\/$/, '')}/mcp`;
  const { issuer } = fixture();
  guarded = protect(mcp, {
    resource,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, audience: resource, jwks: `${issuer}/jwks` }),
    requiredScopes: ['mcp:read'],
    scopes,
  });
  return resource;
}

describe("the official SDK's client against an mcpkit server protected by protect()", () => {
  it('logs in through discovery and PKCE with the resource indicator, and steps up on 403 insufficient_scope', async () => {
    const resource = await startMcpkitServer();
    const provider = new SdkProvider();
    await provider.register();
    const transport = new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    cleanups.push(() => client.close());
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const first = provider.authorizationUrl;
    expect(first?.searchParams.get('resource')).toBe(resource);
    expect(first?.searchParams.get('code_challenge_method')).toBe('S256');
    await transport.finishAuth(await provider.login());

    const again = new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
    await client.connect(again);
    expect(read(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({
      sub: 'user-1',
      scopes: ['mcp:read'],
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);

    // 403 insufficient_scope: the SDK re-authorizes with the challenge's scope, then retries.
    await expect(client.callTool({ name: 'write_note', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl?.searchParams.get('scope')?.split(' ').sort()).toEqual([
      'mcp:read',
      'mcp:write',
    ]);
    await again.finishAuth(await provider.login());
    expect(read(await client.callTool({ name: 'write_note', arguments: {} }))).toEqual({
      sub: 'user-1',
      scopes: ['mcp:read', 'mcp:write'],
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'write_note']);
  });
});

// ---------------------------------------------------------------- 2. mcpkit client, official server

/** The official server behind the SDK's bearer middleware, verifying JWTs from the fixture with jose. */
async function startSdkServer() {
  const app = express();
  const http: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const { issuer } = fixture();
  const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
  app.use(
    mcpAuthMetadataRouter({
      oauthMetadata: metadata,
      resourceServerUrl: new URL(resource),
      scopesSupported: ['mcp:read', 'mcp:write'],
    }),
  );
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const verifier = {
    async verifyAccessToken(token: string): Promise<SdkAuthInfo> {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer });
        const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
        return {
          token,
          clientId: String(payload.client_id),
          scopes: String(payload.scope ?? '')
            .split(' ')
            .filter(Boolean),
          expiresAt: payload.exp,
          resource: aud ? new URL(aud) : undefined,
          extra: { sub: payload.sub },
        };
      } catch {
        throw new InvalidTokenError('the token could not be verified');
      }
    },
  };
  const settings = { required: ['mcp:read'] };
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource));
  app.post(
    '/mcp',
    express.json(),
    (req, res, next) =>
      requireBearerAuth({
        verifier,
        requiredScopes: settings.required,
        resourceMetadataUrl,
        expectedResource: new URL(resource),
      })(req, res, next),
    async (req, res) => {
      const server = new SdkMcpServer({ name: 'sdk-protected', version: '1.0.0' });
      server.registerTool('whoami', {}, async (extra) =>
        principal(extra.authInfo?.extra?.sub, extra.authInfo?.scopes),
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  return { resource, settings };
}

describe("mcpkit's client against an official SDK server protected by requireBearerAuth", () => {
  it('logs in on the first 401 from its PRM, and steps up when the server starts asking for more scope', async () => {
    const { resource, settings } = await startSdkServer();
    const logins: URL[] = [];
    const auth = new OAuthClientProvider({
      serverUrl: resource,
      redirectUri: REDIRECT,
      redirect: browser(REDIRECT, logins),
    });
    const client = new McpClient({ name: 'mcpkit-client', version: '1.0.0' }, { onError: () => {} });
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpClientTransport(new URL(resource), { authProvider: auth }));
    expect(read(await client.callTool('whoami', {}))).toEqual({ sub: 'user-1', scopes: ['mcp:read'] });
    expect(logins[0]?.searchParams.get('resource')).toBe(resource);

    settings.required = ['mcp:read', 'mcp:write'];
    expect(read(await client.callTool('whoami', {}))).toEqual({
      sub: 'user-1',
      scopes: ['mcp:read', 'mcp:write'],
    });
    expect(logins).toHaveLength(2);
  });

  it('a token for the mcpkit server is refused by the official server (another audience)', async () => {
    const sdk = await startSdkServer();
    const mcpkit = await startMcpkitServer();
    const store = new MemoryTokenStore();
    const auth = new OAuthClientProvider({
      serverUrl: mcpkit,
      redirectUri: REDIRECT,
      redirect: browser(REDIRECT),
      store,
    });
    const client = new McpClient({ name: 'mcpkit-client', version: '1.0.0' }, { onError: () => {} });
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpClientTransport(new URL(mcpkit), { authProvider: auth }));
    const token = store.loadTokens(mcpkit)?.accessToken;
    const response = await fetch(sdk.resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});
