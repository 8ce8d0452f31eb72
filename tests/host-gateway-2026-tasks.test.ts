/**
 * Questions inside a gateway task under 2026-07-28 (the tasks extension), with real parts: the
 * demo server over HTTP behind an in-process gateway, given a tool with task support that elicits,
 * samples and lists roots; in front, McpClient in its default era ('auto', which speaks 2026-07-28 and
 * declares the tasks extension) with elicitation, sampling and roots. The gateway answers the
 * call with a task of its own; the upstream's questions become that task's `inputRequests`, the
 * client answers them with `tasks/update`, and the answers reach the upstream, whose result comes
 * back. The same call from a 2025 client (a task it asks for) keeps working.
 */
import { callToolAndWait, McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { CreateMessageResult, ElicitResult } from '@mcpkit/core';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { serve } from '@mcpkit/node/http';
import { afterAll, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';

const closers: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** The demo server over HTTP with `interview`: a task tool that elicits, samples, then lists roots. */
async function interviewingUpstream() {
  const upstream = await demoHttp('live');
  closers.push(() => upstream.close());
  upstream.server.tool(
    'interview',
    { description: 'asks a name, then a model', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      const reply = await ctx.sample({
        messages: [
          { role: 'user', content: { type: 'text', text: `Greet ${String(answer.content?.name)}` } },
        ],
        maxTokens: 50,
      });
      const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
      const text = block?.type === 'text' ? block.text : '';
      const { roots } = await ctx.listRoots();
      return `name=${String(answer.content?.name)} model=${text} roots=${roots.map((root) => root.uri).join(',')}`;
    },
  );
  return upstream;
}

/** A client whose elicitations answer `name` and whose sampling greets, counting both. */
async function client(name: string, url: string, protocolEra?: '2025') {
  const asked = { elicit: 0, sample: 0 };
  const form = async (): Promise<ElicitResult> => {
    asked.elicit++;
    return { action: 'accept', content: { name } };
  };
  const sampling = async (): Promise<CreateMessageResult> => {
    asked.sample++;
    return { role: 'assistant', content: { type: 'text', text: `hi ${name}` }, model: 'test-model' };
  };
  const mcp = new McpClient(
    { name, version: '1.0.0' },
    {
      ...(protocolEra ? { protocolEra } : {}),
      elicitation: { form },
      sampling,
      roots: [{ uri: `file:///home/${name}`, name }],
      onError: () => {},
    },
  );
  await mcp.connect(new StreamableHttpClientTransport(new URL(url)));
  closers.push(() => mcp.close());
  return { mcp, asked };
}

const textOf = (result: { content?: unknown }) =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

describe('an upstream that asks inside a gateway task (tasks extension)', () => {
  for (const upstreams of ['perSession', 'shared'] as const) {
    it(`its elicitation, sampling and roots/list reach the 2026 client through tasks/update (upstreams: ${upstreams})`, async () => {
      const upstream = await interviewingUpstream();
      const gateway = createGateway({
        host: { servers: [upstream.entry], connector: nodeConnector() },
        upstreams,
        // The upstream's roots/list is the caller's, asked like its other questions.
        forwardRoots: true,
      });
      const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
      closers.push(async () => {
        await served.close();
        await gateway.close();
      });
      const { mcp, asked } = await client('ada', served.url);
      expect(mcp.era).toBe('2026');
      const seen: string[] = [];
      const result = await callToolAndWait(
        mcp,
        'interview',
        {},
        { onStatus: (task) => void seen.push(task.status) },
      );
      expect(textOf(result)).toBe('name=ada model=hi ada roots=file:///home/ada');
      expect(asked).toEqual({ elicit: 1, sample: 1 });
      // It was a task of the gateway's, which waited for the client's input.
      expect(seen).toContain('input_required');

      // The same host serves the next call, and a 2025 client's task through the same gateway still works.
      expect(textOf(await mcp.callTool('interview', {}))).toBe(
        'name=ada model=hi ada roots=file:///home/ada',
      );
      const old = await client('bob', served.url, '2025');
      expect(old.mcp.era).toBe('2025');
      expect(textOf(await callToolAndWait(old.mcp, 'interview', {}))).toBe(
        'name=bob model=hi bob roots=file:///home/bob',
      );
      expect(old.asked).toEqual({ elicit: 1, sample: 1 });
    }, 60_000);
  }
});
