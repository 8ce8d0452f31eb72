/**
 * Revision 2026-07-28 at the gateway's front, with real parts: `mcpkit gateway --http` as a
 * process over the demo server (2025-11-25, stdio) and the reference everything server, driven by
 * McpClient with `protocolEra: '2026'` and by the official SDK v2 client pinned to 2026-07-28. A
 * tool whose upstream elicits is answered through input-required rounds at the gateway while the
 * upstream call waits; two 2026 clients at once (on an in-process gateway with two hosts for
 * 2026 requests) each answer only their own questions.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { ElicitResult } from '@mcpkit/core';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { serve } from '@mcpkit/node/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp, demoStdio } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { CLI, exited, printedUrl, twoServerConfig } from './support/gatewayProcess.js';
import { servedAsUsers } from './support/principalFront.js';

let dir = '';
let url = '';
/** What the gateway process wrote on stderr, shown when the SDK run fails. */
let gatewayStderr = '';
let child: ChildProcess;
const clients: McpClient[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  let config: string;
  ({ dir, config } = await twoServerConfig('mcpkit-gateway-2026-'));
  child = spawn(process.execPath, [...CLI, 'gateway', '--config', config, '--http', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    gatewayStderr += chunk.toString('utf8');
  });
  url = await printedUrl(child);
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const close of closers) await close().catch(() => undefined);
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited(child);
  }
  await rm(dir, { recursive: true, force: true });
});

/** A 2026 client whose form elicitations are answered with `name`, counting them. */
async function modernClient(
  name: string,
  at: string = url,
): Promise<{ client: McpClient; asked: () => number }> {
  let asked = 0;
  const form = async (): Promise<ElicitResult> => {
    asked++;
    return { action: 'accept', content: { name, date: '2026-12-01', guests: 2 } };
  };
  const client = new McpClient(
    { name, version: '1.0.0' },
    { protocolEra: '2026', elicitation: { form }, onError: () => {} },
  );
  await client.connect(new StreamableHttpClientTransport(new URL(at)));
  clients.push(client);
  return { client, asked: () => asked };
}

/** Serves `options` as an in-process gateway over HTTP, closed (with `upstream`) after the file. */
async function servedGateway(
  options: Parameters<typeof createGateway>[0],
  upstream?: { close(): Promise<void> },
): Promise<{ gateway: McpGateway; url: string }> {
  const gateway = createGateway(options);
  const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
  closers.push(async () => {
    await served.close();
    await gateway.close();
    await upstream?.close();
  });
  return { gateway, url: served.url };
}

const textOf = (result: { content?: unknown }) =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

describe('a 2026-07-28 client through `mcpkit gateway --http`', () => {
  it('McpClient lists and calls tools of both upstreams', async () => {
    const { client } = await modernClient('lister');
    expect(client.protocolVersion).toBe('2026-07-28');
    const names = (await client.tools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['demo__echo', 'everything__echo', 'book_table']));
    expect(textOf(await client.callTool('demo__echo', { text: 'modern' }))).toBe('modern');
    expect(textOf(await client.callTool('everything__echo', { message: 'modern' }))).toContain('modern');
  });

  it('a tool whose 2025 stdio upstream elicits is answered through input-required rounds', async () => {
    const { client, asked } = await modernClient('zoe');
    const result = await client.callTool('book_table', {});
    expect(textOf(result)).toContain('for zoe, 2 guest(s) on 2026-12-01');
    expect(asked()).toBe(1);
  });

  it("a 2025 upstream's sampling request is answered through an input-required round too", async () => {
    let sampled = 0;
    const client = new McpClient(
      { name: 'sampler', version: '1.0.0' },
      {
        protocolEra: '2026',
        sampling: async () => {
          sampled++;
          return {
            role: 'assistant',
            content: { type: 'text', text: 'Tides follow the moon.' },
            model: 'test-model',
          };
        },
        onError: () => {},
      },
    );
    await client.connect(new StreamableHttpClientTransport(new URL(url)));
    clients.push(client);
    const result = await client.callTool('summarize', { text: 'A long text about tides and the moon.' });
    expect(textOf(result)).toContain('Tides follow the moon.');
    expect(sampled).toBe(1);
  });

  it('two 2026 clients at once: 20 of 20 elicitations reach the client whose call caused them', async () => {
    // In process, with two hosts for 20 concurrent calls: the others wait for a free one.
    const gateway = createGateway({
      host: { servers: [demoStdio('demo')], connector: nodeConnector() },
      upstreams: 'perSession', // the 2026 front's pool (shared upstreams: host-gateway-lanes.test.ts)
      modern: { maxHosts: 2 },
    });
    const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
    closers.push(async () => {
      await served.close();
      await gateway.close();
    });
    const [alice, bob] = [await modernClient('alice', served.url), await modernClient('bob', served.url)];
    const book = (who: typeof alice) =>
      Promise.all(Array.from({ length: 10 }, () => who.client.callTool('book_table', {})));
    const [forAlice, forBob] = await Promise.all([book(alice), book(bob)]);
    expect(forAlice.map(textOf).filter((text) => text.includes('for alice,'))).toHaveLength(10);
    expect(forBob.map(textOf).filter((text) => text.includes('for bob,'))).toHaveLength(10);
    expect([alice.asked(), bob.asked()]).toEqual([10, 10]);
    expect(gateway.hosts()).toHaveLength(2);
  }, 120_000);

  it('the official SDK v2 client pinned to 2026-07-28 lists, calls, and answers an elicitation', async () => {
    const script = new URL('./fixtures/sdkV2GatewayClient.mjs', import.meta.url).pathname;
    const out = await new Promise<Record<string, any>>((resolve, reject) => {
      execFile(process.execPath, [script, url], { timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}\ngateway: ${gatewayStderr.slice(-2000)}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
      });
    });
    expect(out).toMatchObject({ era: 'modern', version: '2026-07-28' });
    expect(out.tools).toEqual(expect.arrayContaining(['demo__echo', 'everything__echo', 'book_table']));
    expect(out.echo).toBe('through the gateway');
    expect(out.booked).toContain('for Grace, 3 guest(s) on 2026-12-24');
    expect(out.asked).toHaveLength(1);
  }, 90_000);
});

describe('a 2026-07-28 upstream over HTTP behind the gateway (`protocolEra: "2026"`)', () => {
  it('its elicitation reaches a 2026 McpClient and a 2025 SDK client alike', async () => {
    const upstream = await demoHttp('live');
    const gateway = createGateway({
      host: { servers: [upstream.entry], connector: nodeConnector(), protocolEra: '2026' },
    });
    const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
    closers.push(async () => {
      await served.close();
      await gateway.close();
      await upstream.close();
    });
    const modern = await modernClient('maya', served.url);
    expect(textOf(await modern.client.callTool('book_table', {}))).toContain('for maya, 2 guest(s)');
    const sdk = new Client(
      { name: 'sdk', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    sdk.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'sid', date: '2026-12-02', guests: 4 },
    }));
    await sdk.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    closers.push(() => sdk.close());
    const booked = (await sdk.callTool({ name: 'book_table', arguments: {} })) as { content?: unknown };
    expect(textOf(booked)).toContain('for sid, 4 guest(s)');
    // Both went through the one shared host (its questions name their call: no lane), whose
    // client speaks 2026-07-28 to the upstream.
    const eras = await Promise.all(
      gateway.hosts().map(async (host) => (await host.client('live')).protocolVersion),
    );
    expect(eras).toEqual(['2026-07-28']);
  }, 60_000);
});

describe('hosts for 2026 requests are never shared between principals', () => {
  it('a second identity gets a host of its own; with a pool of one, the first one is closed for it', async () => {
    const gateway = createGateway({
      host: { servers: [demoStdio('demo')], connector: nodeConnector() },
      upstreams: 'perSession',
      modern: { maxHosts: 1 },
    });
    // The front verifies nothing: it names the caller from a header, as protect() would from a token.
    const served = await servedAsUsers(gateway);
    closers.push(async () => {
      await served.close();
      await gateway.close();
    });
    const as = async (user: string) => {
      const client = new McpClient(
        { name: user, version: '1.0.0' },
        { protocolEra: '2026', onError: () => {} },
      );
      await client.connect(
        new StreamableHttpClientTransport(new URL(served.url), { headers: { 'x-user': user } }),
      );
      clients.push(client);
      return client;
    };
    const ada = await as('ada');
    expect(textOf(await ada.callTool('echo', { text: 'a' }))).toBe('a');
    const [adaHost] = gateway.hosts();
    expect(textOf(await ada.callTool('echo', { text: 'a2' }))).toBe('a2');
    expect(gateway.hosts()).toEqual([adaHost]); // the same principal reuses its host
    const bob = await as('bob');
    expect(textOf(await bob.callTool('echo', { text: 'b' }))).toBe('b');
    const [bobHost] = gateway.hosts();
    expect(bobHost).not.toBe(adaHost);
    await eventually(() => adaHost!.status()[0]!.state === 'stopped', "ada's host closed, not handed over");
  }, 60_000);
});

describe('cancellation of a 2026 request', () => {
  for (const upstreams of ['perSession', 'shared'] as const) {
    it(`cancels the upstream call, and the host serves the next request (upstreams: ${upstreams})`, async () => {
      const upstream = await demoHttp('live');
      let started = 0;
      let aborted = 0;
      upstream.server.tool('wait_for_cancel', { description: 'runs until cancelled' }, async (_args, ctx) => {
        started++;
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        aborted++;
        return 'cancelled';
      });
      const { url } = await servedGateway(
        {
          host: { servers: [upstream.entry], connector: nodeConnector() },
          modern: { maxHosts: 1 },
          upstreams,
        },
        upstream,
      );
      const { client } = await modernClient('quitter', url);
      const controller = new AbortController();
      const call = client.callTool('wait_for_cancel', {}, { signal: controller.signal });
      await eventually(() => started === 1, 'the upstream call');
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      await eventually(() => aborted === 1, 'the upstream cancellation');
      expect(textOf(await client.callTool('echo', { text: 'next' }))).toBe('next');
    }, 60_000);
  }
});

describe('a 2026 request waiting for a host of the pool', () => {
  it('gives up its place when cancelled: the host goes to the next request, not to it', async () => {
    const upstream = await demoHttp('live');
    let release: (() => void) | undefined;
    upstream.server.tool('hold', { description: 'runs until released' }, async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 'released';
    });
    // The gateway's own view of its requests: the cancelled one must reach it, and end there.
    const started: string[] = [];
    const finished: string[] = [];
    const { url } = await servedGateway(
      {
        host: { servers: [upstream.entry], connector: nodeConnector() },
        upstreams: 'perSession',
        modern: { maxHosts: 1 },
        observer: {
          requestStarted: (request) => void started.push(request.method),
          requestFinished: (request) => void finished.push(request.method),
        },
      },
      upstream,
    );
    const { client } = await modernClient('waiter', url);
    const holding = client.callTool('hold', {});
    await eventually(() => release !== undefined, 'the call holding the one host');
    const controller = new AbortController();
    const waiting = client.callTool('echo', { text: 'gave up' }, { signal: controller.signal });
    await eventually(() => started.filter((m) => m === 'tools/call').length === 2, 'the waiting request');
    controller.abort('changed my mind');
    await expect(waiting).rejects.toThrow();
    await eventually(() => finished.includes('tools/call'), 'the gateway to end the cancelled request');
    const next = client.callTool('echo', { text: 'next' });
    release!();
    expect(textOf(await holding)).toBe('released');
    expect(textOf(await next)).toBe('next');
    // Only `next` reached the upstream: the cancelled request did not take the host when it was freed.
    expect(upstream.calls.filter((name) => name === 'echo')).toEqual(['echo']);
  }, 60_000);
});

describe('a shared gateway runs 2026 requests at once', () => {
  it("an upstream's question while two requests are in flight on it reaches the one it is about (Streamable HTTP names it), never guessed", async () => {
    const upstream = await demoHttp('live');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = 0;
    upstream.server.tool('hold', { description: 'waits until the test lets go' }, async () => {
      holding++;
      await held;
      return 'let go';
    });
    closers.push(async () => release());
    const { url } = await servedGateway(
      // No lanes: every call on the one shared connection.
      { host: { servers: [upstream.entry], connector: nodeConnector() }, upstreams: 'shared', lanes: 0 },
      upstream,
    );
    const { client, asked } = await modernClient('both', url);
    const holder = client.callTool('hold', {});
    await eventually(() => holding === 1, 'the first call upstream');
    // The question comes on the booking call's own response stream: the gateway knows whose it is
    // (before issue 29 it was refused here; an upstream that names no call still is, see
    // host-gateway.test.ts and host-gateway-lanes.test.ts).
    const booking = await client.callTool('book_table', {}).then(textOf, (error: Error) => error.message);
    expect(booking).toContain('for both,');
    expect(asked()).toBe(1);
    release();
    expect(textOf(await holder)).toBe('let go');
  }, 60_000);
});

describe('a 2026 call whose upstream asks, then reports progress', () => {
  for (const upstreams of ['perSession', 'shared'] as const) {
    it(`progress from after the answer reaches the client (upstreams: ${upstreams})`, async () => {
      const upstream = await demoHttp('live');
      upstream.server.tool('staged', { description: 'asks, then works in steps' }, async (_args, ctx) => {
        await ctx.progress(1, 3, 'before the question');
        const answer = await ctx.elicit({
          mode: 'form',
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        await ctx.progress(2, 3, 'after the answer');
        await ctx.progress(3, 3, 'done');
        return `hello ${String(answer.content?.name)}`;
      });
      const { gateway, url } = await servedGateway(
        { host: { servers: [upstream.entry], connector: nodeConnector() }, upstreams },
        upstream,
      );
      const { client, asked } = await modernClient('stager', url);
      const messages: string[] = [];
      const result = await client.callTool(
        'staged',
        {},
        { onProgress: (p) => void messages.push(p.message ?? '') },
      );
      expect(textOf(result)).toBe('hello stager');
      expect(asked()).toBe(1);
      // Progress is a notification: the last may land just after the result.
      await eventually(() => messages.includes('done'), 'the last progress');
      expect(messages).toEqual(['before the question', 'after the answer', 'done']);
      // No pool, and no lane: the HTTP upstream's question names its call on the shared connection.
      if (upstreams === 'shared') expect(gateway.hosts()).toHaveLength(1);
    }, 60_000);
  }
});
