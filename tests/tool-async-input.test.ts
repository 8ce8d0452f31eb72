/**
 * A tool whose input schema checks asynchronously (a zod `refine(async …)`): the call waits for the
 * check, with and without a middleware around `tools/call`, and a middleware that changes the
 * arguments has them checked again, asynchronously too.
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { McpServer, type ServerMethodMiddleware } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A server with the tool (and `middleware` around `tools/call`), and a client connected to it. */
async function setUp(middleware?: ServerMethodMiddleware<'tools/call'>) {
  const server = new McpServer({ name: 'async-input', version: '1.0.0' });
  // zod may call the refinement twice per parse (a synchronous try first), so the texts are a set.
  const checked = new Set<string>();
  const input = z.object({ text: z.string() }).refine(async ({ text }) => {
    checked.add(text);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return text !== 'forbidden';
  }, 'that text is forbidden');
  server.tool('echo', { inputSchema: input }, ({ text }) => `echo: ${text}`);
  if (middleware) server.use('tools/call', middleware);
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  const client = new McpClient({ name: 'async-input-client', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, checked };
}

const forbidden = {
  isError: true,
  content: [{ type: 'text', text: expect.stringContaining('that text is forbidden') }],
};

describe('a tool with an asynchronous input check', () => {
  it('runs the handler once the check passes, and answers isError when it fails', async () => {
    const { client, checked } = await setUp();
    expect(await client.callTool('echo', { text: 'hi' })).toMatchObject({
      content: [{ type: 'text', text: 'echo: hi' }],
    });
    expect(await client.callTool('echo', { text: 'forbidden' })).toMatchObject(forbidden);
    expect([...checked]).toEqual(['hi', 'forbidden']);
    await client.close();
  });

  it('checks again, asynchronously, the arguments a middleware changed', async () => {
    const { client, checked } = await setUp(async (ctx, next) => {
      if (ctx.params.arguments?.text === 'swap') {
        ctx.params = { ...ctx.params, arguments: { text: 'forbidden' } };
      }
      return next();
    });
    expect(await client.callTool('echo', { text: 'kept' })).toMatchObject({
      content: [{ type: 'text', text: 'echo: kept' }],
    });
    expect(await client.callTool('echo', { text: 'swap' })).toMatchObject(forbidden);
    expect([...checked]).toEqual(['kept', 'swap', 'forbidden']);
    await client.close();
  });
});
