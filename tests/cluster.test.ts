/**
 * Horizontal scale-out with real parts (issue 17): Debian's redis-server, three
 * `mcpkit serve --http --redis URL` processes, and nginx balancing them round-robin with no
 * stickiness. Every request of a session lands on another node than the one before, and the
 * features still work; a node killed with SIGKILL while it carries a call's stream loses nothing.
 */
import { callToolAsTask, cancelTask, getTask, getTaskResult, McpClient, pollTask } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { describe, expect, it } from 'vitest';
import { RawClient } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';
import { NodeProcess, useCluster } from './support/cluster.js';
import { expectCountedProgress, SUMMARY, summarySampling } from './support/clusterClient.js';
import { eventually } from './support/eventually.js';

const cluster = useCluster({ durable: true });

/** A fetch that records which node (nginx's `X-Upstream`) answered each request. */
function recordingFetch(upstreams: string[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    upstreams.push(response.headers.get('x-upstream') ?? '?');
    return response;
  }) as typeof fetch;
}

/**
 * Opens the session's GET stream through the balancer, trying again (every 100 ms, up to 15 s)
 * while it is refused with 409 because a GET that just ended has not been released yet.
 */
async function openGet(client: RawClient, signal: AbortSignal): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await client.get({}, signal);
    if (response.status !== 409 || attempt === 150) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function nodeOf(response: Response): number {
  const upstream = response.headers.get('x-upstream') ?? '';
  return cluster.nodes.findIndex((node) => upstream.endsWith(`:${node.port}`));
}

function text(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe('three nodes behind nginx round-robin', () => {
  it('serves one session from every node: tools, progress, logging, sampling and elicitation during a call', async () => {
    const upstreams: string[] = [];
    const logs: string[] = [];
    // '2025' in this file: one session served from every node (sessions, tasks, GET streams in
    // Redis) is what is under test.
    const client = new McpClient(
      { name: 'cluster-client', version: '1.0.0' },
      {
        protocolEra: '2025',
        sampling: summarySampling,
        elicitation: {
          form: async () => ({ action: 'accept', content: { name: 'Ada', date: '2026-12-24', guests: 3 } }),
        },
      },
    );
    client.onNotification('notifications/message', (params) => {
      logs.push(String(params.data));
    });
    await client.connect(
      new StreamableHttpClientTransport(cluster.balancer.url, { fetch: recordingFetch(upstreams) }),
    );

    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('slow_count');
    expect(text(await client.callTool('echo', { text: 'through nginx' }))).toContain('through nginx');
    await client.setLoggingLevel('info');

    await expectCountedProgress(client);
    expect(logs.filter((line) => line.includes('of 4'))).toHaveLength(4);

    // The handler runs on the node that got the call; the client's answer is POSTed through the
    // balancer, so to another node, and must reach the waiting handler.
    expect(text(await client.callTool('summarize', { text: 'Redis keeps the sessions.' }))).toContain(
      SUMMARY,
    );
    expect(text(await client.callTool('book_table', {}))).toContain('Booked Chez mcpkit for Ada, 3 guest(s)');

    // Round-robin with no stickiness: consecutive requests never land on the same node.
    const answered = upstreams.filter((upstream) => upstream !== '?');
    expect(new Set(answered).size).toBe(3);
    for (let i = 1; i < answered.length; i++) expect(answered[i]).not.toBe(answered[i - 1]);
    await client.close();
  }, 60_000);

  it('runs tasks across nodes: created on one, polled, resulted and cancelled through the others', async () => {
    const upstreams: string[] = [];
    const client = new McpClient({ name: 'tasker', version: '1.0.0' }, { protocolEra: '2025' });
    await client.connect(
      new StreamableHttpClientTransport(cluster.balancer.url, { fetch: recordingFetch(upstreams) }),
    );
    const created = await callToolAsTask(
      client,
      'research',
      { topic: 'clusters', stageMs: 30 },
      { ttl: 60_000 },
    );
    expect(created.task.status).toBe('working');
    const done = await pollTask(client, created.task.taskId);
    expect(done.status).toBe('completed');
    const result = await getTaskResult(client, created.task.taskId);
    expect(text(result)).toContain('clusters');

    const doomed = await callToolAsTask(client, 'research', { topic: 'cancelled', stageMs: 5_000 });
    expect((await cancelTask(client, doomed.task.taskId)).status).toBe('cancelled');
    expect((await getTask(client, doomed.task.taskId)).status).toBe('cancelled');
    await expect(cancelTask(client, doomed.task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect(new Set(upstreams.filter((upstream) => upstream !== '?')).size).toBe(3);
    await client.close();
  }, 60_000);

  it('fails a task whose node is killed, once its lease lapses, through any node', async () => {
    let runsOn = -1;
    const fetchRecording = (async (input: string | URL | Request, init?: RequestInit) => {
      const call = typeof init?.body === 'string' && init.body.includes('"tools/call"');
      const response = await fetch(input, init);
      if (call) runsOn = nodeOf(response);
      return response;
    }) as typeof fetch;
    const client = new McpClient({ name: 'orphaned-tasks', version: '1.0.0' }, { protocolEra: '2025' });
    await client.connect(new StreamableHttpClientTransport(cluster.balancer.url, { fetch: fetchRecording }));
    const created = await callToolAsTask(
      client,
      'research',
      { topic: 'lost', stageMs: 10_000 },
      { ttl: 300_000 },
    );
    expect(runsOn).toBeGreaterThanOrEqual(0);
    expect((await getTask(client, created.task.taskId)).status).toBe('working');

    await cluster.nodes[runsOn]!.kill();
    // Polled through the balancer (the surviving nodes): failed once the lease (3 s) lapses.
    let task = await getTask(client, created.task.taskId);
    for (let poll = 0; task.status === 'working' && poll < 100; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      task = await getTask(client, created.task.taskId);
    }
    expect(task).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/lease expired/) });
    await expect(getTaskResult(client, created.task.taskId)).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/stopped before it finished/),
    });
    await client.close();
    cluster.nodes[runsOn] = await NodeProcess.start(cluster.redis.url, cluster.nodes[runsOn]!.port);
  }, 60_000);

  it('ends a session on every node with one DELETE', async () => {
    const client = new RawClient(cluster.balancer.url);
    await client.connect();
    expect((await client.request('tools/list')).status).toBe(200);
    expect((await client.delete()).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await client.request('tools/list')).status).toBe(404);
  }, 30_000);

  it('reaches a subscriber with resources/updated whichever node holds its GET stream', async () => {
    const client = new McpClient({ name: 'subscriber', version: '1.0.0' }, { protocolEra: '2025' });
    const updates: string[] = [];
    client.onNotification('notifications/resources/updated', (params) => {
      updates.push(String(params.uri));
    });
    await client.connect(new StreamableHttpClientTransport(cluster.balancer.url));
    await client.subscribeResource('demo://clock');
    // The demo's clock ticks every 5 s on each node; the node that ticks writes to the session's
    // shared stream, and the node holding the GET (another one, round-robin) carries it.
    await eventually(() => updates.includes('demo://clock'), 'a clock update', 20_000);
    await client.close();
  }, 30_000);

  it('holds one GET stream per session across all nodes, released when it ends or its node dies', async () => {
    const client = new RawClient(cluster.balancer.url);
    await client.connect();
    const leave = new AbortController();
    const first = await client.get({}, leave.signal);
    expect(first.status).toBe(200);
    // Round-robin: these land on every node, the holder's included; each refuses a second GET.
    const refused = [];
    for (let i = 0; i < 3; i++) {
      const second = await client.get();
      refused.push({ node: nodeOf(second), status: second.status });
      await second.body?.cancel();
    }
    expect(new Set(refused.map((answer) => answer.node)).size).toBe(3);
    expect(refused.map((answer) => answer.status)).toEqual([409, 409, 409]);

    // The client leaves: the stream is free again, on any node.
    leave.abort();
    const again = new AbortController();
    const reopened = await openGet(client, again.signal);
    expect(reopened.status).toBe(200);

    // Its node dies without releasing it: the hold lapses with its lease, and a GET opens elsewhere.
    const holder = nodeOf(reopened);
    await cluster.nodes[holder]!.kill();
    const afterKill = await openGet(client, new AbortController().signal);
    expect(afterKill.status).toBe(200);
    expect(nodeOf(afterKill)).not.toBe(holder);
    await afterKill.body?.cancel();
    cluster.nodes[holder] = await NodeProcess.start(cluster.redis.url, cluster.nodes[holder]!.port);
  }, 60_000);

  it('answers 503 with a JSON-RPC error while Redis is away, never crashes, and recovers', async () => {
    const client = new RawClient(cluster.balancer.url);
    await client.connect();
    await cluster.redis.stop();
    for (let i = 0; i < 3; i++) {
      const refused = await client.post({ jsonrpc: '2.0', id: 100 + i, method: 'tools/list' });
      expect(refused.status).toBe(503);
      const body = (await refused.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32603 } });
      expect(body.error.message).toMatch(/session store cannot be reached/);
    }
    await expect(new RawClient(cluster.balancer.url).connect()).rejects.toThrow(/503/);
    expect(cluster.nodes.every((node) => node.running)).toBe(true);

    await cluster.redis.start();
    // Each node's ioredis reconnects on its own backoff, so nodes come back one by one; recovered
    // means three answers in a row (one per node, round-robin) serve the same session again.
    let inARow = 0;
    for (let attempt = 0; attempt < 200 && inARow < 3; attempt++) {
      const status = (await client.request('tools/list')).status;
      inARow = status === 200 ? inARow + 1 : 0;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(inARow).toBe(3);
    const fresh = new RawClient(cluster.balancer.url);
    await fresh.connect();
    expect((await fresh.request('tools/list')).status).toBe(200);
  }, 60_000);
});
