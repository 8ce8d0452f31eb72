/**
 * `protect()` in front of a handler with `cors`: a preflight (which never carries credentials) is
 * the handler's to answer, not a 401, and the 401/403 challenges carry the handler's CORS headers,
 * so a page on an allowed origin can read `WWW-Authenticate` and start authorization.
 */
import { InvalidTokenError, protect } from '@mcpkit/auth/server';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';

const PAGE = 'http://127.0.0.1:5173';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function guarded(options: StreamableHttpHandlerOptions) {
  const handler = createStreamableHttpHandler(new McpServer({ name: 'p', version: '1' }), options);
  cleanups.push(() => handler.close());
  return protect(handler, {
    resource: 'http://127.0.0.1:3000/mcp',
    authorizationServers: ['http://127.0.0.1:4000'],
    verifier: async (token) => {
      if (token !== 'good') throw new InvalidTokenError('unknown token');
      return { token, scopes: [] };
    },
  });
}

const preflight = new Request('http://127.0.0.1:3000/mcp', {
  method: 'OPTIONS',
  headers: {
    origin: PAGE,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization',
  },
});
const unauthenticated = () =>
  new Request('http://127.0.0.1:3000/mcp', {
    method: 'POST',
    headers: {
      origin: PAGE,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });

describe('protect() with a CORS handler', () => {
  it('lets the handler answer the preflight and gives its 401 the CORS headers', async () => {
    const fetch = guarded({ cors: { allowedOrigins: [PAGE] } });
    const answer = await fetch(preflight);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
    const refused = await fetch(unauthenticated());
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(refused.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('without cors, OPTIONS gets the handler 405 and a 401 carries no CORS header', async () => {
    const fetch = guarded({});
    expect((await fetch(preflight)).status).toBe(405);
    const refused = await fetch(unauthenticated());
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
