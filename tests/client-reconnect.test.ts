/**
 * A plain client reconnects (issue 15): over stdio, `client.connect(factory, { reconnect })` (or
 * `connectReconnecting`, which implements it) starts the server again when its process dies; the call in flight fails with an error that says the connection closed,
 * and the next call is served by the new process. Real processes, killed with SIGKILL.
 */
import { connectReconnecting, McpClient, ReconnectFailedError } from '@mcpkit/client';
import { ConnectionClosedError } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from './support/officialSchema.js';

const FIXTURE = 'tests/fixtures/host-upstream.mjs';
const stops: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

function transport(script = FIXTURE) {
  return () => new StdioClientTransport({ command: process.execPath, args: [script], cwd: repoRoot });
}

function closed(client: McpClient): Promise<void> {
  return new Promise((resolve) => client.onClose(() => resolve()));
}

async function pidOf(client: McpClient): Promise<number> {
  const result = await client.callTool('pid');
  const first = result.content[0];
  return Number(first?.type === 'text' ? first.text : Number.NaN);
}

/**
 * Kills the server process `pid` while a call is pending: the call must fail with a
 * `ConnectionClosedError` that says so, and the next call be served by a new process, whose pid
 * is returned.
 */
async function killDuringCall(client: McpClient, pid: number): Promise<number> {
  const pending = client.callTool('sleep', { ms: 60_000 });
  process.kill(pid, 'SIGKILL');
  const failure = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ConnectionClosedError);
  expect((failure as Error).message).toMatch(/closed/);
  const next = await pidOf(client);
  expect(next).not.toBe(pid);
  return next;
}

describe('connectReconnecting over stdio', () => {
  it('restarts a killed server: the pending call fails clearly, the next call succeeds', async () => {
    const client = new McpClient({ name: 'reconnecting', version: '1.0.0' });
    const reconnected: number[] = [];
    const link = await connectReconnecting(client, transport(), {
      initialDelayMs: 10,
      onReconnect: (count) => reconnected.push(count),
    });
    stops.push(() => link.stop());
    const first = await pidOf(client);

    const second = await killDuringCall(client, first);
    expect(client.connected).toBe(true);
    expect(reconnected).toEqual([1]);
    expect(link.reconnects).toBe(1);

    // And again: each loss gets its own restart. (A call made before the client hears of the
    // loss is in flight when it happens, and fails like the one above: wait for it.)
    const lost = closed(client);
    process.kill(second, 'SIGKILL');
    await lost;
    const third = await pidOf(client);
    expect(third).not.toBe(second);
    expect(link.reconnects).toBe(2);
  });

  it('does not reconnect a client closed on purpose', async () => {
    const client = new McpClient({ name: 'closing', version: '1.0.0' });
    let reconnects = 0;
    await connectReconnecting(client, transport(), { onReconnect: () => reconnects++ });
    await client.close();
    await expect(client.callTool('pid')).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(reconnects).toBe(0);
    expect(client.connected).toBe(false);
  });

  it('gives up after maxAttempts when the server cannot start again, and says so', async () => {
    const client = new McpClient({ name: 'giving-up', version: '1.0.0' });
    let starts = 0;
    const given: ReconnectFailedError[] = [];
    const link = await connectReconnecting(
      client,
      // The first start works; every restart runs a script that does not exist.
      () => transport(starts++ === 0 ? FIXTURE : 'tests/fixtures/no-such-server.mjs')(),
      { initialDelayMs: 5, maxAttempts: 2, onGiveUp: (error) => given.push(error) },
    );
    stops.push(() => link.stop());
    const pid = await pidOf(client);
    const lost = closed(client);
    process.kill(pid, 'SIGKILL');
    await lost;
    const failure = await client.callTool('pid').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ReconnectFailedError);
    expect((failure as Error).message).toMatch(/after 2 attempts/);
    expect(given).toHaveLength(1);
    expect(starts).toBe(3);
  });
});

describe('client.connect(factory, { reconnect })', () => {
  it('restarts a killed stdio server: the pending call fails clearly, the next call succeeds', async () => {
    const client = new McpClient({ name: 'reconnect-option', version: '1.0.0' });
    stops.push(() => client.close());
    const reconnected: number[] = [];
    const result = await client.connect(transport(), {
      reconnect: { initialDelayMs: 10, onReconnect: (count) => reconnected.push(count) },
    });
    expect(result.serverInfo.name).toBeTruthy();
    const first = await pidOf(client);

    await killDuringCall(client, first);
    expect(reconnected).toEqual([1]);

    // Closed on purpose: it stays closed.
    await client.close();
    await expect(client.callTool('pid')).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(reconnected).toEqual([1]);
  });

  it('takes `reconnect: true` for the defaults, and a factory alone connects once', async () => {
    const defaults = new McpClient({ name: 'reconnect-true', version: '1.0.0' });
    stops.push(() => defaults.close());
    await defaults.connect(transport(), { reconnect: true });
    const pid = await pidOf(defaults);
    const lost = closed(defaults);
    process.kill(pid, 'SIGKILL');
    await lost;
    expect(await pidOf(defaults)).not.toBe(pid); // the default backoff starts at 100 ms

    const once = new McpClient({ name: 'factory-once', version: '1.0.0' });
    stops.push(() => once.close());
    await once.connect(transport());
    const onlyPid = await pidOf(once);
    const gone = closed(once);
    process.kill(onlyPid, 'SIGKILL');
    await gone;
    await expect(once.callTool('pid')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('refuses `reconnect` with a transport, which cannot be made again', async () => {
    const client = new McpClient({ name: 'no-factory', version: '1.0.0' });
    await expect(client.connect(transport()(), { reconnect: true })).rejects.toThrow(
      /reconnect` needs a function that makes a transport/,
    );
    expect(client.connected).toBe(false);
  });
});
