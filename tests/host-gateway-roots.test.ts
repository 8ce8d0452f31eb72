/**
 * Forwarded roots on a gateway with shared upstreams (issue 29's follow-ups):
 * - an HTTP upstream's `roots/list`, asked during a call, is attributed to that call's caller on
 *   the one shared connection (as sampling and elicitation are): no lane for it;
 * - a client's `notifications/roots/list_changed` reaches the lanes (and the shared connection)
 *   whose upstream holds that client's roots, and no other;
 * - audit events of calls on lanes and on the shared connection name the calling session.
 * Real parts: the official SDK v1 client over Streamable HTTP, the demo server over HTTP, and a
 * small stdio server (tests/fixtures/host-upstream.mjs) that logs each list_changed it receives.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditEvent, ServerEntry } from '@mcpkit/host';
import { createGateway, type GatewayOptions, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { closeGatewayRuns } from './support/gatewayRuns.js';

const UPSTREAM = fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url));

let live: Awaited<ReturnType<typeof demoHttp>>;
let dir: string;
let running: Array<{ gateway: McpGateway; served: ServedHandler }> = [];
let clients: Client[] = [];

async function startGateway(
  servers: ServerEntry[],
  options: Omit<GatewayOptions, 'host'> = {},
  audit?: (event: AuditEvent) => void,
): Promise<{ gateway: McpGateway; url: string }> {
  const gateway = createGateway({
    host: { servers, connector: nodeConnector(), ...(audit ? { audit } : {}) },
    ...options,
  });
  const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
  running.push({ gateway, served });
  return { gateway, url: served.url };
}

/** A stdio entry for tests/fixtures/host-upstream.mjs with `args`. */
function fixture(args: string[]): ServerEntry {
  return {
    kind: 'stdio',
    name: 'files',
    command: process.execPath,
    args: [UPSTREAM, ...args],
    env: {},
    disabled: false,
    autoApprove: [],
  };
}

/** A client that shares one root of its own name, and says when it changes. */
async function withRoots(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: `file:///work/${name}`, name }],
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('');

beforeAll(async () => {
  live = await demoHttp('live');
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-gateway-roots-'));
});

afterEach(async () => {
  await closeGatewayRuns(clients, running);
  clients = [];
  running = [];
});

afterAll(async () => {
  await live?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('forwarded roots on shared upstreams', () => {
  it("an HTTP upstream's roots/list during a call is the caller's, of two concurrent sessions, on one connection", async () => {
    const { gateway, url } = await startGateway([live.entry], { forwardRoots: true });
    const [alice, bob] = [await withRoots(url, 'alice'), await withRoots(url, 'bob')];
    const ask = (client: Client) =>
      Promise.all(Array.from({ length: 3 }, () => client.callTool({ name: 'list_roots', arguments: {} })));
    const [forAlice, forBob] = await Promise.all([ask(alice), ask(bob)]);
    for (const text of forAlice.map(textOf)) {
      expect(text).toContain('file:///work/alice');
      expect(text).not.toContain('bob');
    }
    for (const text of forBob.map(textOf)) {
      expect(text).toContain('file:///work/bob');
      expect(text).not.toContain('alice');
    }
    expect(gateway.hosts()).toHaveLength(1); // the shared host: no lane was started
  }, 60_000);

  it("a client's roots/list_changed reaches the lane whose upstream holds its roots, and no other", async () => {
    const log = path.join(dir, 'list-changed.log');
    await writeFile(log, '');
    const upstream = fixture(['roots', log]);
    const { gateway, url } = await startGateway([upstream], { forwardRoots: true, lanes: 2 });
    const [alice, bob] = [await withRoots(url, 'alice'), await withRoots(url, 'bob')];
    // Overlapping calls: each holds a lane of its own while its upstream asks its roots.
    const call = (client: Client) => client.callTool({ name: 'roots', arguments: { ms: 300 } });
    const [forAlice, forBob] = (await Promise.all([call(alice), call(bob)])).map(textOf);
    const [alicePid, aliceRoots] = forAlice!.split(' ');
    const [bobPid, bobRoots] = forBob!.split(' ');
    expect(aliceRoots).toBe('file:///work/alice');
    expect(bobRoots).toBe('file:///work/bob');
    expect(alicePid).not.toBe(bobPid);
    expect(gateway.hosts()).toHaveLength(3); // the shared host and two lanes

    await alice.sendRootsListChanged();
    await eventually(async () => (await readFile(log, 'utf8')) !== '', 'the list_changed upstream');
    // Bob's change marks the point by which a stray one for Alice's would have come.
    await bob.sendRootsListChanged();
    await eventually(
      async () => (await readFile(log, 'utf8')).trim().split('\n').length === 2,
      "bob's list_changed upstream",
    );
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([alicePid, bobPid]);
  }, 60_000);
});

describe('audit on shared upstreams', () => {
  it('calls on lanes and on the shared connection name the session that made them', async () => {
    const events: AuditEvent[] = [];
    const upstream = fixture([]);
    const { url } = await startGateway([upstream], {}, (event) => events.push(event));
    // Alice can be asked something: her calls hold a lane. Bob's share the one connection.
    const alice = new Client({ name: 'alice', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    alice.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    const bob = new Client({ name: 'bob', version: '1.0.0' });
    for (const client of [alice, bob]) {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
    }
    const calls = (client: Client, who: string) =>
      Promise.all(
        Array.from({ length: 4 }, () => client.callTool({ name: 'echo', arguments: { text: who } })),
      );
    await Promise.all([calls(alice, 'alice'), calls(bob, 'bob')]);
    await eventually(() => events.length === 8, '8 audit events');
    const sessions = new Set(events.map((event) => event.session));
    expect(sessions.size).toBe(2);
    expect([...sessions].every((session) => typeof session === 'string')).toBe(true);
    for (const session of sessions) expect(events.filter((e) => e.session === session)).toHaveLength(4);
  }, 60_000);
});
