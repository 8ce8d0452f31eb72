/**
 * `@mcpkit/host/langchain` under a LangChain agent loop driven by LangChain's fake chat model
 * (`@langchain/core/utils/testing`) over real servers: server-everything, server-memory,
 * server-filesystem and the demo server (`mcpkit serve --stdio`). One conversation shows a name
 * collision resolved by namespacing, denied tools the model is never sent, a refused consent read
 * by the model as an error tool message, an image as a data block, a server killed and restarted
 * mid-conversation, and a server tool that samples, answered by the host's model after consent.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aiSdkSampling } from '@mcpkit/host/ai-sdk';
import { langChainTools, liveLangChainTools } from '@mcpkit/host/langchain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addShoutTool, fourServers, hostMaker, killAndRestart } from './fixtures/agentHosts.js';
import { fakeChatLoop, type StepView, toolMessages } from './fixtures/fakeChatLoop.js';
import { demoHttp, reference } from './fixtures/hostServers.js';
import { scriptedModel } from './fixtures/scriptedModel.js';

let dir = '';
const { host, closeAll } = hostMaker();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-langchain-'));
  await writeFile(path.join(dir, 'notes.txt'), 'Grace likes coffee.\n');
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the host under a LangChain agent (real servers)', () => {
  it('one conversation over four servers: collision, denial, consent, media, a restart and sampling', async () => {
    const samplingModel = scriptedModel([() => ({ text: 'Hello from the host model' })], 'host-small');
    const samplingAsked: string[] = [];
    const h = host({
      servers: fourServers(dir),
      policy: { files: { deny: ['write_file', 'edit_file'] } },
      ...aiSdkSampling({ models: { 'host-small': samplingModel } }),
      hooks: {
        toolCall: ({ tool }) => (tool === 'gzip-file-as-resource' ? 'deny' : 'session'),
        sampling: ({ server }) => {
          samplingAsked.push(server);
          return 'once';
        },
      },
    });
    const live = await liveLangChainTools(h);
    const views: StepView[] = [];
    const messages = await fakeChatLoop(
      () => live.ready(),
      [
        async (view) => {
          views.push(view);
          return [
            { name: 'everything__echo', args: { message: 'from everything' } },
            { name: 'demo__echo', args: { text: 'from demo' } },
            { name: 'get-tiny-image', args: {} },
            {
              name: 'create_entities',
              args: { entities: [{ name: 'Grace', entityType: 'person', observations: ['likes coffee'] }] },
            },
            { name: 'gzip-file-as-resource', args: { name: 'x.gz', data: 'https://example.com/' } },
          ];
        },
        async (view) => {
          views.push(view);
          await killAndRestart(h, 'memory', 'server-memory');
          return [
            { name: 'read_graph', args: {} },
            { name: 'read_text_file', args: { path: path.join(dir, 'notes.txt') } },
            { name: 'trigger-sampling-request', args: { prompt: 'Say hello', maxTokens: 40 } },
          ];
        },
        async (view) => {
          views.push(view);
          return 'Done.';
        },
      ],
      'Use every server once.',
    );
    live.close();
    expect(messages.at(-1)!.content).toBe('Done.');

    const offered = views[0]!.offered;
    expect(offered).toEqual(
      expect.arrayContaining(['everything__echo', 'demo__echo', 'read_graph', 'read_text_file']),
    );
    expect(offered).not.toContain('echo');
    expect(offered).not.toContain('write_file');
    expect(offered).not.toContain('edit_file');
    expect([...views[2]!.offered].sort()).toEqual([...offered].sort()); // the same names after the restart

    const results = toolMessages(messages);
    expect(results.get('everything__echo')!.content).toContain('from everything');
    expect(results.get('demo__echo')!.content).toContain('from demo');
    expect(results.get('get-tiny-image')!.content).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]),
    );
    expect(results.get('gzip-file-as-resource')).toMatchObject({ status: 'error' });
    expect(String(results.get('gzip-file-as-resource')!.content)).toContain('not run');
    expect(results.get('create_entities')!.artifact).toMatchObject({
      structuredContent: { entities: [{ name: 'Grace' }] },
    });
    expect(results.get('read_graph')!.content).toContain('likes coffee'); // written before the restart
    expect(results.get('read_text_file')!.content).toContain('Grace likes coffee.');
    expect(h.status().find((s) => s.server === 'memory')!.restarts).toBe(1);
    expect(results.get('trigger-sampling-request')!.content).toContain('Hello from the host model');
    expect(samplingAsked).toEqual(['everything']);
  });

  it('a call that cannot be routed is an error tool message; invoked with plain arguments it throws', async () => {
    const h = host({ servers: [reference('everything', 'server-everything')] });
    const tools = await langChainTools(h);
    const echo = tools.find((tool) => tool.name === 'echo')!;
    expect(await echo.invoke({ message: 'plain' })).toContain('plain');
    await h.close();
    const message = await echo.invoke({ id: 'c1', name: 'echo', args: { message: 'x' }, type: 'tool_call' });
    expect(message).toMatchObject({
      status: 'error',
      tool_call_id: 'c1',
      content: 'Server "everything" was shut down',
    });
    await expect(echo.invoke({ message: 'x' })).rejects.toThrow(/shut down/);
  });

  it('the live tools follow list_changed between two model calls', async () => {
    const http = await demoHttp('web');
    try {
      const h = host({ servers: [http.entry], policy: { web: { trusted: true } } });
      const live = await liveLangChainTools(h);
      const views: StepView[] = [];
      const messages = await fakeChatLoop(
        () => live.ready(),
        [
          async (view) => {
            views.push(view);
            await addShoutTool(h, http.server);
            return [{ name: 'echo', args: { text: 'hi' } }];
          },
          async (view) => {
            views.push(view);
            return [{ name: 'shout', args: { text: 'hi' } }];
          },
          async () => 'ok',
        ],
        'go',
      );
      live.close();
      expect(views[0]!.offered).not.toContain('shout');
      expect(views[1]!.offered).toContain('shout');
      expect(toolMessages(messages).get('shout')!.content).toContain('HI');
    } finally {
      await http.close();
    }
  });
});
