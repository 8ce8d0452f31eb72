/**
 * Issue 11 item 2: local errors stay local. A `LocalError` (our own request timed out, was
 * cancelled, the connection closed, the peer lacks a capability) that escapes a handler reaches
 * the peer only as `-32603 Internal error`, and reaches `onError` in full.
 */
import { Client } from '@mcpkit/client';
import {
  CapabilityError,
  type CreateMessageRequestParams,
  createInMemoryPair,
  LocalError,
  McpError,
  RequestTimeoutError,
} from '@mcpkit/core';
import { McpServer, promptSupport, type RequestContext, resourceSupport, Server } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';

const QUESTION: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }],
  maxTokens: 10,
};

/** Asks the client to sample with a 50 ms timeout; the test client never answers. */
const sampleWithTimeout = (ctx: RequestContext) => ctx.sample(QUESTION, { timeout: 50 });

function featureServer(errors: Error[]): McpServer {
  const server = new McpServer(
    { name: 'local-errors', version: '1.0.0' },
    { onError: (e) => errors.push(e), resources: resourceSupport, prompts: promptSupport },
  );
  server.prompt('ask', async (_args, ctx) => {
    await sampleWithTimeout(ctx);
    return 'never';
  });
  server.resource('test://ask', { name: 'ask' }, async (_uri, ctx) => {
    await sampleWithTimeout(ctx);
    return 'never';
  });
  server.prompt(
    'review',
    {
      arguments: [{ name: 'code' }],
      complete: {
        code: async (_value, _context, ctx) => {
          await sampleWithTimeout(ctx);
          return [];
        },
      },
    },
    () => 'review',
  );
  return server;
}

/**
 * A client that declares sampling and never answers it (so the server's request times out). On
 * '2025': the server's `ctx.sample({ timeout })` bounds a request in flight, which 2026-07-28 has not.
 */
async function connectSilentSampler(server: McpServer | Server) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  const client = new Client(
    { name: 'silent', version: '1.0.0' },
    { protocolEra: '2025', capabilities: { sampling: {} } },
  );
  client.setRequestHandler('sampling/createMessage', () => new Promise(() => {}));
  await client.connect(clientSide);
  return client;
}

async function wireError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected a wire error, got ${String(error)}`);
  return error;
}

const INTERNAL = { code: -32603, message: 'Internal error' };

describe('local errors are never sent to the peer (issue 11 item 2)', () => {
  it('a prompt handler whose ctx.sample times out answers -32603 and reports the RequestTimeoutError to onError', async () => {
    const errors: Error[] = [];
    const client = await connectSilentSampler(featureServer(errors));
    const error = await wireError(client.request('prompts/get', { name: 'ask' }));
    expect(error.toJSON()).toEqual(INTERNAL);
    expect(
      errors.some((e) => e instanceof RequestTimeoutError && e.method === 'sampling/createMessage'),
    ).toBe(true);
    await client.close();
  });

  it('a resource reader whose ctx.sample times out answers -32603 and reports the RequestTimeoutError to onError', async () => {
    const errors: Error[] = [];
    const client = await connectSilentSampler(featureServer(errors));
    const error = await wireError(client.request('resources/read', { uri: 'test://ask' }));
    expect(error.toJSON()).toEqual(INTERNAL);
    expect(errors.some((e) => e instanceof RequestTimeoutError)).toBe(true);
    await client.close();
  });

  it('a completer whose ctx.sample times out answers -32603 and reports the RequestTimeoutError to onError', async () => {
    const errors: Error[] = [];
    const client = await connectSilentSampler(featureServer(errors));
    const error = await wireError(
      client.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'review' },
        argument: { name: 'code', value: 'x' },
      }),
    );
    expect(error.toJSON()).toEqual(INTERNAL);
    expect(errors.some((e) => e instanceof RequestTimeoutError)).toBe(true);
    await client.close();
  });

  it('a raw handler that lets a CapabilityError escape answers -32603, not -32601, and reports it to onError', async () => {
    const errors: Error[] = [];
    const server = new Server(
      { name: 'raw', version: '1.0.0' },
      { capabilities: { tools: {} }, onError: (e) => errors.push(e) },
    );
    server.setRequestHandler('tools/list', async (_params, ctx) => {
      await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
      return { tools: [] };
    });
    server.setRequestHandler('tools/call', async (_params, ctx) => {
      await sampleWithTimeout(ctx);
      return { content: [] };
    });
    const client = await connectSilentSampler(server);
    // The client did not declare elicitation: the server refuses locally.
    const refused = await wireError(client.request('tools/list'));
    expect(refused.toJSON()).toEqual(INTERNAL);
    expect(errors.some((e) => e instanceof CapabilityError)).toBe(true);
    const timedOut = await wireError(client.request('tools/call', { name: 'x' }));
    expect(timedOut.toJSON()).toEqual(INTERNAL);
    expect(errors.some((e) => e instanceof RequestTimeoutError)).toBe(true);
    await client.close();
  });

  it('local failures are LocalErrors, not McpErrors, so they cannot be serialized by mistake', () => {
    for (const error of [
      new RequestTimeoutError('ping', 50, 'timeout'),
      new CapabilityError('no sampling'),
    ]) {
      expect(error).toBeInstanceOf(LocalError);
      expect(error).not.toBeInstanceOf(McpError);
      expect('toJSON' in error).toBe(false);
    }
  });
});
