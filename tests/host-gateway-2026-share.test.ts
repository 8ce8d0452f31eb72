/**
 * The 2026 pool of a per-session gateway (the default) lets a principal's requests that can be
 * asked nothing (their client declared no elicitation, sampling or forwarded roots) run together
 * on one host, at once; a request that could be asked keeps a host to itself, and two principals
 * never share one. Real parts: the demo server over HTTP as the upstream (so each host of the
 * pool is one upstream session, seen by the upstream's tools), the gateway in process over HTTP,
 * McpClient on 2026-07-28.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { ElicitResult } from '@mcpkit/core';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { servedAsUsers } from './support/principalFront.js';

const clients: McpClient[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  for (const close of closers.splice(0)) await close().catch(() => undefined);
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
});

const textOf = (result: { content?: unknown }) =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

/**
 * The demo server over HTTP with `hold`: it records which upstream session (which host of the
 * gateway) runs each call for whom, and waits until the test lets go of every call.
 */
async function holdingUpstream() {
  const upstream = await demoHttp('live');
  const seen: Array<{ who: string; session: string }> = [];
  let running = 0;
  let most = 0;
  let letGo = () => {};
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  upstream.server.tool(
    'hold',
    {
      description: 'waits until the test lets go',
      inputSchema: { type: 'object', properties: { who: { type: 'string' } } },
    },
    async (args, ctx) => {
      seen.push({ who: String((args as { who?: unknown }).who), session: ctx.session.key });
      most = Math.max(most, ++running);
      await released;
      running--;
      return 'let go';
    },
  );
  upstream.server.tool(
    'whoami',
    { description: 'the upstream session it runs on' },
    (_args, ctx) => ctx.session.key,
  );
  closers.push(async () => {
    letGo();
    await upstream.close();
  });
  return {
    upstream,
    seen,
    running: () => running,
    most: () => most,
    letGo,
    sessionsOf: (who: string) => new Set(seen.filter((call) => call.who === who).map((call) => call.session)),
  };
}

/** A gateway in process over HTTP whose front names the caller from `x-user` (see principalFront.ts). */
async function gatewayFor(upstream: Awaited<ReturnType<typeof demoHttp>>, maxHosts?: number) {
  const gateway = createGateway({
    host: { servers: [upstream.entry], connector: nodeConnector() },
    upstreams: 'perSession', // the 2026 front's pool of hosts is what this file is about
    ...(maxHosts ? { modern: { maxHosts } } : {}),
  });
  const served = await servedAsUsers(gateway);
  closers.push(async () => {
    await served.close();
    await gateway.close();
  });
  return { gateway, url: served.url };
}

/** A 2026 client as `user`; with `name`, it answers form elicitations with that name and counts them. */
async function clientAs(url: string, user: string | undefined, name?: string) {
  let asked = 0;
  const form = async (): Promise<ElicitResult> => {
    asked++;
    return { action: 'accept', content: { name: name ?? '', date: '2026-12-01', guests: 2 } };
  };
  const client = new McpClient(
    { name: user ?? 'anonymous', version: '1.0.0' },
    { protocolEra: '2026', ...(name ? { elicitation: { form } } : {}), onError: () => {} },
  );
  const headers: Record<string, string> = user ? { 'x-user': user } : {};
  await client.connect(new StreamableHttpClientTransport(new URL(url), { headers }));
  clients.push(client);
  return { client, asked: () => asked };
}

describe('2026 requests that can be asked nothing share a host of the pool', () => {
  it('six calls at once of one client run together on one host, one upstream session', async () => {
    const hold = await holdingUpstream();
    const { gateway, url } = await gatewayFor(hold.upstream);
    const { client } = await clientAs(url, undefined);
    const calls = Array.from({ length: 6 }, () => client.callTool('hold', { who: 'anon' }));
    await eventually(() => hold.running() === 6, 'six calls running upstream at once');
    expect(gateway.hosts()).toHaveLength(1);
    expect(hold.sessionsOf('anon').size).toBe(1);
    hold.letGo();
    expect((await Promise.all(calls)).map(textOf)).toEqual(Array(6).fill('let go'));
    // The host went back to the pool, and serves the next request.
    expect(textOf(await client.callTool('echo', { text: 'next' }))).toBe('next');
    expect(gateway.hosts()).toHaveLength(1);
  }, 60_000);

  it("an upstream's question to such requests is refused with the spec's error, never sent", async () => {
    const hold = await holdingUpstream();
    const { url } = await gatewayFor(hold.upstream);
    const { client } = await clientAs(url, undefined);
    const holders = [client.callTool('hold', { who: 'anon' }), client.callTool('hold', { who: 'anon' })];
    await eventually(() => hold.running() === 2, 'two calls upstream');
    const booking = await client.callTool('book_table', {}).then(textOf, (error: Error) => error.message);
    expect(booking).toMatch(/do not support "elicitation\/create"/);
    hold.letGo();
    await Promise.all(holders);
  }, 60_000);
});

describe('a request whose client could be asked keeps a host to itself', () => {
  it('its questions reach it exactly while requests that can be asked nothing share another host', async () => {
    const hold = await holdingUpstream();
    const { gateway, url } = await gatewayFor(hold.upstream);
    const quiet = await clientAs(url, undefined);
    const alice = await clientAs(url, undefined, 'alice');
    const holders = Array.from({ length: 4 }, () => quiet.client.callTool('hold', { who: 'quiet' }));
    await eventually(() => hold.running() === 4, 'four calls upstream');
    // Alice's calls each need their own host: the upstream elicits during them.
    const booked = await Promise.all(
      Array.from({ length: 4 }, () => alice.client.callTool('book_table', {})),
    );
    expect(booked.map(textOf).filter((text) => text.includes('for alice,'))).toHaveLength(4);
    expect(alice.asked()).toBe(4);
    // And her `hold` runs on a host of its own, not on the one the quiet calls share.
    const aliceHold = alice.client.callTool('hold', { who: 'alice' });
    await eventually(() => hold.running() === 5, "alice's call upstream");
    const quietSessions = hold.sessionsOf('quiet');
    expect(quietSessions.size).toBe(1);
    expect(quietSessions.has([...hold.sessionsOf('alice')][0]!)).toBe(false);
    expect(gateway.hosts().length).toBeGreaterThanOrEqual(2);
    hold.letGo();
    await Promise.all([...holders, aliceHold]);
  }, 60_000);
});

describe('two principals never share a host', () => {
  it("each identity's calls run together on a host of its own", async () => {
    const hold = await holdingUpstream();
    const { gateway, url } = await gatewayFor(hold.upstream);
    const [ada, bob] = [await clientAs(url, 'ada'), await clientAs(url, 'bob')];
    const calls = [
      ...Array.from({ length: 3 }, () => ada.client.callTool('hold', { who: 'ada' })),
      ...Array.from({ length: 3 }, () => bob.client.callTool('hold', { who: 'bob' })),
    ];
    await eventually(() => hold.running() === 6, 'six calls upstream');
    const [adas, bobs] = [hold.sessionsOf('ada'), hold.sessionsOf('bob')];
    expect([adas.size, bobs.size]).toEqual([1, 1]);
    expect(adas.has([...bobs][0]!)).toBe(false);
    expect(gateway.hosts()).toHaveLength(2);
    hold.letGo();
    await Promise.all(calls);
  }, 60_000);

  it("with a pool of one, the other's requests wait for the host, which is restarted for them", async () => {
    const hold = await holdingUpstream();
    const { gateway, url } = await gatewayFor(hold.upstream, 1);
    const [ada, bob] = [await clientAs(url, 'ada'), await clientAs(url, 'bob')];
    const adaCalls = Array.from({ length: 2 }, () => ada.client.callTool('hold', { who: 'ada' }));
    await eventually(() => hold.running() === 2, "ada's calls upstream");
    const [adaHost] = gateway.hosts();
    const bobCall = bob.client.callTool('whoami', {});
    hold.letGo();
    await Promise.all(adaCalls);
    // Bob's request waited for the host and got it restarted: another upstream session than ada's.
    const bobSession = textOf(await bobCall);
    expect(hold.sessionsOf('ada').size).toBe(1);
    expect(hold.sessionsOf('ada').has(bobSession)).toBe(false);
    const [bobHost] = gateway.hosts();
    expect(bobHost).not.toBe(adaHost);
    await eventually(() => adaHost!.status()[0]!.state === 'stopped', "ada's host closed, not handed over");
  }, 60_000);
});
