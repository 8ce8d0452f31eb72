/**
 * A tool whose input schema checks asynchronously (a zod `refine(async …)`): the call waits for the
 * check, with and without a middleware around `tools/call`, and a middleware that changes the
 * arguments has them checked again, asynchronously too.
 */
import { McpClient } from '@mcpkit/client';
import { type CallToolResult, createInMemoryPair } from '@mcpkit/core';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

function makeServer() {
  const server = new McpServer({ name: 'async-input', version: '1.0.0' });
  // zod may call the refinement twice per parse (a synchronous try first), so the texts are a set.
  const checked = new Set<string>();
  const input = z.object({ text: z.string() }).refine(async ({ text }) => {
    checked.add(text);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return text !== 'forbidden';
  }, 'that text is forbidden');
  server.tool('echo', { inputSchema: input }, ({ text }) => `echo: ${text}`);
  return { server, checked };
}

async function connect(server: McpServer): Promise<McpClient> {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  const client = new McpClient({ name: 'async-input-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

describe('a tool with an asynchronous input check', () => {
  it('runs the handler once the check passes, and answers isError when it fails', async () => {
    const { server, checked } = makeServer();
    const client = await connect(server);
    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('echo: hi');
    const refused = await client.callTool('echo', { text: 'forbidden' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('that text is forbidden');
    expect([...checked]).toEqual(['hi', 'forbidden']);
    await client.close();
  });

  it('checks again, asynchronously, the arguments a middleware changed', async () => {
    const { server, checked } = makeServer();
    server.use('tools/call', async (ctx, next) => {
      if (ctx.params.arguments?.text === 'swap') {
        ctx.params = { ...ctx.params, arguments: { text: 'forbidden' } };
      }
      return next();
    });
    const client = await connect(server);
    expect(textOf(await client.callTool('echo', { text: 'kept' }))).toBe('echo: kept');
    const swapped = await client.callTool('echo', { text: 'swap' });
    expect(swapped.isError).toBe(true);
    expect(textOf(swapped)).toContain('that text is forbidden');
    expect([...checked]).toEqual(['kept', 'swap', 'forbidden']);
    await client.close();
  });
});
