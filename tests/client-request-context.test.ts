import { type Client, ClientRequestContext, McpClient } from '@mcpkit/client';
import { createInMemoryPair, type ProgressUpdate } from '@mcpkit/core';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';

async function connect(server: McpServer, client: Client) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const session = server.connect(serverSide);
  await client.connect(clientSide);
  return session;
}

// These handlers answer server-to-client requests of a 2025 session (progress, server cancellation,
// extension methods): 2026-07-28 has none of these for input requests, so the clients pin '2025'.
describe('ClientRequestContext: what client handlers get, mirroring the server', () => {
  it('a sampling handler reports progress, reads the request and the session revision, and hears cancellation', async () => {
    const seen: Array<{ ctx: ClientRequestContext; aborted: () => boolean }> = [];
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: '2025',
        sampling: async (_params, ctx) => {
          seen.push({ ctx, aborted: () => ctx.signal.aborted });
          await ctx.progress(1, 2, 'thinking');
          await ctx.progress(2, 2);
          return { role: 'assistant', content: { type: 'text', text: ctx.method }, model: 'm' };
        },
      },
    );
    const updates: ProgressUpdate[] = [];
    const server = new McpServer({ name: 's', version: '1' });
    server.tool('ask', async (_args, ctx) => {
      const reply = await ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
        { onProgress: (update) => updates.push(update) },
      );
      return JSON.stringify(reply.content);
    });
    await connect(server, client);
    const result = await client.callTool('ask', {});
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify({ type: 'text', text: 'sampling/createMessage' }) },
    ]);
    expect(updates).toEqual([
      { progress: 1, total: 2, message: 'thinking' },
      { progress: 2, total: 2 },
    ]);
    const { ctx } = seen[0]!;
    expect(ctx).toBeInstanceOf(ClientRequestContext);
    expect(ctx.client).toBe(client);
    expect(ctx.protocolVersion).toBe(client.protocolVersion);
    expect(ctx.protocolVersion).toBeDefined();
    expect(typeof ctx.requestId === 'number' || typeof ctx.requestId === 'string').toBe(true);
    expect(ctx.progressToken).toBeDefined();
    await client.close();
  });

  it("the context's signal fires when the server cancels the request", async () => {
    let aborted: (reason: unknown) => void = () => {};
    const abortedWith = new Promise((resolve) => {
      aborted = resolve;
    });
    const client = new McpClient(
      { name: 'c', version: '1' },
      { protocolEra: '2025', capabilities: { roots: {} } },
    );
    client.setRequestHandler('roots/list', (_params, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted(ctx.signal.reason));
      return new Promise(() => {});
    });
    const server = new McpServer({ name: 's', version: '1' });
    const controller = new AbortController();
    server.tool('roots', async (_args, ctx) => {
      const pending = ctx.listRoots({ signal: controller.signal });
      controller.abort(new Error('enough'));
      await pending.catch(() => {});
      return 'asked';
    });
    await connect(server, client);
    await client.callTool('roots', {});
    await expect(abortedWith).resolves.toBeInstanceOf(Error);
    await client.close();
  });

  it('an extension method handler sends a notification tied to its request', async () => {
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
    client.setRequestHandler('com.example/ask', async (params, ctx) => {
      await ctx.notify('com.example/thinking', { about: params.q });
      return { answer: 42 };
    });
    const server = new McpServer({ name: 's', version: '1' });
    const heard: unknown[] = [];
    server.onNotification('com.example/thinking', (params) => heard.push(params));
    server.tool('ask', async (_args, ctx) =>
      JSON.stringify(await ctx.requestClient('com.example/ask', { q: 'x' })),
    );
    await connect(server, client);
    const result = await client.callTool('ask', {});
    expect(result.content).toEqual([{ type: 'text', text: '{"answer":42}' }]);
    expect(heard).toEqual([{ about: 'x' }]);
    await client.close();
  });
});
