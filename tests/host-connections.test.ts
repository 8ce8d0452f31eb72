/**
 * `@mcpkit/host` connections against real stdio processes: restarts after SIGKILL, a call that
 * dies with its server, the circuit after five crashes in ten seconds, keep-alive against a
 * server that never answers `ping`, and no orphan processes after many restart cycles.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type McpHost as Host,
  McpHost,
  type ServerEntry,
  ServerUnavailableError,
  type StateChange,
} from '@mcpkit/host';
import { nodeConnector } from '@mcpkit/host/node';
import { afterEach, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';

const UPSTREAM = fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url));
const hosts: Host[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function entry(name: string, mode = 'normal'): ServerEntry {
  return {
    kind: 'stdio',
    name,
    command: process.execPath,
    args: [UPSTREAM, mode],
    env: {},
    disabled: false,
    autoApprove: [],
  };
}

function host(
  options: Partial<ConstructorParameters<typeof McpHost>[0]> & { servers: ServerEntry[] },
): McpHost {
  const created = new McpHost({ connector: nodeConnector(), ...options });
  hosts.push(created);
  return created;
}

async function pidOf(h: McpHost, tool = 'pid'): Promise<number> {
  const result = await h.callTool(tool);
  expect(result.isError).toBeFalsy();
  return Number((result.content[0] as { text: string }).text);
}

/** Resolves at the next state change of `server` to `state`. */
function reaches(h: McpHost, server: string, state: StateChange['state']): Promise<StateChange> {
  return new Promise((resolve) => {
    const stop = h.onStateChange((change) => {
      if (change.server === server && change.state === state) {
        stop();
        resolve(change);
      }
    });
  });
}

/** The live child processes of this test process that run the fixture. */
function fixtureChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,ppid=,args=', '-A'], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(
      (cols) => Number(cols[1]) === process.pid && cols.some((col) => col.endsWith(path.basename(UPSTREAM))),
    )
    .map((cols) => Number(cols[0]));
}

describe('McpHost connections (real stdio processes)', () => {
  it('starts a server on first use and restarts it after SIGKILL while idle; the next call succeeds', async () => {
    const h = host({ servers: [entry('a')] });
    expect(h.status()).toEqual([{ server: 'a', state: 'stopped', restarts: 0 }]);
    const first = await pidOf(h);
    expect(h.status()[0]!.state).toBe('ready');
    const restarted = reaches(h, 'a', 'ready');
    process.kill(first, 'SIGKILL');
    await restarted;
    const second = await pidOf(h);
    expect(second).not.toBe(first);
    expect(h.status()[0]).toMatchObject({ state: 'ready', restarts: 1 });
  });

  it('the next call after a crash waits for the restart instead of failing', async () => {
    const h = host({ servers: [entry('a')] });
    const first = await pidOf(h);
    const crashed = reaches(h, 'a', 'starting');
    process.kill(first, 'SIGKILL');
    await crashed;
    // Called while the server is down: it waits for the new process.
    expect(await pidOf(h)).not.toBe(first);
  });

  it('a call in flight when its server dies fails saying so; the next call succeeds', async () => {
    const h = host({ servers: [entry('a')] });
    const pid = await pidOf(h);
    const pending = h.callTool('sleep', { ms: 30_000 });
    // The request is written before we kill: wait until the server has it by asking for something after it.
    await h.callTool('echo', { text: 'after' });
    process.kill(pid, 'SIGKILL');
    const error = await pending.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServerUnavailableError);
    expect(error).toMatchObject({ server: 'a', reason: 'crashed' });
    expect((error as Error).message).toMatch(/^Server "a" died while "tools\/call" was in flight/);
    expect(await pidOf(h)).not.toBe(pid);
  });

  it('five crashes in ten seconds open the circuit with a clear error, and no restart loop follows', async () => {
    const h = host({ servers: [entry('a')] });
    for (let crash = 1; crash <= 5; crash++) {
      const pid = await pidOf(h);
      const next = reaches(h, 'a', crash < 5 ? 'ready' : 'failed');
      process.kill(pid, 'SIGKILL');
      const change = await next;
      if (crash === 5) expect(change.error?.message).toMatch(/crashed 5 times in 10 s; its circuit is open/);
    }
    const error = await h.callTool('echo', { text: 'x' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'ServerUnavailableError', server: 'a', reason: 'circuit-open' });
    expect(fixtureChildren()).toEqual([]);
    // retry() closes the circuit by hand.
    await h.retry('a');
    expect(await pidOf(h)).toBeGreaterThan(0);
  });

  it('marks a server that never answers ping degraded, while its calls still work', async () => {
    const h = host({ servers: [entry('hung', 'no-ping')], keepAlive: { intervalMs: 50, timeoutMs: 100 } });
    const degraded = reaches(h, 'hung', 'degraded');
    await pidOf(h);
    const change = await degraded;
    expect(change.error?.message).toMatch(/ping/);
    expect(h.status()[0]!.state).toBe('degraded');
  });

  it('a healthy server stays ready under keep-alive', async () => {
    const h = host({ servers: [entry('a')], keepAlive: { intervalMs: 20, timeoutMs: 2000 } });
    const changes: string[] = [];
    h.onStateChange((change) => changes.push(change.state));
    await pidOf(h);
    // Ten pings' worth of time, measured in answered calls rather than a timer.
    for (let i = 0; i < 10; i++) await h.callTool('sleep', { ms: 20 });
    expect(changes).toEqual(['starting', 'ready']);
  });

  it('leaves no orphan process after 100 restart cycles, and none after close()', async () => {
    const h = host({
      servers: [entry('a')],
      restart: { circuitCrashes: Number.POSITIVE_INFINITY, maxDelayMs: 20 },
    });
    let pid = await pidOf(h);
    for (let cycle = 0; cycle < 100; cycle++) {
      const restarted = reaches(h, 'a', 'ready');
      process.kill(pid, 'SIGKILL');
      await restarted;
      pid = await pidOf(h);
      expect(fixtureChildren()).toEqual([pid]);
    }
    expect(h.status()[0]!.restarts).toBe(100);
    await h.close();
    expect(fixtureChildren()).toEqual([]);
    expect(h.status()[0]!.state).toBe('stopped');
  }, 120_000);

  it('an HTTP server that forgot the session (404) is re-initialized, and the call succeeds', async () => {
    const http = await demoHttp('web');
    try {
      const h = host({ servers: [http.entry], policy: { web: { trusted: true } } });
      const recovered: string[] = [];
      expect((await h.callTool('echo', { text: 'before' })).content).toEqual([
        { type: 'text', text: 'before' },
      ]);
      (await h.client('web')).onSessionRecovered(() => recovered.push('recovered'));
      await http.restart();
      expect((await h.callTool('echo', { text: 'after' })).content).toEqual([
        { type: 'text', text: 'after' },
      ]);
      expect(recovered).toEqual(['recovered']);
      expect(h.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
    } finally {
      await http.close();
    }
  });

  it('shuts down every server, closing stdin first so each exits on its own', async () => {
    const h = host({ servers: [entry('a'), entry('b')], eager: true });
    await h.start();
    expect(h.status().map((s) => s.state)).toEqual(['ready', 'ready']);
    expect(fixtureChildren()).toHaveLength(2);
    await h.close();
    expect(h.status().map((s) => s.state)).toEqual(['stopped', 'stopped']);
    expect(fixtureChildren()).toEqual([]);
    await expect(h.callTool('echo')).rejects.toThrow('The host is closed');
    await expect(h.client('a')).rejects.toMatchObject({ reason: 'stopped' });
  });
});
