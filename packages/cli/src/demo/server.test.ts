import { McpClient, type McpClientOptions } from '@mcpkit/client';
import { createInMemoryPair, UrlElicitationRequiredError } from '@mcpkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoServer } from './server.js';

const servers: Array<ReturnType<typeof createDemoServer>> = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function connect(options: McpClientOptions = {}, clockIntervalMs = 0): Promise<McpClient> {
  const server = createDemoServer({ clockIntervalMs });
  servers.push(server);
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  const client = new McpClient({ name: 'demo-test', version: '1.0.0' }, options);
  await client.connect(clientSide);
  return client;
}

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? `[${block.type}]`).join('\n');
}

describe('the demo server', () => {
  it('tells subscribers when demo://clock changes', async () => {
    const client = await connect({}, 20);
    const updated = new Promise<string>((resolve) => client.onResourceUpdated(resolve));
    await client.subscribeResource('demo://clock');
    expect(await updated).toBe('demo://clock');
    const { contents } = await client.readResource('demo://clock');
    expect(Date.parse((contents[0] as { text: string }).text)).not.toBeNaN();
  });

  it('books a table with the answers of a form elicitation', async () => {
    const client = await connect({
      elicitation: {
        form: (params) => {
          expect(Object.keys(params.requestedSchema.properties)).toEqual([
            'name',
            'guests',
            'date',
            'seating',
            'diet',
            'reminder',
          ]);
          return { action: 'accept', content: { name: 'Ada', date: '2025-12-01', diet: ['vegan'] } };
        },
      },
    });
    // Defaults the user did not change are filled in by the client (guests 2, indoor, reminder).
    expect(textOf(await client.callTool('book_table', {}))).toBe(
      'Booked Chez mcpkit for Ada, 2 guest(s) on 2025-12-01, indoor, dietary needs: vegan. Reminder: yes.',
    );
  });

  it('asks for a URL visit, and completes it; without URL mode it answers -32042 (2025-11-25)', async () => {
    const completed: string[] = [];
    const client = await connect({ elicitation: { url: () => ({ action: 'accept' }) } });
    client.onElicitationComplete((id) => completed.push(id));
    expect(textOf(await client.callTool('connect_account', { service: 'mail' }))).toBe(
      'Connected your mail account (simulated).',
    );
    expect(completed).toHaveLength(1);

    const decline = () => ({ action: 'decline' as const });
    // -32042 exists in 2025-11-25 only: that client is pinned to the 2025 era.
    const formOnly = await connect({ protocolEra: '2025', elicitation: { form: decline } });
    const refused = await formOnly.callTool('connect_account', {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    expect((refused as UrlElicitationRequiredError).elicitations[0]?.url).toMatch(
      /^https:\/\/example\.com\/mcpkit-demo\/connect\/calendar\?elicitation=/,
    );
    // 2026-07-28 says -32021 naming elicitation.url instead: tests/era-2026-default-client.test.ts.
  });

  it('samples through the client, and lists its roots', async () => {
    const client = await connect({
      sampling: (params) => {
        expect(params.maxTokens).toBe(200);
        return { role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'tiny' };
      },
      roots: [{ uri: 'file:///work', name: 'work' }],
    });
    expect(textOf(await client.callTool('summarize', { text: 'A long story' }))).toBe(
      'Short.\n\n(summarized by tiny)',
    );
    expect(textOf(await client.callTool('list_roots', {}))).toBe(
      'The client shares 1 root:\n- work: file:///work',
    );
  });

  it('explains what a client without sampling or roots is missing', async () => {
    const client = await connect();
    const sampled = await client.callTool('summarize', { text: 'x' });
    expect(sampled.isError).toBe(true);
    expect(textOf(sampled)).toContain('did not declare the sampling capability');
    expect(textOf(await client.callTool('list_roots', {}))).toContain('pass --root DIR');
  });

  it('reports progress of slow_count and stops when cancelled', async () => {
    const client = await connect();
    const progress: number[] = [];
    const result = await client.callTool(
      'slow_count',
      { steps: 3, delayMs: 10 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(textOf(result)).toBe('Counted to 3.');
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const pending = client.callTool('slow_count', { steps: 100, delayMs: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort('enough'), 50);
    await expect(pending).rejects.toThrow(/cancelled/);
  });

  it('completes template variables using the variables already chosen', async () => {
    const client = await connect();
    const ref = { type: 'ref/resource' as const, uri: 'demo://items/{category}/{id}' };
    const ids = await client.complete({
      ref,
      argument: { name: 'id', value: 'c' },
      context: { arguments: { category: 'fruit' } },
    });
    expect(ids.completion.values).toEqual(['cherry']);
    const everywhere = await client.complete({ ref, argument: { name: 'id', value: 'c' } });
    expect(everywhere.completion.values).toEqual(['cherry', 'carrot', 'comte']);
  });

  it('serves the tally app: a view linked to show_tally, and tally_add for the view only', async () => {
    const ui = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
    const host = await connect({ capabilities: ui });
    const tools = new Map((await host.tools()).map((tool) => [tool.name, tool]));
    expect(tools.get('show_tally')?._meta?.ui).toEqual({ resourceUri: 'ui://demo/tally' });
    expect(tools.get('tally_add')?._meta?.ui).toEqual({
      resourceUri: 'ui://demo/tally',
      visibility: ['app'],
    });
    const { contents } = await host.readResource('ui://demo/tally');
    expect(contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
    expect((contents[0] as { text: string }).text).toContain("name: 'tally_add'");
    await host.callTool('tally_add', {});
    expect((await host.callTool('tally_add', {})).structuredContent).toEqual({ count: 2 });
    const plain = await connect();
    expect((await plain.tools()).some((tool) => tool.name === 'tally_add')).toBe(false);
    expect(textOf(await plain.callTool('show_tally', {}))).toBe('The tally is 0.');
  });
});
