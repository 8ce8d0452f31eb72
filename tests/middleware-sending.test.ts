/**
 * The server's sending side (issue 21, section 1): `server.useSending` wraps what the server sends
 * to its client (sampling, elicitation and roots requests made for a tool call or on the session,
 * pings, and notifications: logs, progress, a tool's own, broadcasts) with the same `(ctx, next)`
 * shape. A real McpServer and McpClient over a serializing in-memory pair.
 */
import { McpClient } from '@mcpkit/client';
import { type CallToolResult, createInMemoryPair, McpError } from '@mcpkit/core';
import { McpServer, type ServerMiddlewareContext, type ServerSession } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';

interface Seen {
  direction: string;
  method: string;
  notification: boolean;
  onBehalf: boolean;
}

async function setup(sending: (ctx: ServerMiddlewareContext, next: () => Promise<unknown>) => unknown) {
  const server = new McpServer({ name: 'send', version: '1.0.0' }, { onError: () => {} });
  const seen: Seen[] = [];
  server.useSending((ctx, next) => {
    seen.push({
      direction: ctx.direction,
      method: ctx.method,
      notification: ctx.isNotification,
      onBehalf: ctx.request !== undefined,
    });
    return sending(ctx, next) as Promise<unknown>;
  });
  server.tool('ask', { description: 'Asks the client for everything' }, async (_args, ctx) => {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 1000,
    });
    const elicited = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    const { roots } = await ctx.listRoots();
    await ctx.progress(1, 2, 'half');
    ctx.log.info('logged');
    await ctx.notify('notifications/resources/updated', { uri: 'mem://x' });
    const block = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    const text = block?.type === 'text' ? block.text : '';
    return `${text}|${elicited.action}|${roots.length}`;
  });
  const sessions: ServerSession[] = [];
  server.onSessionInitialized((session) => sessions.push(session));
  const maxTokens: number[] = [];
  const progress: string[] = [];
  // '2025': the middleware under test sees the session's requests to the client (sampling,
  // elicitation, roots, ping) as requests; 2026-07-28 has input-required results instead.
  const client = new McpClient(
    { name: 'c', version: '1' },
    {
      protocolEra: '2025',
      sampling: (params) => {
        maxTokens.push(params.maxTokens);
        return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };
      },
      elicitation: { form: () => ({ action: 'accept', content: { name: 'Ada' } }) },
      roots: [{ uri: 'file:///a', name: 'a' }],
    },
  );
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  await client.connect(clientSide);
  await client.ping();
  const call = (name: string) =>
    client.callTool(name, {}, { onProgress: (update) => progress.push(update.message ?? '') });
  return { server, client, session: sessions[0]!, seen, maxTokens, progress, call };
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('server middleware: the sending side', () => {
  it('sees every request and notification a tool sends on behalf of its call', async () => {
    const { seen, call, progress } = await setup((_ctx, next) => next());
    expect(textOf(await call('ask'))).toBe('sampled|accept|1');
    expect(progress).toEqual(['half']);
    expect(seen.filter((s) => s.onBehalf)).toEqual([
      { direction: 'send', method: 'sampling/createMessage', notification: false, onBehalf: true },
      { direction: 'send', method: 'elicitation/create', notification: false, onBehalf: true },
      { direction: 'send', method: 'roots/list', notification: false, onBehalf: true },
      { direction: 'send', method: 'notifications/progress', notification: true, onBehalf: true },
      { direction: 'send', method: 'notifications/resources/updated', notification: true, onBehalf: true },
    ]);
    // The log goes through the session's own logger (related to the request by id).
    expect(seen.some((s) => s.method === 'notifications/message' && s.notification)).toBe(true);
  });

  it('sees what the session sends outside a call: requests, pings and broadcasts', async () => {
    const { server, session, seen } = await setup((_ctx, next) => next());
    await session.request('roots/list');
    await session.ping();
    server.broadcast('notifications/tools/list_changed');
    expect(seen).toEqual([
      { direction: 'send', method: 'roots/list', notification: false, onBehalf: false },
      { direction: 'send', method: 'ping', notification: false, onBehalf: false },
      { direction: 'send', method: 'notifications/tools/list_changed', notification: true, onBehalf: false },
    ]);
  });

  it('may change the params and the result, answer itself, or refuse', async () => {
    const { call, maxTokens } = await setup(async (ctx, next) => {
      if (ctx.method === 'sampling/createMessage') {
        ctx.params = { ...ctx.params, maxTokens: 50 };
        const result = (await next()) as { content: { text: string } };
        return { ...result, content: { type: 'text', text: `${result.content.text}!` } };
      }
      if (ctx.method === 'elicitation/create') return { action: 'decline' };
      if (ctx.method === 'roots/list') throw new McpError(-32001, 'No roots for you');
      return next();
    });
    const result = await call('ask');
    // The tool's own error: the McpError a middleware threw reaches the tool as a rejection.
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('No roots for you');
    expect(maxTokens).toEqual([50]);
  });

  it('a request a middleware changed is still checked against what the client declared', async () => {
    const { session } = await setup((ctx, next) => {
      if (ctx.method === 'sampling/createMessage' && ctx.params.maxTokens === 2) {
        ctx.params = { ...ctx.params, tools: [{ name: 't', inputSchema: { type: 'object' } }] };
      }
      return next();
    });
    const ask = (maxTokens: number) =>
      session.request('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
        maxTokens,
      });
    expect((await ask(1)).model).toBe('m');
    // Sampling with tools needs sampling.tools, which this client did not declare.
    await expect(ask(2)).rejects.toThrow(/sampling/);
  });
});
