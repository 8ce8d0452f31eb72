/**
 * The HTTP handlers take exactly one argument (issue 12). Runtimes call `fetch` with a second one
 * of their own (Bun its `Server`, Deno its `ServeHandlerInfo`, Workers their `env`); when the
 * handler read it, a Worker `env` binding named `authInfo` authenticated every caller. The
 * verified caller now reaches `ctx.authInfo` only through `handler.handle` (or `protect`).
 */
import { InvalidTokenError, protect } from '@mcpkit/auth/server';
import { McpServer } from '@mcpkit/server';
import { createLegacySseHandler, createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A stateless JSON handler whose one tool answers with the caller it was told about. */
function whoAmIHandler() {
  const server = new McpServer({ name: 'who', version: '1.0.0' });
  server.tool('whoami', { description: 'The caller as ctx.authInfo says' }, (_args, ctx) =>
    JSON.stringify(ctx.authInfo ?? null),
  );
  const handler = createStreamableHttpHandler(server, { stateless: true, enableJsonResponse: true });
  cleanups.push(() => handler.close());
  return handler;
}

function callWhoAmI(headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami' } }),
  });
}

async function callerSeen(response: Response): Promise<unknown> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
  return JSON.parse(body.result.content[0]!.text);
}

const forged = { authInfo: { clientId: 'admin', token: 'from-env', scopes: ['admin'] } };

describe('the HTTP handler takes one argument', () => {
  it('declares exactly one parameter, as do the legacy handler and protect()', () => {
    const handler = whoAmIHandler();
    const legacy = createLegacySseHandler(new McpServer({ name: 'l', version: '1' }));
    cleanups.push(() => legacy.close());
    const guarded = protect(handler, {
      resource: 'http://localhost/mcp',
      authorizationServers: ['http://localhost:1'],
      verifier: async () => ({ token: 't', scopes: [] }),
    });
    expect([handler.length, legacy.length, guarded.length]).toEqual([1, 1, 1]);
  });

  it('ignores a second argument that carries authInfo, as a Worker env binding would', async () => {
    const handler = whoAmIHandler();
    // What workerd does with `export default { fetch: handler }`: fetch(request, env, ctx).
    const asRuntime = handler as unknown as (
      request: Request,
      env: unknown,
      ctx: unknown,
    ) => Promise<Response>;
    const response = await asRuntime(callWhoAmI(), forged, { waitUntil() {} });
    expect(await callerSeen(response)).toBeNull();
  });

  it('hands the verified caller to ctx.authInfo through handle()', async () => {
    const handler = whoAmIHandler();
    const response = await handler.handle(callWhoAmI(), { authInfo: { clientId: 'alice', token: 't' } });
    expect(await callerSeen(response)).toEqual({ clientId: 'alice', token: 't' });
  });

  it('protect() passes only what its verifier said, whatever a runtime adds', async () => {
    const guarded = protect(whoAmIHandler(), {
      resource: 'http://localhost/mcp',
      authorizationServers: ['http://localhost:1'],
      verifier: async (token) => {
        if (token !== 'good') throw new InvalidTokenError('unknown token');
        return { token, clientId: 'bob', scopes: [] };
      },
    });
    const asRuntime = guarded as unknown as (request: Request, env: unknown) => Promise<Response>;
    const refused = await asRuntime(callWhoAmI(), forged);
    expect(refused.status).toBe(401);
    const response = await asRuntime(callWhoAmI({ authorization: 'Bearer good' }), forged);
    expect(await callerSeen(response)).toEqual({ token: 'good', clientId: 'bob', scopes: [] });
  });
});
