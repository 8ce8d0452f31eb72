/**
 * `@mcpkit/host/ai-sdk` under a real AI SDK agent loop (`generateText` with the SDK's own mock
 * model from `ai/test`) over real servers: server-everything, server-memory, server-filesystem
 * and the demo server (`mcpkit serve --stdio`). One conversation shows a name collision resolved
 * by namespacing, a denied tool the model never sees, consent asked through the host's hook, an
 * image and structured output read by the model, a server killed and restarted mid-conversation,
 * and a server tool that samples, answered by a second mock model after the user's consent.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolCallConsent } from '@mcpkit/host';
import { aiSdkSampling, aiSdkTools, liveAiSdkTools } from '@mcpkit/host/ai-sdk';
import { generateText, isStepCount } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addShoutTool, fourServers, hostMaker, killAndRestart } from './fixtures/agentHosts.js';
import { demoHttp, demoStdio, reference } from './fixtures/hostServers.js';
import { type CallOptions, offeredTools, scriptedModel, toolResults } from './fixtures/scriptedModel.js';

let dir = '';
const { host, closeAll } = hostMaker();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-agents-'));
  await writeFile(path.join(dir, 'notes.txt'), 'Ada likes tea.\n');
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the host under an AI SDK agent (real servers)', () => {
  it('one conversation over four servers: collision, denial, consent, media, a restart and sampling', async () => {
    const consents: ToolCallConsent[] = [];
    const samplingAsked: string[] = [];
    const seen: CallOptions[] = [];
    const samplingModel = scriptedModel([() => ({ text: 'Hello from the host model' })], 'host-small');
    const h = host({
      servers: fourServers(dir),
      policy: { files: { deny: ['write_file', 'edit_file'] } },
      ...aiSdkSampling({ models: { 'host-small': samplingModel } }),
      hooks: {
        toolCall: (request) => {
          consents.push(request);
          return request.tool === 'gzip-file-as-resource' ? 'deny' : 'session';
        },
        sampling: ({ server }) => {
          samplingAsked.push(server);
          return 'once';
        },
      },
    });
    const live = await liveAiSdkTools(h);
    const agent = scriptedModel([
      (options) => {
        seen.push(options);
        return {
          toolCalls: [
            { name: 'everything__echo', input: { message: 'from everything' } },
            { name: 'demo__echo', input: { text: 'from demo' } },
            { name: 'get-tiny-image', input: {} },
            {
              name: 'create_entities',
              input: { entities: [{ name: 'Ada', entityType: 'person', observations: ['likes tea'] }] },
            },
            { name: 'gzip-file-as-resource', input: { name: 'x.gz', data: 'https://example.com/' } },
          ],
        };
      },
      async (options) => {
        seen.push(options);
        // The memory server dies between two steps; the host restarts it.
        await killAndRestart(h, 'memory', 'server-memory');
        return {
          toolCalls: [
            { name: 'read_graph', input: {} },
            { name: 'read_text_file', input: { path: path.join(dir, 'notes.txt') } },
          ],
        };
      },
      (options) => {
        seen.push(options);
        return {
          toolCalls: [{ name: 'trigger-sampling-request', input: { prompt: 'Say hello', maxTokens: 50 } }],
        };
      },
      (options) => {
        seen.push(options);
        return { text: 'Done.' };
      },
    ]);

    const result = await generateText({
      model: agent,
      tools: live.tools,
      prepareStep: live.prepareStep,
      stopWhen: isStepCount(6),
      prompt: 'Use every server once.',
    });
    live.close();
    expect(result.text).toBe('Done.');

    // The collision: both servers' echo, namespaced; no bare `echo`. The denied tools never offered.
    const offered = offeredTools(seen[0]!);
    expect(offered).toEqual(
      expect.arrayContaining(['everything__echo', 'demo__echo', 'read_graph', 'read_text_file']),
    );
    expect(offered).not.toContain('echo');
    expect(offered).not.toContain('write_file');
    expect(offered).not.toContain('edit_file');
    // The same names after the restart (never dependent on start order or restarts).
    expect(offeredTools(seen[2]!)).toEqual(offered);

    const first = toolResults(seen[1]!);
    expect(first.get('everything__echo')).toContain('from everything');
    expect(first.get('demo__echo')).toContain('from demo');
    // The image reaches the model as a file part, not as JSON text.
    expect(first.get('get-tiny-image')).toMatch(/"type":"file".*"mediaType":"image\/png"/);
    expect(first.get('create_entities')).toContain('Ada');
    // Consent refused by the hook: a tool error the model reads, and the loop goes on.
    expect(first.get('gzip-file-as-resource')).toMatch(/"type":"error-text".*not run/);

    const second = toolResults(seen[2]!);
    expect(second.get('read_graph')).toContain('likes tea'); // written before the restart
    expect(second.get('read_text_file')).toContain('Ada likes tea.');
    expect(h.status().find((s) => s.server === 'memory')!.restarts).toBe(1);

    // The sampling tool: consent asked for `everything`, then the host's model answered it.
    const third = toolResults(seen[3]!);
    expect(third.get('trigger-sampling-request')).toContain('Hello from the host model');
    expect(samplingAsked).toEqual(['everything']);
    // Consent was asked only for the open-world tools, labelled with their server.
    expect(consents.map((c) => `${c.server}:${c.tool}`)).toEqual([
      'everything:gzip-file-as-resource',
      'everything:trigger-sampling-request',
    ]);
    const sampled = samplingModel.doGenerateCalls[0]!;
    expect(sampled.maxOutputTokens).toBe(50);
    expect(sampled.prompt[0]).toMatchObject({ role: 'system', content: 'You are a helpful test server.' });
    expect(JSON.stringify(sampled.prompt[1])).toContain('Say hello');
  });

  it('aiSdkTools is the catalogue now: the same names whatever the servers’ order, and a call routed with the abort signal', async () => {
    const h = host({ servers: [reference('everything', 'server-everything'), demoStdio('demo')] });
    const reversed = host({ servers: [demoStdio('demo'), reference('everything', 'server-everything')] });
    const tools = await aiSdkTools(h);
    const names = Object.keys(tools).sort();
    expect(names).toEqual((await h.tools()).map((tool) => tool.name).sort());
    expect(Object.keys(await aiSdkTools(reversed)).sort()).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'demo__echo']));
    const aborted = new AbortController();
    aborted.abort(new Error('the user stopped the agent'));
    const run = tools['trigger-long-running-operation']!.execute!(
      { duration: 5, steps: 5 },
      { toolCallId: 'c1', messages: [], abortSignal: aborted.signal, context: {} },
    );
    await expect(Promise.resolve(run)).rejects.toThrow(/stopped the agent/);
  });

  it('the live tool set follows list_changed between two steps of one loop', async () => {
    const http = await demoHttp('web');
    try {
      const h = host({ servers: [http.entry], policy: { web: { trusted: true } } });
      const live = await liveAiSdkTools(h);
      const seen: CallOptions[] = [];
      const agent = scriptedModel([
        async (options) => {
          seen.push(options);
          await addShoutTool(h, http.server);
          return { toolCalls: [{ name: 'echo', input: { text: 'hi' } }] };
        },
        (options) => {
          seen.push(options);
          return { toolCalls: [{ name: 'shout', input: { text: 'hi' } }] };
        },
        (options) => {
          seen.push(options);
          return { text: 'ok' };
        },
      ]);
      // The tool registered during step 1 is announced by list_changed; step 2 offers it.
      await generateText({
        model: agent,
        tools: live.tools,
        prepareStep: live.prepareStep,
        stopWhen: isStepCount(4),
        prompt: 'go',
      });
      expect(seen).toHaveLength(3);
      expect(offeredTools(seen[0]!)).not.toContain('shout');
      expect(offeredTools(seen[1]!)).toContain('shout');
      expect(toolResults(seen[2]!).get('shout')).toContain('HI');
      live.close();
    } finally {
      await http.close();
    }
  });
});
