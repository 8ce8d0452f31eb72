/**
 * The client's middleware (issue 21, section 1): the same `(ctx, next)` shape as the server's, on
 * the sending side (requests and notifications the client sends) and the receiving side (requests
 * and notifications the server sends). A real McpServer and McpClient over a serializing
 * in-memory pair.
 */
import { type ClientMiddlewareContext, McpClient } from '@mcpkit/client';
import {
  type CallToolResult,
  type CancelSource,
  createInMemoryPair,
  ErrorCode,
  McpError,
  RequestCancelledError,
} from '@mcpkit/core';
import { McpServer, type ServerSession } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// Tests that hear the server's session (its requests and notifications) or count what the client
// sends around `initialize` build their client with LEGACY: those are 2025-era exchanges.
const LEGACY = { protocolEra: '2025' } as const;

async function connect(client: McpClient) {
  const server = new McpServer({ name: 'mw', version: '1.0.0' }, { onError: () => {} });
  server.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  const sessions: ServerSession[] = [];
  server.onSessionInitialized((session) => sessions.push(session));
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  await client.connect(clientSide);
  await client.ping();
  return { server, session: sessions[0]! };
}

/** A cancellation source of its own, as a proxy that is not an MCP server might have. */
class ListenerSource implements CancelSource {
  stopped = false;
  stopReason: unknown;
  private readonly listeners = new Set<(reason: unknown) => void>();
  addCancelListener(listener: (reason: unknown) => void): void {
    this.listeners.add(listener);
  }
  removeCancelListener(listener: (reason: unknown) => void): void {
    this.listeners.delete(listener);
  }
  cancel(reason: unknown): void {
    this.stopped = true;
    this.stopReason = reason;
    for (const listener of this.listeners) listener(reason);
  }
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('client middleware: the sending side', () => {
  it('sees a signal for a request sent with cancelledBy, which cancels it with its source', async () => {
    const client = new McpClient({ name: 'c', version: '1' });
    let seen: AbortSignal | undefined;
    client.use(async (ctx, next) => {
      if (ctx.method === 'tools/call') seen = ctx.signal;
      return next();
    });
    const { server } = await connect(client);
    let serverSignal!: AbortSignal;
    server.tool('wait', {}, (_args, ctx) => {
      serverSignal = ctx.signal;
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped')));
    });
    const source = new ListenerSource(); // what a gateway passes: its own incoming request
    const call = client.callTool('wait', {}, { cancelledBy: source });
    await expect.poll(() => serverSignal).toBeDefined();
    expect(seen?.aborted).toBe(false);
    source.cancel('caller left');
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    expect(seen?.aborted).toBe(true);
    await expect.poll(() => serverSignal.aborted).toBe(true);
  });

  it('runs in order around what the client sends, and may change params and the result', async () => {
    const client = new McpClient({ name: 'c', version: '1' });
    const trace: string[] = [];
    client.use(async (ctx, next) => {
      if (ctx.method !== 'tools/call') return next();
      trace.push(`outer in ${ctx.direction}`);
      const result = (await next()) as CallToolResult;
      trace.push('outer out');
      return { ...result, content: [{ type: 'text', text: `${textOf(result)}!` }] };
    });
    client.use(async (ctx, next) => {
      if (ctx.method !== 'tools/call') return next();
      trace.push('inner in');
      ctx.params = { ...ctx.params, arguments: { text: 'changed' } };
      const result = await next();
      trace.push('inner out');
      return result;
    });
    await connect(client);
    const result = await client.request<CallToolResult>('tools/call', {
      name: 'echo',
      arguments: { text: 'x' },
    });
    expect(textOf(result)).toBe('changed!');
    expect(trace).toEqual(['outer in send', 'inner in', 'inner out', 'outer out']);
  });

  it('may answer a request itself without sending it, or refuse it by throwing', async () => {
    const client = new McpClient({ name: 'c', version: '1' }, LEGACY);
    const sent: string[] = [];
    client.use(async (ctx, next) => {
      if (ctx.direction !== 'send') return next();
      if (ctx.method === 'tools/list') return { tools: [] };
      if (ctx.method === 'prompts/list') throw new McpError(ErrorCode.InvalidRequest, 'not allowed here');
      sent.push(ctx.method);
      return next();
    });
    await connect(client);
    expect(await client.request('tools/list')).toEqual({ tools: [] });
    await expect(client.request('prompts/list')).rejects.toMatchObject({ code: ErrorCode.InvalidRequest });
    await client.notify('notifications/roots/list_changed');
    expect(sent).toEqual(['ping', 'notifications/roots/list_changed']);
  });
});

describe('client middleware: the receiving side', () => {
  it('sees the requests and notifications the server sends, before their handlers', async () => {
    const client = new McpClient({ name: 'c', version: '1' }, LEGACY);
    const received: ClientMiddlewareContext[] = [];
    const logged: unknown[] = [];
    client.onNotification('notifications/message', (params) => logged.push(params.data));
    client.use(async (ctx, next) => {
      if (ctx.direction === 'receive') received.push(ctx);
      if (ctx.method === 'notifications/message' && ctx.params.data === 'drop me') return undefined;
      return next();
    });
    const { session } = await connect(client);
    await session.ping();
    await session.notify('notifications/message', { level: 'info', data: 'drop me' });
    await session.notify('notifications/message', { level: 'info', data: 'keep me' });
    await client.ping();
    expect(received.map((ctx) => `${ctx.method}${ctx.isNotification ? ' (n)' : ''}`)).toEqual([
      'ping',
      'notifications/message (n)',
      'notifications/message (n)',
    ]);
    expect(received[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(received[0]!.protocolVersion).toBe('2025-11-25');
    expect(logged).toEqual(['keep me']);
  });

  it('an unknown method from the server is refused before the middleware, as without it', async () => {
    const client = new McpClient({ name: 'c', version: '1' }, LEGACY);
    const seen: string[] = [];
    client.use((ctx, next) => {
      seen.push(ctx.method);
      return next();
    });
    const { session } = await connect(client);
    await expect(session.request<unknown>('com.example/nothing', {})).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
    expect(seen).not.toContain('com.example/nothing');
  });
});
