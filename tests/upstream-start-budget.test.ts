/**
 * Issue 29, item 2: the slowest server decides when the catalogue answers. Now a listing waits for
 * a starting server only as long as its start budget; a late server's arrival is announced
 * (`onListChanged`, and through a gateway `notifications/tools/list_changed`); a command that
 * cannot be found fails at once instead of five times. In process: the upstreams are mcpkit
 * servers on in-memory pairs, and the late one is held back until the test lets it start.
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair, type Transport } from '@mcpkit/core';
import { type ListChange, McpHost, type McpHostOptions, type ServerEntry } from '@mcpkit/host';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';

const base = { kind: 'url', headers: {}, transport: 'auto', disabled: false, autoApprove: ['*'] } as const;
const entry = (name: string, extra: Partial<ServerEntry> = {}): ServerEntry =>
  ({ ...base, name, url: new URL(`http://127.0.0.1/${name}`), ...extra }) as ServerEntry;

/** A server offering one tool named after it, on an in-memory pair. */
function serverTransport(name: string): Transport {
  const server = new McpServer({ name, version: '1.0.0' });
  server.tool(`${name}-tool`, () => ({ content: [{ type: 'text', text: name }] }));
  const [client, side] = createInMemoryPair();
  server.connect(side);
  return client;
}

/** Servers by name; those named in `held` start only once `release()` is called. */
function gatedConnector(held: string[]) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release,
    connector: async ({ name }: ServerEntry) => {
      if (held.includes(name)) await gate;
      return serverTransport(name);
    },
  };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function host(options: McpHostOptions): McpHost {
  const created = new McpHost(options);
  closers.push(() => created.close());
  return created;
}

describe('the catalogue answers within the start budget (issue 29)', () => {
  it('lists what is ready, marks the late server starting, and announces it when it arrives', async () => {
    const { connector, release } = gatedConnector(['late']);
    const h = host({ servers: [entry('quick'), entry('late')], connector, startBudgetMs: 50 });
    const changes: ListChange[] = [];
    h.onListChanged((change) => changes.push(change));
    expect((await h.tools()).map((tool) => tool.name)).toEqual(['quick-tool']);
    expect(h.status().map(({ server, state }) => [server, state])).toEqual([
      ['quick', 'ready'],
      ['late', 'starting'],
    ]);
    // A second listing does not wait again: the budget counts from when the start began.
    const before = Date.now();
    await h.tools();
    expect(Date.now() - before).toBeLessThan(1000);
    release();
    await expect.poll(() => changes).toEqual([{ server: 'late', kind: 'tools' }]);
    expect((await h.tools()).map((tool) => tool.name)).toEqual(['late-tool', 'quick-tool']);
  });

  it('when nothing is ready within the budget, the listing waits for the first server rather than answer empty', async () => {
    const { connector, release } = gatedConnector(['only']);
    const h = host({ servers: [entry('only')], connector, startBudgetMs: 10 });
    const listing = h.tools();
    setTimeout(release, 100);
    expect((await listing).map((tool) => tool.name)).toEqual(['only-tool']);
  });

  it('a call by name waits for a server still starting rather than call the tool unknown', async () => {
    const { connector, release } = gatedConnector(['late']);
    const h = host({ servers: [entry('quick'), entry('late')], connector, startBudgetMs: 20 });
    await h.tools();
    const call = h.callTool('late-tool');
    // One turn of the event loop, not a sleep: the call has looked the name up again (from the
    // lists held, no I/O) and waits on the late server, which cannot answer before it is released.
    // Released earlier or later, the call must still reach it.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await call).content).toEqual([{ type: 'text', text: 'late' }]);
  });

  // Under load the first listing of the test above once hung: the quick server was ready only
  // after its own budget ran out, the late one's was still running, and the listing then waited
  // for the servers still *starting* (the held one, forever) instead of listing the ready one.
  it('regression: a listing hung when the one server ready had arrived after its own budget ran out', async () => {
    const quickGate = gatedConnector(['quick']);
    const lateGate = gatedConnector(['late']);
    const h = host({
      // quick: no budget, so the listing never waits for it; late: a budget that runs out later.
      servers: [entry('quick', { startBudgetMs: 0 }), entry('late', { startBudgetMs: 200 })],
      connector: (e) => (e.name === 'quick' ? quickGate.connector(e) : lateGate.connector(e)),
    });
    const ready = new Promise<void>((resolve) =>
      h.onStateChange(({ server, state }) => server === 'quick' && state === 'ready' && resolve()),
    );
    const listing = h.tools();
    quickGate.release();
    await ready; // quick is ready while the listing still waits out late's budget
    expect((await listing).map((tool) => tool.name)).toEqual(['quick-tool']);
    lateGate.release();
  }, 5_000);

  it("a config entry's startBudget overrides the host's for that server", async () => {
    const { connector, release } = gatedConnector(['late']);
    const h = host({
      servers: [entry('quick'), entry('late', { startBudgetMs: 60_000 })],
      connector,
      startBudgetMs: 10,
    });
    const listing = h.tools();
    setTimeout(release, 100);
    expect((await listing).map((tool) => tool.name)).toEqual(['late-tool', 'quick-tool']);
  });

  it('through the gateway: the first tools/list answers without the late server, then list_changed brings it', async () => {
    const { connector, release } = gatedConnector(['late']);
    const gateway = createGateway({
      host: { servers: [entry('quick'), entry('late')], connector, startBudgetMs: 50 },
    });
    closers.push(() => gateway.close());
    const [clientSide, gatewaySide] = createInMemoryPair();
    gateway.connect(gatewaySide);
    const client = new McpClient({ name: 'downstream', version: '1.0.0' });
    closers.push(() => client.close());
    let changed = 0;
    client.onListChanged('tools', () => changed++);
    await client.connect(clientSide);
    expect((await client.tools()).map((tool) => tool.name)).toEqual(['quick-tool']);
    release();
    await expect.poll(() => changed).toBeGreaterThan(0);
    expect((await client.tools()).map((tool) => tool.name)).toEqual(['late-tool', 'quick-tool']);
  });
});

describe('a command that cannot be found is not retried (issue 29)', () => {
  it('fails after one attempt with ENOENT in the reason, and the rest of the catalogue answers', async () => {
    const missing: ServerEntry = {
      kind: 'stdio',
      name: 'missing',
      command: 'mcpkit-no-such-command-29',
      args: [],
      env: {},
      disabled: false,
      autoApprove: [],
    };
    const quick = gatedConnector([]);
    const stdio = nodeConnector();
    const h = host({
      servers: [entry('quick'), missing],
      connector: (e) => (e.kind === 'stdio' ? stdio(e) : quick.connector(e)),
      // Backoff that would take minutes over five attempts: a retry would time the test out.
      restart: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    expect((await h.tools()).map((tool) => tool.name)).toEqual(['quick-tool']);
    await expect.poll(() => h.status().find((s) => s.server === 'missing')?.state).toBe('failed');
    expect(h.status().find((s) => s.server === 'missing')?.lastError).toMatch(
      /^Server "missing" could not be started \(1 attempt\): .*ENOENT \(command not found\)/,
    );
  });
});
