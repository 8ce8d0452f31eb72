/**
 * Sampling through the host's model, with AI SDK models (`ai/test`'s mock) behind
 * `aiSdkSampling`: consent first, `modelPreferences` mapped to the host's model names (the default
 * chooser and one of the application's), tools in sampling (2025-11-25) both ways, the same
 * handler answering a 2026-07-28 input-required round, and elicitation reaching the application's
 * hook labelled with the server that asks.
 */
import type { CreateMessageResult } from '@mcpkit/core';
import { McpHost, type McpHostOptions, type ServerEntry } from '@mcpkit/host';
import { aiSdkSampling, aiSdkTools } from '@mcpkit/host/ai-sdk';
import { nodeConnector } from '@mcpkit/host/node';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';
import { scriptedModel } from './fixtures/scriptedModel.js';

const hosts: McpHost[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});

function host(options: Omit<McpHostOptions, 'connector'>): McpHost {
  const created = new McpHost({ connector: nodeConnector(), startBudgetMs: 120_000, ...options });
  hosts.push(created);
  return created;
}

function text(result: { content: unknown[] }): string {
  return (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

/**
 * An mcpkit server whose `plan` tool samples with a tool of its own: the model asks for the
 * weather (a `tool_use`), the server answers it (a `tool_result`) and samples again.
 */
async function plannerServer(): Promise<ServerEntry> {
  const server = new McpServer({ name: 'planner', version: '1.0.0' });
  server.tool(
    'plan',
    {
      description: 'Plans a picnic, asking the model (which may ask for the weather)',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (_args, ctx) => {
      const tools = [
        {
          name: 'get_weather',
          description: 'The weather in a city',
          inputSchema: {
            type: 'object' as const,
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
      ];
      const ask = {
        role: 'user' as const,
        content: { type: 'text' as const, text: 'Picnic in Paris tomorrow?' },
      };
      const first = await ctx.sample({
        messages: [ask],
        tools,
        toolChoice: { mode: 'required' },
        maxTokens: 120,
        stopSequences: ['END'],
        modelPreferences: { hints: [{ name: 'large' }] },
      });
      const blocks = Array.isArray(first.content) ? first.content : [first.content];
      const use = blocks.find((block) => block.type === 'tool_use');
      if (use?.type !== 'tool_use') return `no tool use: ${JSON.stringify(first)}`;
      const second: CreateMessageResult = await ctx.sample({
        messages: [
          ask,
          { role: 'assistant', content: use },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text: 'Sunny, 24°C' }] },
            ],
          },
        ],
        tools,
        maxTokens: 120,
      });
      return JSON.stringify({ first, second });
    },
  );
  const served = await serve(createStreamableHttpHandler(server), { port: 0, path: '/mcp' });
  closers.push(() => served.close());
  return {
    kind: 'url',
    name: 'planner',
    url: new URL(served.url),
    headers: {},
    transport: 'auto',
    disabled: false,
    autoApprove: [],
  };
}

describe('sampling through AI SDK models (real servers)', () => {
  it('tools in sampling: the model’s tool call becomes tool_use, and the server’s tool_result reaches the model', async () => {
    // The first request hints `large`; the second has no hint, so the default takes the first model.
    const small = scriptedModel([() => ({ text: 'Yes: sunny and 24°C.' })], 'small-model');
    const large = scriptedModel(
      [() => ({ toolCalls: [{ name: 'get_weather', input: { city: 'Paris' } }] })],
      'large-model',
    );
    const asked: string[] = [];
    const h = host({
      servers: [await plannerServer()],
      ...aiSdkSampling({ models: { 'host-small': small, 'host-large': large } }),
      hooks: {
        sampling: ({ server }) => {
          asked.push(server);
          return 'session';
        },
      },
    });
    const reply = JSON.parse(text(await h.callTool('plan')));
    expect(asked).toEqual(['planner']); // asked once: 'session' is remembered
    expect(reply.first).toMatchObject({
      role: 'assistant',
      stopReason: 'toolUse',
      model: 'large-model',
      content: { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
    });
    expect(reply.second).toMatchObject({
      stopReason: 'endTurn',
      model: 'small-model',
      content: { type: 'text', text: 'Yes: sunny and 24°C.' },
    });
    const [call1] = large.doGenerateCalls;
    const [call2] = small.doGenerateCalls;
    expect(call1!.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
    expect(call1!.toolChoice).toEqual({ type: 'required' });
    expect(call1!.maxOutputTokens).toBe(120);
    expect(call1!.stopSequences).toEqual(['END']);
    // The second request's history: the tool call, then its result as a tool message.
    expect(call2!.prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.stringify(call2!.prompt[2])).toContain('Sunny, 24°C');
  });

  it('a refused sampling request never reaches the model, and the server is told', async () => {
    const model = scriptedModel([], 'm');
    const h = host({
      servers: [await plannerServer()],
      policy: { planner: { trusted: true } },
      ...aiSdkSampling({ models: { m: model } }),
      hooks: { sampling: () => 'deny' },
    });
    const result = await h.callTool('plan');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/rejected/i);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a 2026-07-28 upstream: the input-required round is answered by the same handler, the model chosen by the application', async () => {
    const http = await demoHttp('web');
    closers.push(() => http.close());
    const fast = scriptedModel([() => ({ text: 'A short summary.' })], 'fast-model');
    const chooserSaw: unknown[] = [];
    const h = host({
      servers: [http.entry],
      protocolEra: '2026',
      policy: { web: { trusted: true } },
      ...aiSdkSampling({
        models: { 'claude-opus': scriptedModel([], 'opus'), 'gpt-fast': fast },
        // The demo asks for `claude` with speed first: this application prefers speed over the hint.
        chooseModel: ({ server, preferences, models }) => {
          chooserSaw.push({ server, preferences, models });
          return (preferences?.speedPriority ?? 0) > 0.5 ? 'gpt-fast' : models[0];
        },
      }),
      hooks: { sampling: () => 'once' },
    });
    expect((await h.client('web')).protocolVersion).toBe('2026-07-28');
    const tools = await aiSdkTools(h);
    const result = (await tools.summarize!.execute!(
      { text: 'A long text about tides and the moon.' },
      { toolCallId: 'c1', messages: [], context: {} },
    )) as { content: Array<{ text: string }> };
    expect(result.content[0]!.text).toContain('A short summary.');
    expect(result.content[0]!.text).toContain('fast-model');
    expect(chooserSaw).toEqual([
      {
        server: 'web',
        preferences: { hints: [{ name: 'claude' }], speedPriority: 0.8 },
        models: ['claude-opus', 'gpt-fast'],
      },
    ]);
    const call = fast.doGenerateCalls[0]!;
    expect(call.prompt[0]).toMatchObject({ role: 'system', content: 'You write short, faithful summaries.' });
    expect(call.maxOutputTokens).toBe(200);
  });

  it('elicitation from a server reaches the application’s hook labelled with that server', async () => {
    const http = await demoHttp('restaurants');
    closers.push(() => http.close());
    const seen: Array<{ server: string; mode: string }> = [];
    const h = host({
      servers: [http.entry],
      policy: { restaurants: { trusted: true } },
      hooks: {
        elicitation: ({ server, mode }) => {
          seen.push({ server, mode });
          return {
            action: 'accept',
            content: { name: 'Ada', guests: 2, date: '2026-12-01', seating: 'terrace' },
          };
        },
      },
    });
    const tools = await aiSdkTools(h);
    const result = (await tools.book_table!.execute!(
      {},
      { toolCallId: 'c1', messages: [], context: {} },
    )) as {
      content: Array<{ text: string }>;
    };
    expect(seen).toEqual([{ server: 'restaurants', mode: 'form' }]);
    expect(result.content[0]!.text).toContain('Ada');
  });
});
