/**
 * Where the middleware sits around `tools/call` (issue 21, section 1): after routing and argument
 * validation, before output validation. So an unknown tool and invalid arguments are answered
 * before any middleware runs, a middleware sees the validated arguments, a middleware that changes
 * the call has it checked again, and no middleware can make the server send structured content
 * that breaks the tool's outputSchema. A real McpServer and McpClient over an in-memory pair.
 */
import { McpClient } from '@mcpkit/client';
import { type CallToolResult, createInMemoryPair, McpError } from '@mcpkit/core';
import { McpServer, onCallTool } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

async function setup() {
  const errors: string[] = [];
  const server = new McpServer({ name: 'pos', version: '1.0.0' }, { onError: (e) => errors.push(e.message) });
  server.tool(
    'add',
    {
      inputSchema: z.object({ a: z.number(), b: z.number().default(10) }),
      outputSchema: z.object({ sum: z.number() }),
    },
    ({ a, b }) => ({ sum: a + b }),
  );
  server.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  const seen: Record<string, unknown>[] = [];
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  // The client's own structuredContent check is off: this test looks at what the server sends.
  const client = new McpClient({ name: 'c', version: '1' }, { validateStructuredContent: false });
  await client.connect(clientSide);
  return { server, client, seen, errors };
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('server middleware: its place around tools/call', () => {
  it('an unknown tool and invalid arguments are answered before any middleware runs', async () => {
    const { server, client, seen } = await setup();
    server.use(
      onCallTool((call, next) => {
        seen.push({ name: call.name });
        return next();
      }),
    );
    await expect(client.callTool('nope', {})).rejects.toThrow('Unknown tool: "nope"');
    const invalid = await client.callTool('add', { a: 'one' });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('Invalid arguments for tool "add"');
    expect(seen).toEqual([]);
  });

  it('a middleware sees the validated arguments (defaults applied)', async () => {
    const { server, client, seen } = await setup();
    server.use(
      onCallTool((call, next) => {
        seen.push(call.arguments);
        return next();
      }),
    );
    const result = await client.callTool('add', { a: 1 });
    expect(result.structuredContent).toEqual({ sum: 11 });
    expect(seen).toEqual([{ a: 1, b: 10 }]);
  });

  it('arguments a middleware changes are validated again before the handler', async () => {
    const { server, client } = await setup();
    server.use(
      onCallTool((call, next) => {
        call.arguments = call.arguments.a === 0 ? { a: 'zero' } : { a: Number(call.arguments.a) * 2 };
        return next();
      }),
    );
    expect((await client.callTool('add', { a: 2 })).structuredContent).toEqual({ sum: 14 });
    const refused = await client.callTool('add', { a: 0 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('Invalid arguments for tool "add"');
  });

  it('a middleware that renames the call has it routed again', async () => {
    const { server, client } = await setup();
    server.use(
      onCallTool((call, next) => {
        if (call.name === 'echo' && call.arguments.text === 'ghost') call.name = 'ghost';
        return next();
      }),
    );
    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
    await expect(client.callTool('echo', { text: 'ghost' })).rejects.toThrow('Unknown tool: "ghost"');
  });

  it('output validation runs after the middleware: it cannot send invalid structured content', async () => {
    const { server, client, errors } = await setup();
    server.use(
      onCallTool(async (_call, next) => {
        const result = (await next()) as CallToolResult;
        return { ...result, structuredContent: { sum: 'not a number' } };
      }),
    );
    const result = await client.callTool('add', { a: 1, b: 2 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('does not match its outputSchema');
    expect(errors).toEqual(['Tool "add" returned structured content that does not match its outputSchema']);
  });

  it('a middleware that keeps the output valid may change it', async () => {
    const { server, client } = await setup();
    server.use(
      onCallTool(async (_call, next) => {
        const result = (await next()) as CallToolResult;
        return { ...result, structuredContent: { sum: 42 } };
      }),
    );
    expect((await client.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 42 });
  });

  it('a guard refusal behind validation reaches the peer as it is; an unexpected error is masked', async () => {
    const { server, client, errors } = await setup();
    server.use(
      onCallTool((call) => {
        if (call.arguments.text === 'refuse') throw new McpError(-32029, 'Slow down', { retryAfterMs: 5 });
        throw new Error('internal detail');
      }),
    );
    await expect(client.callTool('echo', { text: 'refuse' })).rejects.toMatchObject({
      code: -32029,
      data: { retryAfterMs: 5 },
    });
    const masked = await client.callTool('echo', { text: 'boom' });
    expect(masked.isError).toBe(true);
    expect(textOf(masked)).toBe('Tool "echo" failed with an internal error.');
    expect(errors).toEqual(['internal detail']);
  });
});
