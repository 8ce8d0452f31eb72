/**
 * The server's middleware pipeline (issue 21, section 1): order, what a middleware may do (pass
 * on, change params, change the result, short-circuit, throw), its context, the typed hooks,
 * per-session visibility, and how failures reach the peer. A real McpServer and McpClient over a
 * serializing in-memory pair.
 */
import { McpClient } from '@mcpkit/client';
import { type AuthInfo, type CallToolResult, createInMemoryPair, ErrorCode, McpError } from '@mcpkit/core';
import {
  hideTools,
  McpServer,
  onCallTool,
  onGetPrompt,
  onIncomingNotification,
  onInitialize,
  onList,
  onReadResource,
  promptSupport,
  type RequestContext,
  resourceSupport,
  type ServerMiddlewareContext,
} from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rejection } from './support/promises.js';

function makeServer() {
  const errors: Error[] = [];
  const server = new McpServer(
    { name: 'mw', version: '1.0.0' },
    { onError: (error) => errors.push(error), resources: resourceSupport, prompts: promptSupport },
  );
  server.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  server.tool('admin_reset', { description: 'Admins only' }, () => 'reset');
  server.resource('mem://a', { name: 'a', mimeType: 'text/plain' }, () => 'A');
  server.prompt('hello', { description: 'Says hello' }, () => 'hello');
  return { server, errors };
}

async function connect(server: McpServer, authInfo?: AuthInfo) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true, extra: authInfo && { authInfo } });
  server.connect(serverSide);
  // '2025': hooks under test see `initialize`, the session's revision and client notifications.
  const client = new McpClient({ name: 'mw-client', version: '1.0.0' }, { protocolEra: '2025' });
  await client.connect(clientSide);
  return client;
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

describe('server middleware: the pipeline', () => {
  it('runs the first added first on the way in and last on the way out', async () => {
    const { server } = makeServer();
    const trace: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      server.use(async (ctx, next) => {
        if (ctx.method !== 'tools/call') return next();
        trace.push(`${name} in`);
        const result = await next();
        trace.push(`${name} out`);
        return result;
      });
    }
    const client = await connect(server);
    await client.callTool('echo', { text: 'x' });
    expect(trace).toEqual(['a in', 'b in', 'c in', 'c out', 'b out', 'a out']);
  });

  it('may change the params, change the result and short-circuit', async () => {
    const { server } = makeServer();
    server.use('tools/call', async (ctx, next) => {
      if (ctx.params.arguments?.text === 'cached') return { content: [{ type: 'text', text: 'from cache' }] };
      ctx.params = { ...ctx.params, arguments: { text: 'changed' } };
      const result = await next();
      return {
        ...result,
        content: [...(result as CallToolResult).content, { type: 'text', text: 'appended' }],
      };
    });
    const client = await connect(server);
    const result = await client.callTool('echo', { text: 'original' });
    expect(result.content).toEqual([
      { type: 'text', text: 'changed' },
      { type: 'text', text: 'appended' },
    ]);
    expect(textOf(await client.callTool('echo', { text: 'cached' }))).toBe('from cache');
  });

  it('a deliberate McpError from a middleware reaches the peer with its code and data', async () => {
    const { server, errors } = makeServer();
    server.use(
      onCallTool(() => {
        throw new McpError(-32029, 'Slow down', { retryAfterMs: 250 });
      }),
    );
    const client = await connect(server);
    const error = await rejection(client.callTool('echo', { text: 'x' }));
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32029);
    expect(error.message).toContain('Slow down');
    expect(error.data).toEqual({ retryAfterMs: 250 });
    expect(errors).toEqual([]);
  });

  it("an unexpected error of a middleware around tools/call is masked like the tool's own and reported to onError", async () => {
    const { server, errors } = makeServer();
    server.use(
      onCallTool(() => {
        throw new Error('secret internals: db password is hunter2');
      }),
    );
    const client = await connect(server);
    const result = await client.callTool('echo', { text: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Tool "echo" failed with an internal error.');
    expect(errors.map((e) => e.message)).toEqual(['secret internals: db password is hunter2']);
  });

  it('an unexpected error of a middleware around another method is answered -32603 with no internals', async () => {
    const { server, errors } = makeServer();
    server.use('tools/list', () => {
      throw new Error('secret internals');
    });
    const client = await connect(server);
    const error = await rejection(client.listTools());
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).not.toContain('secret');
    expect(errors.map((e) => e.message)).toEqual(['secret internals']);
  });

  it('use() without a middleware function throws a TypeError at once, not on the first request', () => {
    const { server } = makeServer();
    expect(() => server.use('tools/list', undefined as never)).toThrow(TypeError);
    expect(() => server.use(undefined as never)).toThrow(TypeError);
  });

  it('an unknown method is refused before the middleware (routing comes first)', async () => {
    const { server } = makeServer();
    const seen: string[] = [];
    server.use((ctx, next) => {
      seen.push(ctx.method);
      return next();
    });
    const client = await connect(server);
    const error = await rejection(client.request<unknown>('com.example/nothing', {}));
    expect(error.code).toBe(ErrorCode.MethodNotFound);
    expect(seen).not.toContain('com.example/nothing');
  });

  it('the dispatch stays synchronous without middleware and through pass-throughs; a promise only when a layer makes one', async () => {
    const { server } = makeServer();
    let inner: unknown;
    server.setRequestHandler('com.example/probe', (_params, ctx: RequestContext) => {
      inner = server.dispatch('ping', {}, ctx);
      return {};
    });
    const client = await connect(server);
    await client.request<unknown>('com.example/probe', {});
    expect(inner).toEqual({});
    server.use((_ctx, next) => next());
    server.use((_ctx, next) => next());
    await client.request<unknown>('com.example/probe', {});
    expect(inner).toEqual({});
    server.use(async (_ctx, next) => next());
    await client.request<unknown>('com.example/probe', {});
    expect(inner).toBeInstanceOf(Promise);
    await expect(inner).resolves.toEqual({});
  });
});

describe('server middleware: the context', () => {
  it('holds the method, params, principal, revision, signal and a per-request store', async () => {
    const { server } = makeServer();
    const authInfo: AuthInfo = { token: 't', clientId: 'alice', scopes: ['read'] };
    let seen: ServerMiddlewareContext | undefined;
    server.use(async (ctx, next) => {
      ctx.store.set('who', ctx.authInfo?.clientId);
      return next();
    });
    server.use('tools/call', async (ctx, next) => {
      seen = ctx;
      expect(ctx.store.get('who')).toBe('alice');
      return next();
    });
    const client = await connect(server, authInfo);
    await client.callTool('echo', { text: 'x' });
    expect(seen?.method).toBe('tools/call');
    expect(seen?.params).toMatchObject({ name: 'echo', arguments: { text: 'x' } });
    expect(seen?.authInfo).toEqual(authInfo);
    expect(seen?.protocolVersion).toBe('2025-11-25');
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(seen?.sessionId).toBeUndefined();
    expect(seen?.headers).toBeUndefined();
    expect(seen?.isNotification).toBe(false);
  });
});

describe('server middleware: typed hooks', () => {
  it('onCallTool sees the tool name and arguments and may change them', async () => {
    const { server } = makeServer();
    const calls: string[] = [];
    server.use(
      onCallTool((call, next) => {
        calls.push(`${call.name}:${JSON.stringify(call.arguments)}`);
        call.arguments = { text: String(call.arguments.text).toUpperCase() };
        return next();
      }),
    );
    const client = await connect(server);
    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('HI');
    expect(calls).toEqual(['echo:{"text":"hi"}']);
  });

  it('onReadResource, onGetPrompt, onList and onInitialize see their methods only', async () => {
    const { server } = makeServer();
    const seen: string[] = [];
    server.use(
      onInitialize((ctx, next) => {
        seen.push(`initialize ${ctx.params.clientInfo.name}`);
        return next();
      }),
    );
    server.use(
      onReadResource((uri, _ctx, next) => {
        seen.push(`read ${uri}`);
        return next();
      }),
    );
    server.use(
      onGetPrompt((name, _args, _ctx, next) => {
        seen.push(`prompt ${name}`);
        return next();
      }),
    );
    server.use(
      onList((ctx, next) => {
        seen.push(`list ${ctx.method}`);
        return next();
      }),
    );
    const client = await connect(server);
    await client.listTools();
    await client.readResource('mem://a');
    await client.getPrompt('hello');
    await client.listPrompts();
    await client.request<CallToolResult>('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(seen).toEqual([
      'initialize mw-client',
      'list tools/list',
      'read mem://a',
      'prompt hello',
      'list prompts/list',
    ]);
  });

  it('onIncomingNotification sees notifications and may drop them before their listeners', async () => {
    const { server } = makeServer();
    const listened: string[] = [];
    const passed: string[] = [];
    server.onNotification('notifications/roots/list_changed', () => listened.push('roots'));
    let drop = true;
    server.use(
      onIncomingNotification((ctx, next) => {
        passed.push(ctx.method);
        return drop ? undefined : next();
      }),
    );
    const client = await connect(server);
    await client.notify('notifications/roots/list_changed');
    await client.ping();
    drop = false;
    await client.notify('notifications/roots/list_changed');
    await client.ping();
    expect(passed).toEqual(['notifications/roots/list_changed', 'notifications/roots/list_changed']);
    expect(listened).toEqual(['roots']);
  });
});

describe('server middleware: visibility per session', () => {
  const adminsOnly = hideTools(
    (name, ctx) => !name.startsWith('admin_') || ctx.authInfo?.scopes?.includes('admin') === true,
  );

  it('a hidden tool is left out of tools/list for that session only', async () => {
    const { server } = makeServer();
    server.use(adminsOnly);
    const user = await connect(server, { token: 'u', clientId: 'user', scopes: [] });
    const admin = await connect(server, { token: 'a', clientId: 'admin', scopes: ['admin'] });
    expect((await user.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
    expect((await admin.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'admin_reset']);
    expect(textOf(await admin.callTool('admin_reset', {}))).toBe('reset');
  });

  it('a call to a hidden tool is refused exactly like a call to an unknown tool', async () => {
    const { server } = makeServer();
    server.use(adminsOnly);
    const user = await connect(server, { token: 'u', clientId: 'user', scopes: [] });
    const hidden = await rejection(
      user.request<unknown>('tools/call', { name: 'admin_reset', arguments: {} }),
    );
    const unknown = await rejection(
      user.request<unknown>('tools/call', { name: 'admin_rese', arguments: {} }),
    );
    expect(hidden).toBeInstanceOf(McpError);
    expect({
      code: hidden.code,
      message: hidden.message.replace('admin_reset', 'NAME'),
      data: hidden.data,
    }).toEqual({
      code: unknown.code,
      message: unknown.message.replace('admin_rese', 'NAME'),
      data: unknown.data,
    });
    expect(hidden.code).toBe(ErrorCode.InvalidParams);
  });

  it('a hidden tool is refused as unknown even with invalid arguments (argument validation cannot reveal it)', async () => {
    const { server } = makeServer();
    server.use(adminsOnly);
    const user = await connect(server, { token: 'u', clientId: 'user', scopes: [] });
    const error = await rejection(
      user.request<unknown>('tools/call', { name: 'admin_reset', arguments: { not: 'allowed' } }),
    );
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain('Unknown tool: "admin_reset"');
    const admin = await connect(server, { token: 'a', clientId: 'admin', scopes: ['admin'] });
    const invalid = await admin.request<CallToolResult>('tools/call', {
      name: 'admin_reset',
      arguments: { not: 'allowed' },
    });
    expect(invalid.isError).toBe(true);
  });
});
