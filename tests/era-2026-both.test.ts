import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { TaskManager } from '@mcpkit/server/tasks';
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
    const legacy = new McpClient({ name: 'legacy', version: '1.0.0' }, { protocolEra: '2025' });
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
    // One error kind, one code per era: an unknown resource is -32002 under 2025-11-25, -32602 under 2026-07-28.
    pipes.send({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'test://missing' } });
    pipes.send(modernRequest(8, 'resources/read', { uri: 'test://missing' }));
    expect((await pipes.waitFor((line) => line.id === 7)).error.code).toBe(-32002);
    expect((await pipes.waitFor((line) => line.id === 8)).error.code).toBe(-32602);
    await server.close();
  });

  it('delivers list changes to a 2026 listen request on stdio, with no session, until it is cancelled', async () => {
    const server = makeServer();
    const pipes = stdioPipes();
    server.connect(pipes.transport);
    pipes.send(
      modernRequest('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    const ack = await pipes.waitFor((line) => line.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toEqual({
      notifications: { toolsListChanged: true },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
    });
    server.tool('late', { description: 'Registered while listening' }, () => 'late');
    const changed = await pipes.waitFor((line) => line.method === 'notifications/tools/list_changed');
    expect(changed.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('listen-1');
    // stdio cancels a subscription with notifications/cancelled; the request then ends.
    pipes.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
    // A cancelled request gets no response; a second listener then hears the next change, and the first one must not.
    const count = pipes.lines.length;
    pipes.send(
      modernRequest('listen-2', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    await pipes.waitFor(
      (line) => line.params?._meta?.['io.modelcontextprotocol/subscriptionId'] === 'listen-2',
    );
    server.tool('later', { description: 'Registered after the cancel' }, () => 'later');
    await pipes.waitFor(
      (line) =>
        line.method === 'notifications/tools/list_changed' &&
        line.params._meta['io.modelcontextprotocol/subscriptionId'] === 'listen-2',
    );
    const tagged = pipes.lines
      .slice(count)
      .filter((line) => line.method === 'notifications/tools/list_changed')
      .map((line) => line.params._meta['io.modelcontextprotocol/subscriptionId']);
    expect(tagged).toEqual(['listen-2']);
    await server.close();
  });

  it('ignores a task param under 2026-07-28 (tasks are an extension there) and runs the call', async () => {
    const server = new McpServer({ name: 'tasks-2026', version: '1.0.0' }, { tasks: new TaskManager() });
    server.tool(
      'slow',
      { description: 'May run as a task', execution: { taskSupport: 'optional' } },
      () => 'ran',
    );
    const pipes = stdioPipes();
    server.connect(pipes.transport);
    pipes.send(modernRequest(1, 'tools/call', { name: 'slow', arguments: {}, task: { ttl: 60_000 } }));
    const answer = await pipes.waitFor((line) => line.id === 1);
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'ran' }] });
    expect(answer.result.task).toBeUndefined();
    pipes.send(modernRequest(2, 'tasks/list'));
    expect((await pipes.waitFor((line) => line.id === 2)).error.code).toBe(-32601);
    await server.close();
  });
});
