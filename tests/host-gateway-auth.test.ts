/**
 * The gateway's front protected with `protect()` from `@mcpkit/auth/server` (real JWTs, signed
 * with jose): a request without a valid token is refused with the spec's 401 challenge, a valid
 * one reaches the upstream, and the downstream token never reaches the upstream.
 */

import { jwtVerifier, protect } from '@mcpkit/auth/server';
import { createGateway } from '@mcpkit/host/gateway';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoServer } from '../packages/cli/src/index.js';

const ISSUER = 'https://auth.example.test';
let upstream: ServedHandler;
let front: ServedHandler;
let token = '';
/** The Authorization header of every request the upstream received (null when absent). */
const upstreamAuthorization: Array<string | null> = [];
let closeGateway: () => Promise<void>;

beforeAll(async () => {
  const handler = createStreamableHttpHandler(createDemoServer({ clockIntervalMs: 0 }));
  const recording = async (request: Request) => {
    upstreamAuthorization.push(request.headers.get('authorization'));
    return handler(request);
  };
  upstream = await serve(Object.assign(recording, { close: () => handler.close() }), {
    port: 0,
    path: '/mcp',
  });

  const gateway = createGateway({
    host: {
      servers: [
        {
          kind: 'url',
          name: 'demo',
          url: new URL(upstream.url),
          headers: {},
          transport: 'auto',
          disabled: false,
          autoApprove: [],
        },
      ],
    },
  });
  closeGateway = () => gateway.close();
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  let guarded: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  front = await serve(
    Object.assign((request: Request) => guarded(request), { close: async () => {} }),
    {
      port: 0,
    },
  );
  const resource = `${front.url.replace(/\/$/, '')}/mcp`;
  guarded = protect(gateway.httpHandler(), {
    resource,
    authorizationServers: [ISSUER],
    verifier: jwtVerifier({ issuer: ISSUER, audience: resource, jwks: async () => publicKey }),
  });
  token = await new SignJWT({ scope: 'mcp' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(resource)
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey);
});

afterAll(async () => {
  await front?.close();
  await closeGateway?.();
  await upstream?.close();
});

const frontUrl = () => new URL(`${front.url.replace(/\/$/, '')}/mcp`);

describe('a gateway behind protect()', () => {
  it('refuses a request without a token with 401 and the resource metadata challenge', async () => {
    const response = await fetch(frontUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
  });

  it('serves a client with a valid token, and that token never reaches the upstream', async () => {
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(frontUrl(), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'authorized' } });
      expect(JSON.stringify(result.content)).toContain('authorized');
    } finally {
      await client.close();
    }
    expect(upstreamAuthorization.length).toBeGreaterThan(0);
    expect(upstreamAuthorization.every((value) => value === null)).toBe(true);
  });
});
