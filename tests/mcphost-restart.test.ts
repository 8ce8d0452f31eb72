/**
 * `McpHost.restart(server)`: a restart on purpose (the dev loop's, after a change of the server's
 * code) is not a crash. Ten in a row leave the circuit closed and one live connection; a `failed`
 * server comes back; calls made meanwhile reach the new server; list listeners hear of it.
 */

import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import {
  type ListChange,
  McpHost,
  type ServerEntry,
  ServerUnavailableError,
  type StateChange,
} from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';

const ENTRY: ServerEntry = {
  kind: 'stdio',
  name: 'dev',
  command: 'unused',
  args: [],
  env: {},
  disabled: false,
  autoApprove: [],
};

/**
 * In-process servers, one per start, each numbered: `generation` says which one answered. While
 * `broken` is set a start fails, as a server with a syntax error does.
 */
function servers() {
  const state = { started: 0, open: 0, broken: false };
  const connector = () => {
    if (state.broken) throw new Error('SyntaxError: Unexpected token');
    const generation = ++state.started;
    const server = new McpServer({ name: 'dev', version: String(generation) });
    server.tool('generation', () => String(generation));
    // Each generation adds a tool, as an edit of the server's code would.
    server.tool(`added_${generation}`, () => 'new');
    const [client, serverSide] = createInMemoryPair();
    const session = server.connect(serverSide);
    state.open++;
    session.onClose(() => state.open--);
    return client;
  };
  return { state, connector };
}

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function hostOn(connector: () => ReturnType<typeof createInMemoryPair>[0], maxAttempts = 5): McpHost {
  const host = new McpHost({
    servers: [ENTRY],
    connector,
    keepAlive: { intervalMs: 0 },
    hooks: { toolCall: () => 'once' },
    restart: { maxAttempts, initialDelayMs: 1 },
  });
  hosts.push(host);
  return host;
}

async function generation(host: McpHost): Promise<number> {
  const result = await host.callTool('generation');
  if (result.isError) throw new Error(JSON.stringify(result));
  return Number((result.content[0] as { text: string }).text);
}

/** Lets the in-memory closes run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('McpHost.restart', () => {
  it('ten restarts in a row are not crashes: the circuit stays closed, one connection is left', async () => {
    const { state, connector } = servers();
    const host = hostOn(connector);
    expect(await generation(host)).toBe(1);
    const changes: StateChange[] = [];
    host.onStateChange((change) => changes.push(change));
    for (let i = 0; i < 10; i++) await host.restart('dev');
    await settle();
    // A crash would be a `starting` with its cause, then a backoff: none here.
    expect(changes.filter((change) => change.error !== undefined)).toEqual([]);
    expect(changes.map((change) => change.state)).toEqual(Array(10).fill(['starting', 'ready']).flat());
    expect(host.status()).toEqual([{ server: 'dev', state: 'ready', restarts: 10 }]);
    expect(await generation(host)).toBe(11);
    expect(state.open).toBe(1);
  });

  it('ten restarts at once give way to the last: every one resolves with the same connection', async () => {
    const { state, connector } = servers();
    const host = hostOn(connector);
    await generation(host);
    const clients = await Promise.all(Array.from({ length: 10 }, () => host.restart('dev')));
    expect(new Set(clients).size).toBe(1);
    await settle();
    expect(host.status()[0]!.state).toBe('ready');
    expect(state.open).toBe(1);
    expect(await generation(host)).toBe(state.started);
  });

  it('a call made during a restart waits for the new server', async () => {
    const { connector } = servers();
    const host = hostOn(connector);
    expect(await generation(host)).toBe(1);
    const restarted = host.restart('dev');
    expect(await generation(host)).toBe(2);
    await restarted;
  });

  it('a failed start is reported by restart(); the next restart after the fix recovers', async () => {
    const { state, connector } = servers();
    const host = hostOn(connector, 1);
    await generation(host);
    state.broken = true;
    const failure = await host.restart('dev').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ServerUnavailableError);
    expect((failure as Error).message).toMatch(/could not be started.*SyntaxError/);
    expect(host.status()[0]!.state).toBe('failed');
    state.broken = false;
    await host.restart('dev');
    expect(host.status()[0]!.state).toBe('ready');
    expect(await generation(host)).toBe(2);
  });

  it('tells list listeners that the lists may have changed', async () => {
    const { connector } = servers();
    const host = hostOn(connector);
    await generation(host);
    const heard: ListChange[] = [];
    host.onListChanged((change) => heard.push(change));
    await host.restart('dev');
    // The tools list for sure (the server's one list); others as the host announces them.
    expect(heard.map((change) => change.kind)).toContain('tools');
  });

  it('starts a server not started yet, and refuses an unknown one or a closed host', async () => {
    const { connector } = servers();
    const host = hostOn(connector);
    await host.restart('dev');
    expect(host.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
    await expect(host.restart('nope')).rejects.toThrow(/no server "nope"/);
    await host.close();
    await expect(host.restart('dev')).rejects.toThrow(/shut down/);
  });
});

describe('McpGateway.restart', () => {
  const gateways: McpGateway[] = [];
  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
  });

  async function clientOf(gateway: McpGateway, era: '2025' | '2026'): Promise<McpClient> {
    const client = new McpClient({ name: 'downstream', version: '1' }, { protocolEra: era });
    const [clientSide, serverSide] = createInMemoryPair();
    gateway.connect(serverSide);
    await client.connect(clientSide);
    return client;
  }

  for (const [upstreams, era] of [
    ['shared', '2025'],
    ['perSession', '2025'],
    ['perSession', '2026'],
  ] as const) {
    it(`${upstreams}, clients on ${era}: every client is told tools/list_changed and lists the new tools in the same session`, async () => {
      const { state, connector } = servers();
      const gateway = createGateway({
        host: { servers: [ENTRY], connector, keepAlive: { intervalMs: 0 } },
        upstreams,
      });
      gateways.push(gateway);
      const clients = [await clientOf(gateway, era), await clientOf(gateway, era)];
      for (const client of clients)
        expect((await client.tools()).map((tool) => tool.name)).toContain('generation');
      const started = state.started;
      const told = clients.map(
        (client) => new Promise<void>((resolve) => client.onListChanged('tools', () => resolve())),
      );
      await gateway.restart('dev');
      await Promise.all(told);
      for (const client of clients) {
        const names = (await client.tools()).map((tool) => tool.name);
        expect(names.filter((name) => name.startsWith('added_')).length).toBe(1);
        expect(names).not.toContain(`added_${started}`);
        const result = await client.callTool('generation');
        expect(Number((result.content[0] as { text: string }).text)).toBeGreaterThan(started);
      }
      await settle();
      // One upstream per host: the shared one, a host per 2025 session, or the 2026 clients' leased one.
      expect(state.open).toBe(gateway.hosts().length);
      expect(state.open).toBe(upstreams === 'perSession' && era === '2025' ? 2 : 1);
    });
  }

  it('a shared gateway starts a server not started yet, and reports a start that fails', async () => {
    const { state, connector } = servers();
    const gateway = createGateway({
      host: { servers: [ENTRY], connector, restart: { maxAttempts: 1 } },
      upstreams: 'shared',
    });
    gateways.push(gateway);
    await gateway.restart('dev');
    expect(state.started).toBe(1);
    state.broken = true;
    await expect(gateway.restart('dev')).rejects.toThrow(/could not be started.*SyntaxError/);
    await expect(gateway.restart('nope')).rejects.toThrow(/no enabled server "nope"/);
  });
});
