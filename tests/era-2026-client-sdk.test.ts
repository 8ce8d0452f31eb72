/**
 * mcpkit's McpClient against the official SDK v2 server (`@modelcontextprotocol/server` 2.4),
 * which serves 2026-07-28 and 2025-11-25 from one factory, over HTTP (`createMcpHandler`) and
 * stdio (`serveStdio`), in both eras: the client speaks 2026-07-28 when left to choose
 * (`protocolEra: 'auto'`) and 2025-11-25 when pinned to `'2025'`. The same public
 * calls work in both, including a tool that needs two rounds of input (elicitation, then sampling
 * and roots at once), which 2026-07-28 carries as input-required results and 2025-11-25 as
 * server-to-client requests.
 */
import { McpClient, type McpClientOptions } from '@mcpkit/client';
import { connectHttp, StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { Transport } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkV2HttpServer, startSdkV2Http } from './fixtures/sdkV2Http.js';
import { eventually } from './support/eventually.js';
import { runCliInProcess } from './support/inProcessCli.js';
import { fixtureCommand } from './support/tsFixture.js';

interface Asked {
  elicitations: number;
  samplings: number;
  roots: number;
}

function interviewingClient(asked: Asked, era: '2026' | '2025' | 'auto'): McpClient {
  const options: McpClientOptions = {
    protocolEra: era,
    elicitation: {
      form: () => {
        asked.elicitations++;
        return { action: 'accept', content: { ok: true } };
      },
    },
    sampling: () => {
      asked.samplings++;
      return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'test-model' };
    },
    roots: () => {
      asked.roots++;
      return [{ uri: 'file:///work', name: 'work' }];
    },
  };
  return new McpClient({ name: 'era-client-test', version: '1.0.0' }, options);
}

function textOf(result: { content: unknown[] }): string {
  const first = result.content[0] as { type: string; text?: string };
  return first.type === 'text' ? (first.text ?? '') : '';
}

let http: SdkV2HttpServer;
beforeAll(async () => {
  http = await startSdkV2Http();
});
afterAll(async () => {
  await http?.close();
});

const transports: Record<string, () => Transport> = {
  http: () => new StreamableHttpClientTransport(http.url),
  stdio: () => new StdioClientTransport(fixtureCommand('sdk-v2-server.ts')),
};

const eras = [
  { era: 'auto', expected: '2026', version: '2026-07-28' },
  { era: '2025', expected: '2025', version: '2025-11-25' },
] as const;

describe.each(Object.keys(transports))('McpClient → SDK v2 server over %s', (mode) => {
  describe.each(eras)('protocolEra $era', ({ era, expected, version }) => {
    const asked: Asked = { elicitations: 0, samplings: 0, roots: 0 };
    let client: McpClient;

    beforeAll(async () => {
      client = interviewingClient(asked, era);
      const result = await client.connect(transports[mode]!());
      expect(result.serverInfo.name).toBe('sdk-v2-fixture');
    });
    afterAll(async () => {
      await client?.close();
    });

    it(`speaks ${version}`, () => {
      expect(client.era).toBe(expected);
      expect(client.protocolVersion).toBe(version);
      expect(client.instructions).toBe('SDK v2 fixture');
      expect(client.serverCapabilities?.tools).toBeDefined();
    });

    it('lists and calls tools, reads a resource, gets a prompt', async () => {
      const names = (await client.tools()).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'interview']));
      expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
      const read = await client.readResource('fixture://hello');
      expect(read.contents[0]).toMatchObject({ text: 'hello from sdk v2' });
      const prompt = await client.getPrompt('greet', { name: 'Ada' });
      expect(prompt.messages[0]?.content).toMatchObject({ text: 'Hello, Ada' });
    });

    // SDK v2's stateless legacy fallback on HTTP has no channel for server-to-client requests:
    // its own answer says so (a limit of that server, not of the client).
    const noLegacyRequests = mode === 'http' && expected === '2025';

    it('answers two rounds of input with its own handlers (elicitation, then sampling and roots)', async () => {
      const result = await client.callTool('interview', { topic: 'mcp' });
      if (noLegacyRequests) {
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(
          'per-request legacy serving cannot receive server-to-client requests',
        );
        expect(asked).toEqual({ elicitations: 0, samplings: 0, roots: 0 });
        return;
      }
      expect(textOf(result)).toBe('confirmed=true model=forty-two roots=file:///work');
      expect(asked).toEqual({ elicitations: 1, samplings: 1, roots: 1 });
    });

    it('sets a log level: kept for the envelope under 2026, refused for a server without logging under 2025', async () => {
      if (expected === '2026') await expect(client.setLoggingLevel('info')).resolves.toBeUndefined();
      else
        await expect(client.setLoggingLevel('info')).rejects.toThrow(
          /did not declare the "logging" capability/,
        );
    });
  });
});

describe('what goes over HTTP under 2026-07-28', () => {
  it('every POST carries the envelope and the request metadata headers, no session', async () => {
    const client = interviewingClient({ elicitations: 0, samplings: 0, roots: 0 }, '2026');
    await client.connect(new StreamableHttpClientTransport(http.url));
    const first = http.posts.length;
    await client.setLoggingLevel('warning');
    await client.callTool('echo', { text: 'hi' });
    await client.readResource('fixture://hello');
    await client.close();
    const posts = http.posts.slice(first);
    // A plain result (no structuredContent) makes the client list no tools of its own.
    expect(posts.map((post) => post.body.method)).toEqual(['tools/call', 'resources/read']);
    for (const post of posts) {
      const meta = (post.body.params as { _meta: Record<string, unknown> })._meta;
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(meta['io.modelcontextprotocol/clientInfo']).toEqual({
        name: 'era-client-test',
        version: '1.0.0',
      });
      expect(meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({ sampling: {}, roots: {} });
      expect(meta['io.modelcontextprotocol/logLevel']).toBe('warning');
      expect(post.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(post.headers['mcp-method']).toBe(post.body.method);
      expect(post.headers['mcp-session-id']).toBeUndefined();
    }
    expect(posts[0]?.headers['mcp-name']).toBe('echo');
    expect(posts[1]?.headers['mcp-name']).toBe('fixture://hello');
  });
});

describe('connectHttp against the SDK v2 server', () => {
  it('settles on Streamable HTTP under 2026-07-28, without initialize', async () => {
    const client = new McpClient({ name: 'era-client-test', version: '1.0.0' }, { protocolEra: 'auto' });
    const transport = await connectHttp(client, http.url);
    try {
      expect(client.era).toBe('2026');
      expect(transport.kind).toBe('streamable-http');
      expect(transport.sessionId).toBeUndefined();
      expect(textOf(await client.callTool('echo', { text: 'auto' }))).toBe('auto');
    } finally {
      await client.close();
    }
  });
});

describe('the CLI, unchanged, against the SDK v2 server', () => {
  it('mcpkit info shows the 2026 era, and calls a tool as before', async () => {
    const info = await runCliInProcess(['info', '--era', 'auto', http.url]);
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(/^Protocol\s+2026-07-28$/m);
    expect(info.stdout).toMatch(/^Era\s+2026 \(per-request metadata, no session\)$/m);
    const call = await runCliInProcess(['call', '--era', 'auto', http.url, 'echo', 'text=from-cli']);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('from-cli');
  });
});

describe('subscriptions/listen against the SDK v2 server (stdio, 2026-07-28)', () => {
  it('list_changed and resources/updated reach listeners through one listen stream', async () => {
    const client = interviewingClient({ elicitations: 0, samplings: 0, roots: 0 }, '2026');
    const changed: string[] = [];
    client.onListChanged('tools', () => changed.push('tools'));
    client.onResourceUpdated((uri) => changed.push(uri));
    await client.connect(transports.stdio!());
    try {
      expect(client.era).toBe('2026');
      await client.subscribeResource('fixture://hello');
      const before = (await client.tools()).length;
      await eventually(async () => {
        await client.callTool('poke');
        expect(changed).toContain('tools');
        expect(changed).toContain('fixture://hello');
      });
      expect((await client.tools()).length).toBe(before); // the cache was dropped and reloaded
    } finally {
      await client.close();
    }
  });
});
