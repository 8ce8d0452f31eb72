import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, MODERN, modernRequest, postModern } from './support/modernWire.js';
import { stdioPipes } from './support/stdioPipes.js';

/** One definition for every test: a tool that reports the scope it was called in, a resource, a prompt. */
function makeServer(): McpServer {
  const server = new McpServer(
    { name: 'both-eras', version: '1.2.3' },
    { resources: resourceSupport, prompts: promptSupport, instructions: 'Test server' },
  );
  server.tool('who', { description: 'Says who asks' }, (_args, ctx) =>
    JSON.stringify({
      revision: ctx.scope.revision,
      client: ctx.scope.clientInfo?.name ?? null,
      session: ctx.scope.sessionId !== undefined,
    }),
  );
  server.resource('test://hello', { mimeType: 'text/plain' }, () => 'Hello!');
  server.prompt('greet', { arguments: [{ name: 'name', required: true }] }, ({ name }) => `Hello ${name}`);
  return server;
}

const served: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

function whoText(result: any): any {
  return JSON.parse(result.content[0].text);
}

describe('one server definition, both eras at once', () => {
  it('serves a 2025-11-25 client and a 2026-07-28 client over HTTP', async () => {
    const server = makeServer();
    const http = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
    served.push(http);
    const legacy = new McpClient({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new StreamableHttpClientTransport(new URL(http.url)));
    try {
      expect(legacy.protocolVersion).toBe('2025-11-25');
      const [old, modern] = await Promise.all([
        legacy.callTool('who', {}),
        postModern(http.url, modernRequest(1, 'tools/call', { name: 'who', arguments: {} })),
      ]);
      expect(whoText(old)).toEqual({ revision: '2025-11-25', client: 'legacy', session: true });
      expect(modern.status).toBe(200);
      expect(modern.response.headers.get('mcp-session-id')).toBeNull();
      expect(modern.body?.result.resultType).toBe('complete');
      expect(modern.body?.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({
        name: 'both-eras',
        version: '1.2.3',
      });
      expect(whoText(modern.body?.result)).toEqual({
        revision: MODERN,
        client: 'modern-test',
        session: false,
      });
      // The 2025 session is untouched by the 2026 traffic.
      expect(whoText(await legacy.callTool('who', {})).revision).toBe('2025-11-25');
    } finally {
      await legacy.close();
    }
  });

  it('serves 2025 and 2026 requests on one stdio connection, each by its own scope', async () => {
    const server = makeServer();
    const pipes = stdioPipes();
    server.connect(pipes.transport);
    // 2026 first, before any initialize: no handshake needed.
    pipes.send(modernRequest(1, 'server/discover'));
    const discover = await pipes.waitFor((line) => line.id === 1);
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN],
      instructions: 'Test server',
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect(discover.result.capabilities.tools).toBeDefined();
    pipes.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'legacy', version: '1' },
      },
    });
    expect((await pipes.waitFor((line) => line.id === 2)).result.protocolVersion).toBe('2025-11-25');
    pipes.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    pipes.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'who', arguments: {} } });
    pipes.send(modernRequest(4, 'tools/call', { name: 'who', arguments: {} }));
    const old = await pipes.waitFor((line) => line.id === 3);
    const modern = await pipes.waitFor((line) => line.id === 4);
    expect(whoText(old.result)).toEqual({ revision: '2025-11-25', client: 'legacy', session: false });
    expect(old.result.resultType).toBeUndefined();
    expect(whoText(modern.result)).toEqual({ revision: MODERN, client: 'modern-test', session: false });
    expect(modern.result.resultType).toBe('complete');
    // A method 2026-07-28 removed is refused under 2026 on the same connection, and still served under 2025.
    pipes.send({ jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: envelope() } });
    pipes.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
    const removed = await pipes.waitFor((line) => line.id === 5);
    expect(removed.error.code).toBe(-32601);
    expect(removed.error.message).toContain('2026-07-28');
    expect((await pipes.waitFor((line) => line.id === 6)).result).toEqual({});
    await server.close();
  });
});
