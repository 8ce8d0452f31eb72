/**
 * Type-level tests of the typed low-level client API, checked by `tsc -p tsconfig.json` (the
 * repository typecheck). Each `@ts-expect-error` line must stay an error.
 */
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateTaskResult,
  ListToolsResult,
  LoggingMessageNotificationParams,
  ProtocolVersion,
} from '@mcpkit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { Client } from './client.js';
import type { ClientRequestContext } from './context.js';
import { McpClient } from './mcpClient.js';

const client = new Client({ name: 'types', version: '1.0.0' });

describe('Client.request', () => {
  it('infers the result and checks the params by method', () => {
    expectTypeOf(client.request('tools/list')).resolves.toEqualTypeOf<ListToolsResult>();
    expectTypeOf(
      client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }),
    ).resolves.toEqualTypeOf<CallToolResult | CreateTaskResult>();
    // @ts-expect-error tools/call needs a "name"
    void client.request('tools/call', { arguments: {} });
    // @ts-expect-error "verbose" is not a logging level
    void client.request('logging/setLevel', { level: 'verbose' });
  });

  it('leaves extension methods untyped, and an explicit result type opts out of the check', () => {
    expectTypeOf(client.request('com.example/search', { q: 'x' })).resolves.toEqualTypeOf<
      Record<string, unknown>
    >();
    expectTypeOf(client.request<unknown>('logging/setLevel', { level: 'verbose' })).resolves.toBeUnknown();
  });
});

describe('Client.setRequestHandler and onNotification', () => {
  it('infers params and checks results by method', () => {
    client.setRequestHandler('sampling/createMessage', (params, request) => {
      expectTypeOf(params).toEqualTypeOf<CreateMessageRequestParams>();
      expectTypeOf(request).toEqualTypeOf<ClientRequestContext>();
      return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    });
    // @ts-expect-error roots/list answers { roots }
    client.setRequestHandler('roots/list', () => ({ files: [] }));
    client.onNotification('notifications/message', (params) => {
      expectTypeOf(params).toEqualTypeOf<LoggingMessageNotificationParams>();
    });
    // @ts-expect-error log params have no "uri"
    client.onNotification('notifications/message', (params) => params.uri);
    client.onNotification('com.example/event', (params) => {
      expectTypeOf(params).toEqualTypeOf<Record<string, unknown>>();
    });
  });
});

describe('client handler context', () => {
  it('gives every client handler a ClientRequestContext, as the server gives a RequestContext', () => {
    client.setRequestHandler('roots/list', (_params, ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<ClientRequestContext>();
      expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
      expectTypeOf(ctx.progress(1, 2)).toEqualTypeOf<Promise<void>>();
      expectTypeOf(ctx.protocolVersion).toEqualTypeOf<ProtocolVersion | '2026-07-28' | undefined>();
      return { roots: [] };
    });
    client.setRequestHandler('com.example/ask', (params, ctx) => {
      expectTypeOf(params).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(ctx).toEqualTypeOf<ClientRequestContext>();
      return {};
    });
    new McpClient(
      { name: 'types', version: '1.0.0' },
      {
        sampling: (_params, ctx) => {
          expectTypeOf(ctx).toEqualTypeOf<ClientRequestContext>();
          return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
        },
        elicitation: {
          form: (_params, ctx) => {
            expectTypeOf(ctx).toEqualTypeOf<ClientRequestContext>();
            return { action: 'decline' };
          },
        },
      },
    );
  });
});
