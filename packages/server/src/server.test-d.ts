/**
 * Type-level tests of the typed low-level server API, checked by `tsc -p tsconfig.json` (the
 * repository typecheck). Each `@ts-expect-error` line must stay an error: a wrong params or result
 * shape for a method of the specification does not compile, while extension methods stay open.
 */
import type {
  CallToolRequestParams,
  CallToolResult,
  CreateMessageResult,
  CreateTaskResult,
  ListRootsResult,
  ProgressNotificationParams,
} from '@mcpkit/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { RequestContext } from './kernel/context.js';
import type { ServerSession } from './kernel/session.js';
import { Server } from './server.js';

const server = new Server({ name: 'types', version: '1.0.0' });

describe('Server.setRequestHandler', () => {
  it('infers params and checks results by method', () => {
    server.setRequestHandler('tools/call', (params, ctx) => {
      expectTypeOf(params).toEqualTypeOf<CallToolRequestParams>();
      expectTypeOf(ctx).toEqualTypeOf<RequestContext>();
      return { content: [{ type: 'text', text: params.name }] };
    });
    server.setRequestHandler('tools/list', async () => ({ tools: [] }));
    // @ts-expect-error tools/list answers { tools }, not a content block
    server.setRequestHandler('tools/list', () => ({ type: 'text', text: 'no' }));
    // @ts-expect-error tools/call params have no "uri"
    server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: params.uri }] }));
  });

  it('leaves extension methods untyped', () => {
    server.setRequestHandler('com.example/search', (params) => {
      expectTypeOf(params).toEqualTypeOf<Record<string, unknown>>();
      return { hits: [] };
    });
    const dynamic: string = 'com.example/other';
    server.setRequestHandler(dynamic, () => ({}));
  });
});

describe('Server.setNotificationHandler', () => {
  it('infers params by method', () => {
    server.setNotificationHandler('notifications/progress', (params, session) => {
      expectTypeOf(params).toEqualTypeOf<ProgressNotificationParams>();
      expectTypeOf(session).toEqualTypeOf<ServerSession>();
    });
    // @ts-expect-error progress params have no "level"
    server.setNotificationHandler('notifications/progress', (params) => params.level.length);
    server.setNotificationHandler('com.example/ping', (params) => {
      expectTypeOf(params).toEqualTypeOf<Record<string, unknown>>();
    });
  });
});

describe('ServerSession.request', () => {
  it('infers the result and checks the params by method', async () => {
    const session = {} as ServerSession;
    expectTypeOf(session.request('roots/list')).resolves.toEqualTypeOf<ListRootsResult>();
    expectTypeOf(
      session.request('sampling/createMessage', { messages: [], maxTokens: 10 }),
    ).resolves.toEqualTypeOf<CreateMessageResult | CreateTaskResult>();
    // @ts-expect-error sampling needs params
    void session.request('sampling/createMessage');
    // @ts-expect-error "maxTokens" must be a number
    void session.request('sampling/createMessage', { messages: [], maxTokens: 'ten' });
    expectTypeOf(session.request<{ ok: boolean }>('com.example/ask', {})).resolves.toEqualTypeOf<{
      ok: boolean;
    }>();
    expectTypeOf<ReturnType<typeof server.dispatch>>().toEqualTypeOf<unknown>();
    expectTypeOf<CallToolResult>().toMatchTypeOf<object>();
  });
});

describe('ServerSession.server (issue 30: the kernel types it by a port, users still see a Server)', () => {
  it('is a Server to the package user', () => {
    server.setRequestHandler('tools/list', (_params, ctx) => {
      expectTypeOf(ctx.session.server).toMatchTypeOf<Server>();
      ctx.session.server.broadcast('notifications/tools/list_changed');
      return { tools: [] };
    });
  });
});
