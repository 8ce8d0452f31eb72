/**
 * What the gateway tells people: the tool error a downstream client gets when an upstream call
 * runs out of time names the server (by its config name: no command, no path), whichever way the
 * call went (a per-session host, the shared host, a lane); and `mcpkit gateway`'s state log says
 * each change of a server once, however many copies of it per-session upstreams or lanes run. In
 * process: the upstreams are mcpkit servers on in-memory pairs behind stdio-looking entries.
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair, type Transport } from '@mcpkit/core';
import type { ServerEntry, StateChange } from '@mcpkit/host';
import { createGateway, type GatewayOptions } from '@mcpkit/host/gateway';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { stateLogger } from '../packages/cli/src/gateway/stateLog.js';

/** A command path that must never reach a downstream client. */
const COMMAND = '/opt/internal/bin/slow-mcp-server';
const TIMEOUT_MS = 150;

const entry = (name: string): ServerEntry => ({
  kind: 'stdio',
  name,
  command: COMMAND,
  args: ['--secret-flag'],
  env: {},
  disabled: false,
  autoApprove: ['*'],
  timeoutMs: TIMEOUT_MS,
});

/** An upstream with a tool that answers and one that never does (until cancelled). */
function upstream(name: string): Transport {
  const server = new McpServer({ name, version: '1.0.0' });
  server.tool('quick', () => ({ content: [{ type: 'text', text: `${name} answered` }] }));
  server.tool(
    'stuck',
    (_args, ctx) =>
      new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'late' }] })),
      ),
  );
  const [client, side] = createInMemoryPair();
  server.connect(side);
  return client;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function gatewayOf(options: Omit<GatewayOptions, 'host'>, onStateChange?: (change: StateChange) => void) {
  const gateway = createGateway({
    ...options,
    host: {
      servers: [entry('slow'), entry('other')],
      connector: async ({ name }) => upstream(name),
      ...(onStateChange ? { onStateChange } : {}),
    },
  });
  closers.push(() => gateway.close());
  return gateway;
}

async function downstream(
  gateway: ReturnType<typeof createGateway>,
  options: ConstructorParameters<typeof McpClient>[1] = {},
): Promise<McpClient> {
  const [clientSide, gatewaySide] = createInMemoryPair();
  gateway.connect(gatewaySide);
  const client = new McpClient({ name: 'downstream', version: '1.0.0' }, options);
  closers.push(() => client.close());
  await client.connect(clientSide);
  return client;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('an upstream call that runs out of time, through the gateway', () => {
  const SESSION = { protocolEra: '2025' } as const;
  const asks = { elicitation: { form: async () => ({ action: 'decline' as const }) } };
  const cases: Array<[string, Omit<GatewayOptions, 'host'>, ConstructorParameters<typeof McpClient>[1]]> = [
    ['a per-session host', { upstreams: 'perSession' }, SESSION],
    ['the shared host', { upstreams: 'shared' }, SESSION],
    // A caller that can be asked something runs its calls on a lane of its own.
    ['a lane of the shared host', { upstreams: 'shared' }, { ...SESSION, ...asks }],
    ['a 2026-07-28 caller (no session)', { upstreams: 'shared' }, { protocolEra: '2026' }],
  ];
  it.each(cases)('names the server, and nothing of its command (%s)', async (how, options, clientOptions) => {
    const gateway = gatewayOf(options);
    const client = await downstream(gateway, clientOptions);
    expect(client.era).toBe(clientOptions?.protocolEra);
    const result = await client.callTool('slow__stuck');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `The server "slow" did not finish: Request "tools/call" timed out after ${TIMEOUT_MS} ms without a response or progress`,
    );
    expect(JSON.stringify(result)).not.toContain(COMMAND);
    expect(JSON.stringify(result)).not.toContain('--secret-flag');
    // The lane case ran on a lane: a host of its own beside the shared one.
    if (how.startsWith('a lane')) expect(gateway.hosts().length).toBeGreaterThan(1);
    // The other server is not blamed, and the gateway keeps serving.
    expect(textOf(await client.callTool('other__quick'))).toBe('other answered');
  });
});

describe("mcpkit gateway's state log with many copies of a server", () => {
  it('says a server is ready once, not once per downstream session (per-session upstreams)', async () => {
    const lines: string[] = [];
    const gateway = gatewayOf(
      { upstreams: 'perSession' },
      stateLogger((line) => lines.push(line)),
    );
    for (let session = 0; session < 3; session++) {
      const client = await downstream(gateway, { protocolEra: '2025' });
      expect(textOf(await client.callTool('slow__quick'))).toBe('slow answered');
    }
    expect(gateway.hosts()).toHaveLength(3);
    expect(lines.filter((line) => line.startsWith('slow ready'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('other ready'))).toHaveLength(1);
  });

  it('says a server is ready once across the shared host and its lanes', async () => {
    const lines: string[] = [];
    const gateway = gatewayOf(
      { upstreams: 'shared' },
      stateLogger((line) => lines.push(line)),
    );
    const plain = await downstream(gateway, { protocolEra: '2025' });
    await plain.callTool('slow__quick');
    const asking = {
      protocolEra: '2025' as const,
      elicitation: { form: async () => ({ action: 'decline' as const }) },
    };
    const [one, two] = [await downstream(gateway, asking), await downstream(gateway, asking)];
    await Promise.all([one.callTool('slow__quick'), two.callTool('slow__quick')]);
    expect(gateway.hosts().length).toBeGreaterThan(1);
    expect(lines.filter((line) => line.startsWith('slow ready'))).toHaveLength(1);
  });

  it('still says each change of one server: degraded, ready again, a crash, a new reason', () => {
    const lines: string[] = [];
    const log = stateLogger((line) => lines.push(line));
    const crash = new Error('Server "slow" exited with code 1');
    const changes: StateChange[] = [
      { server: 'slow', state: 'ready', previous: 'starting', startMs: 1200 },
      { server: 'slow', state: 'ready', previous: 'starting', startMs: 900 }, // another copy: nothing new
      { server: 'slow', state: 'degraded', previous: 'ready', error: new Error('ping timed out') },
      { server: 'slow', state: 'degraded', previous: 'ready', error: new Error('ping timed out') },
      { server: 'slow', state: 'ready', previous: 'degraded' },
      { server: 'slow', state: 'starting', previous: 'ready', error: crash },
      { server: 'slow', state: 'ready', previous: 'starting', startMs: 300 },
      { server: 'slow', state: 'failed', previous: 'starting', error: new Error('no such file') },
      { server: 'slow', state: 'failed', previous: 'starting', error: new Error('no such file') },
      { server: 'slow', state: 'failed', previous: 'starting', error: new Error('permission denied') },
      { server: 'other', state: 'ready', previous: 'starting', startMs: 100 },
    ];
    for (const change of changes) log(change);
    expect(lines).toEqual([
      'slow ready (1.2 s)',
      'slow degraded: ping timed out',
      'slow ready again',
      'slow restarting (crashed: exited with code 1)',
      'slow ready (0.3 s)',
      'slow failed: no such file',
      'slow failed: permission denied',
      'other ready (0.1 s)',
    ]);
  });
});
