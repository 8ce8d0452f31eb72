/**
 * Issue 16: product bugs a client that picks 2026-07-28 (`protocolEra: 'auto'`) hit against
 * mcpkit's own server, found by running the suite with 'auto' as the client default. Each test
 * pins the era it needs; the 2025 behaviour of the same code is covered by the original tests.
 */
import { McpClient, type McpClientOptions } from '@mcpkit/client';
import {
  CapabilityError,
  combineObservers,
  createInMemoryPair,
  LocalError,
  McpError,
  MissingRequiredClientCapabilityError,
  RequestTimeoutError,
} from '@mcpkit/core';
import { createPrometheusMetrics } from '@mcpkit/node/metrics';
import { McpServer, Server } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoServer } from '../packages/cli/src/index.js';

const servers: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function connectDemo(options: McpClientOptions, stateless = false): Promise<McpClient> {
  const server = createDemoServer({ clockIntervalMs: 0, stateless });
  servers.push(server);
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  const client = new McpClient({ name: 'era-test', version: '1.0.0' }, { protocolEra: 'auto', ...options });
  await client.connect(clientSide);
  expect(client.protocolVersion).toBe('2026-07-28');
  return client;
}

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? `[${block.type}]`).join('\n');
}

describe('the demo server under 2026-07-28 reads the request scope, not the session', () => {
  it('samples and lists roots of a client that declared them in its envelope', async () => {
    const client = await connectDemo({
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'tiny' }),
      roots: [{ uri: 'file:///work', name: 'work' }],
    });
    expect(textOf(await client.callTool('summarize', { text: 'A long story' }))).toBe(
      'Short.\n\n(summarized by tiny)',
    );
    expect(textOf(await client.callTool('list_roots', {}))).toBe(
      'The client shares 1 root:\n- work: file:///work',
    );
  });

  it('explains a missing sampling capability as under 2025, not as a failed sample', async () => {
    const client = await connectDemo({});
    const sampled = await client.callTool('summarize', { text: 'x' });
    expect(sampled.isError).toBe(true);
    expect(textOf(sampled)).toContain('did not declare the sampling capability');
    expect(textOf(await client.callTool('list_roots', {}))).toContain('pass --root DIR');
  });

  it('asks for a URL visit in an input round; without URL mode it answers -32021 naming elicitation.url', async () => {
    const completed: string[] = [];
    const client = await connectDemo({ elicitation: { url: () => ({ action: 'accept' }) } });
    client.onElicitationComplete((id) => completed.push(id));
    expect(textOf(await client.callTool('connect_account', { service: 'mail' }))).toBe(
      'Connected your mail account (simulated).',
    );
    expect(completed).toEqual(['demo-mail']);

    const formOnly = await connectDemo({ elicitation: { form: () => ({ action: 'decline' }) } });
    const refused = await formOnly.callTool('connect_account', {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).toJSON()).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  it('stateless mode asks the client in input rounds instead of refusing', async () => {
    const client = await connectDemo({ roots: [{ uri: 'file:///work', name: 'work' }] }, true);
    expect(textOf(await client.callTool('list_roots', {}))).toBe(
      'The client shares 1 root:\n- work: file:///work',
    );
  });
});

describe('asking the client where 2026-07-28 has no input rounds', () => {
  it('is a local CapabilityError (-32603 to the peer), not -32021, even without the capability', async () => {
    const errors: Error[] = [];
    const server = new Server(
      { name: 'raw', version: '1.0.0' },
      { capabilities: { tools: {} }, onError: (e) => errors.push(e) },
    );
    servers.push(server);
    server.setRequestHandler('tools/list', async (_params, ctx) => {
      await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
      return { tools: [] };
    });
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await client.connect(clientSide);
    const refused = await client.request('tools/list').catch((error: unknown) => error);
    expect(refused).not.toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect((refused as McpError).toJSON()).toEqual({ code: -32603, message: 'Internal error' });
    expect(errors.some((e) => e instanceof CapabilityError && /tools\/list/.test(e.message))).toBe(true);
  });
});

describe("the client's answers to an input round are bounded by the call's timeout", () => {
  it('a sampling handler that never settles fails the call with RequestTimeoutError and is aborted', async () => {
    let aborted: unknown;
    const client = await connectDemo({
      requestTimeout: 50,
      sampling: (_params, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = ctx.signal.reason;
            reject(ctx.signal.reason);
          });
        }),
    });
    const failed = await client.callTool('summarize', { text: 'x' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RequestTimeoutError);
    expect((failed as RequestTimeoutError).method).toBe('tools/call');
    expect(aborted).toBe(failed);
  });
});

describe('observers see the revision of each 2026-07-28 request, not the unnegotiated session', () => {
  it("labels the server's operations with 2026-07-28 (the session reports its preferred 2025 revision)", async () => {
    const metrics = createPrometheusMetrics();
    const versions: Array<string | undefined> = [];
    const server = new McpServer(
      { name: 'observed', version: '1.0.0' },
      {
        observer: combineObservers(metrics.observer, {
          requestStarted: (request) => versions.push(request.protocolVersion),
        }),
      },
    );
    servers.push(server);
    server.tool('echo', () => 'hi');
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await client.connect(clientSide);
    await client.callTool('echo', {});
    expect(versions.length).toBeGreaterThan(0);
    expect(new Set(versions)).toEqual(new Set(['2026-07-28']));
    const echo = (await metrics.text())
      .split('\n')
      .filter(
        (line) => line.startsWith('mcp_server_operation_duration_seconds_count{') && line.includes('echo'),
      );
    expect(echo).toHaveLength(1);
    expect(echo[0]).toContain('mcp_protocol_version="2026-07-28"');
  });
});

describe('the default era: 2026-07-28 first, unless the client says otherwise', () => {
  async function connectTo(options: McpClientOptions): Promise<McpClient> {
    const server = new McpServer({ name: 'both-eras', version: '1.0.0' });
    servers.push(server);
    server.tool('echo', () => 'hi');
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const client = new McpClient({ name: 'c', version: '1' }, options);
    await client.connect(clientSide);
    return client;
  }

  it('speaks 2026-07-28 by default; listed initialize revisions or protocolEra "2025" keep initialize', async () => {
    const plain = await connectTo({});
    expect([plain.era, plain.protocolVersion]).toEqual(['2026', '2026-07-28']);
    const listed = await connectTo({ protocolVersions: ['2025-06-18'] });
    expect([listed.era, listed.protocolVersion]).toEqual(['2025', '2025-06-18']);
    const pinned = await connectTo({ protocolEra: '2025' });
    expect([pinned.era, pinned.protocolVersion]).toEqual(['2025', '2025-11-25']);
    const both = await connectTo({ protocolEra: 'auto', protocolVersions: ['2025-06-18'] });
    expect(both.era).toBe('2026');
  });
});

describe('a client handler that throws while answering an input request (no error form in 2026-07-28)', () => {
  function askingServer(): McpServer {
    const server = new McpServer({ name: 'asks', version: '1.0.0' });
    servers.push(server);
    const prompt = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }] };
    server.tool('sample', async (_args, ctx) => {
      await ctx.sample({ ...prompt, maxTokens: 5 });
      return 'done';
    });
    server.tool('elicit', async (_args, ctx) => {
      await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
      return 'done';
    });
    return server;
  }

  it('fails the call locally with a message that says why, the handler error as its cause', async () => {
    const server = askingServer();
    const refusal = new Error('the user said no');
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        sampling: () => {
          throw refusal;
        },
        elicitation: {
          form: () => {
            throw refusal;
          },
        },
      },
    );
    await client.connect(clientSide);
    expect(client.era).toBe('2026');
    const sampled = await client.callTool('sample', {}).catch((error: unknown) => error);
    expect(sampled).toBeInstanceOf(LocalError);
    expect(sampled).not.toBeInstanceOf(McpError);
    expect((sampled as LocalError).cause).toBe(refusal);
    expect((sampled as Error).message).toMatch(
      /"sampling\/createMessage" handler failed: the user said no\. 2026-07-28 has no way to send that error to the server/,
    );
    const elicited = await client.callTool('elicit', {}).catch((error: unknown) => error);
    expect((elicited as Error).message).toContain(`To refuse, answer { action: 'decline' }.`);
  });
});
