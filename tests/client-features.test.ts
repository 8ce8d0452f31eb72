import { McpClient } from '@mcpkit/client';
import {
  type CallToolResult,
  type CreateMessageResult,
  createInMemoryPair,
  type ElicitResult,
  LocalError,
  McpError,
  type Tool,
  type ToolJsonSchema,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { type MethodHandler, Server } from '@mcpkit/server';
import { describe, expect, it, vi } from 'vitest';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function connect(server: Server, client: McpClient) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const session = server.connect(serverSide);
  return { session, ready: client.connect(clientSide) };
}

function toolServer(call: MethodHandler<'tools/call'>, tools: Tool[] = []) {
  const server = new Server(
    { name: 's', version: '1' },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', call);
  return server;
}

describe('McpClient', () => {
  it('answers sampling with tools and declares sampling.tools', async () => {
    const sampling = vi.fn(
      async (): Promise<CreateMessageResult> => ({
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'u1', name: 'weather', input: { city: 'Paris' } }],
        model: 'test-model',
        stopReason: 'toolUse',
      }),
    );
    const server = toolServer(async (_p, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }],
        maxTokens: 50,
        tools: [{ name: 'weather', inputSchema: { type: 'object' } }],
        toolChoice: { mode: 'auto' },
      });
      return { content: [{ type: 'text', text: JSON.stringify(reply.content) }] };
    });
    const client = new McpClient(
      { name: 'c', version: '1' },
      { protocolEra: '2025', sampling, samplingTools: true },
    );
    const { session, ready } = connect(server, client);
    await ready;
    await tick();
    expect(session.clientCapabilities.sampling).toEqual({ tools: {} });
    const result = await client.callTool('ask', {}, {});
    expect((result.content[0] as { text: string }).text).toContain('tool_use');
    expect((sampling.mock.calls[0] as unknown[] | undefined)?.[0]).toMatchObject({
      toolChoice: { mode: 'auto' },
    });
  });

  it('refuses sampling with tools locally when the client did not declare sampling.tools', async () => {
    let error: unknown;
    const server = toolServer(async (_p, ctx) => {
      error = await ctx
        .sample({ messages: [], maxTokens: 1, tools: [{ name: 't', inputSchema: { type: 'object' } }] })
        .catch((e) => e);
      return { content: [] };
    });
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: '2025',
        sampling: async () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
      },
    );
    await connect(server, client).ready;
    await tick();
    await client.callTool('x');
    expect(String(error)).toMatch(/sampling\.tools/);
  });

  it('applies schema defaults to accepted form elicitations (SEP-1034)', async () => {
    let answer: ElicitResult | undefined;
    const server = toolServer(async (_p, ctx) => {
      answer = await ctx.elicit({
        message: 'Details?',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'Ada' },
            age: { type: 'integer', default: 36 },
            color: { type: 'string', enum: ['red', 'blue'], default: 'blue' },
            subscribed: { type: 'boolean', default: true },
          },
        },
      });
      return { content: [] };
    });
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: '2025',
        elicitation: { form: async () => ({ action: 'accept', content: { name: 'Grace' } }) },
      },
    );
    await connect(server, client).ready;
    await tick();
    await client.callTool('x');
    expect(answer).toEqual({
      action: 'accept',
      content: { name: 'Grace', age: 36, color: 'blue', subscribed: true },
    });
  });

  it('handles URL-mode elicitation, its completion notification, and the -32042 error', async () => {
    const completed: string[] = [];
    const server = toolServer(async (p, ctx) => {
      if (p.name === 'login') {
        const result = await ctx.elicit({
          mode: 'url',
          message: 'Sign in',
          url: 'https://example.com/a',
          elicitationId: 'e1',
        });
        await ctx.notify('notifications/elicitation/complete', { elicitationId: 'e1' });
        return { content: [{ type: 'text', text: result.action }] };
      }
      throw new UrlElicitationRequiredError([
        { mode: 'url', message: 'Authorize', url: 'https://example.com/b', elicitationId: 'e2' },
      ]);
    });
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: '2025',
        elicitation: {
          url: async (params) => ({ action: params.url.startsWith('https://') ? 'accept' : 'decline' }),
        },
      },
    );
    client.onElicitationComplete((id) => completed.push(id));
    const { session, ready } = connect(server, client);
    await ready;
    await tick();
    expect(session.clientCapabilities.elicitation).toEqual({ url: {} });
    const result = (await client.callTool('login')) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'accept' }]);
    await tick();
    expect(completed).toEqual(['e1']);
    const error = await client.callTool('other').catch((e) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error.code).toBe(-32042);
    expect(error.elicitations[0].elicitationId).toBe('e2');
  });

  it('serves roots and announces changes', async () => {
    const server = toolServer(async (_p, ctx) => ({
      content: [{ type: 'text', text: JSON.stringify(await ctx.listRoots()) }],
    }));
    const changed = vi.fn();
    server.setNotificationHandler('notifications/roots/list_changed', changed);
    const client = new McpClient(
      { name: 'c', version: '1' },
      { protocolEra: '2025', roots: [{ uri: 'file:///a', name: 'a' }] },
    );
    await connect(server, client).ready;
    await tick();
    const first = await client.callTool('r');
    expect(JSON.parse((first.content[0] as { text: string }).text)).toEqual({
      roots: [{ uri: 'file:///a', name: 'a' }],
    });
    await client.setRoots([{ uri: 'file:///b' }]);
    await tick();
    expect(changed).toHaveBeenCalledOnce();
    const second = await client.callTool('r');
    expect((second.content[0] as { text: string }).text).toContain('file:///b');
  });

  it('caches lists and refreshes them on list_changed', async () => {
    let tools: Tool[] = [{ name: 'a', inputSchema: { type: 'object' } }];
    const server = new Server(
      { name: 's', version: '1' },
      { capabilities: { tools: { listChanged: true } } },
    );
    const list = vi.fn(() => ({ tools }));
    server.setRequestHandler('tools/list', list);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
    const refreshed = vi.fn();
    client.onListChanged('tools', refreshed);
    await connect(server, client).ready;
    await tick();
    expect((await client.tools()).map((t) => t.name)).toEqual(['a']);
    await client.tools();
    expect(list).toHaveBeenCalledOnce();
    tools = [...tools, { name: 'b', inputSchema: { type: 'object' } }];
    server.broadcast('notifications/tools/list_changed');
    await tick();
    expect(refreshed).toHaveBeenCalledOnce();
    expect((await client.tools()).map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('follows pagination', async () => {
    const server = new Server({ name: 's', version: '1' }, { capabilities: { prompts: {} } });
    server.setRequestHandler('prompts/list', (params) =>
      params.cursor === 'p2'
        ? { prompts: [{ name: 'two' }] }
        : { prompts: [{ name: 'one' }], nextCursor: 'p2' },
    );
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
    await connect(server, client).ready;
    expect((await client.prompts()).map((p) => p.name)).toEqual(['one', 'two']);
  });

  it('validates structuredContent against the tool outputSchema', async () => {
    const outputSchema: ToolJsonSchema = {
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    };
    const server = toolServer(
      (p) =>
        p.name === 'good'
          ? { content: [{ type: 'text', text: '{"sum":3}' }], structuredContent: { sum: 3 } }
          : p.name === 'bad'
            ? { content: [], structuredContent: { sum: 'three' } }
            : { content: [] },
      [
        { name: 'good', inputSchema: { type: 'object' }, outputSchema },
        { name: 'bad', inputSchema: { type: 'object' }, outputSchema },
        { name: 'missing', inputSchema: { type: 'object' }, outputSchema },
      ],
    );
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
    await connect(server, client).ready;
    await expect(client.callTool('good')).resolves.toMatchObject({ structuredContent: { sum: 3 } });
    await expect(client.callTool('bad')).rejects.toThrow(/does not match its outputSchema.*\/sum/);
    // The client's own check is a local failure, not a -32602 the server never sent.
    await expect(client.callTool('bad')).rejects.toBeInstanceOf(LocalError);
    await expect(client.callTool('missing')).rejects.toBeInstanceOf(LocalError);
    await expect(client.callTool('missing')).rejects.not.toBeInstanceOf(McpError);
  });

  it('sends no tools/list of its own when a call returns no structuredContent (regression: a sending-side limit counted it)', async () => {
    const outputSchema: ToolJsonSchema = { type: 'object', properties: { sum: { type: 'number' } } };
    const server = toolServer(
      (p) => (p.name === 'plain' ? { content: [] } : { content: [], structuredContent: { sum: 'x' } }),
      [
        { name: 'plain', inputSchema: { type: 'object' } },
        { name: 'declared', inputSchema: { type: 'object' }, outputSchema },
      ],
    );
    const sent: string[] = [];
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
    client.use(async (ctx, next) => {
      if (ctx.direction === 'send') sent.push(ctx.method);
      return next();
    });
    await connect(server, client).ready;
    await client.callTool('plain');
    await client.callTool('plain');
    expect(sent.filter((method) => method === 'tools/list')).toEqual([]);
    // A structured result is still checked: the list is fetched once to learn the schema.
    await expect(client.callTool('declared')).rejects.toBeInstanceOf(LocalError);
    await expect(client.callTool('declared')).rejects.toBeInstanceOf(LocalError);
    expect(sent.filter((method) => method === 'tools/list')).toEqual(['tools/list']);
  });
});
