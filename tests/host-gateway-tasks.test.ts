/**
 * Tasks (2025-11-25) through the gateway, with real parts: the demo server behind it over stdio
 * (`demo`) and over HTTP (`live`), both with the task tool `research`; in front, the official SDK
 * client and McpClient over Streamable HTTP, and the SDK client over stdio to `mcpkit gateway`.
 * A task-augmented call gets a task of the gateway's whose state, result and cancellation follow
 * the upstream task; `tasks/list` shows a session only its own tasks.
 */
import { rm } from 'node:fs/promises';
import { callToolAndWait, listTasks as listUpstreamTasks, McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { Task } from '@mcpkit/core';
import type { ServerEntry } from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp, demoStdio, reference } from './fixtures/hostServers.js';
import { gatewayStdio, twoServerConfig } from './support/gatewayProcess.js';

let upstreamHttp: Awaited<ReturnType<typeof demoHttp>>;
let gateway: McpGateway;
let served: ServedHandler;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  upstreamHttp = await demoHttp('live');
  const servers: ServerEntry[] = [demoStdio('demo'), upstreamHttp.entry];
  // Every upstream in the catalogue before the first listing: a slow machine may take longer than
  // the default start budget (3 s) to start the stdio demo, and these tests are about tasks.
  gateway = createGateway({
    host: { servers, connector: nodeConnector(), startBudgetMs: Number.POSITIVE_INFINITY },
  });
  served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await served?.close();
  await gateway?.close();
  await upstreamHttp?.close();
});

async function sdkClient(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  closers.push(() => client.close());
  return client;
}

const createTask = (client: Client, name: string, args: Record<string, unknown>) =>
  client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
const getTask = (client: Client, taskId: string) =>
  client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);

/** Polls an async condition until it holds (the upstream's state is only seen by asking it). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The upstream tasks of one server, as the hosts behind the gateway's sessions see them. */
async function upstreamTasks(server: string): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const host of gateway.hosts()) {
    if (!host.status().some((s) => s.server === server && s.state === 'ready')) continue;
    tasks.push(...(await listUpstreamTasks(await host.client(server))).tasks);
  }
  return tasks;
}

describe('tasks through the gateway (SDK client over HTTP)', () => {
  it('offers a task tool as optional, and refuses a task for a tool without task support', async () => {
    const client = await sdkClient('lister');
    expect(client.getServerCapabilities()?.tasks?.requests?.tools?.call).toEqual({});
    const { tools } = await client.listTools();
    const research = tools.find((tool) => tool.name === 'live__research');
    expect(research?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'demo__echo')?.execution).toBeUndefined();
    await expect(createTask(client, 'demo__echo', { text: 'x' })).rejects.toMatchObject({ code: -32601 });
  });

  it('a task follows the upstream task to its result, with status notifications', async () => {
    const client = await sdkClient('follower');
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params.status));
    const { task } = await createTask(client, 'live__research', { topic: 'tides', stageMs: 50 });
    expect(task.status).toBe('working');
    const result = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CallToolResultSchema,
    );
    expect(JSON.stringify(result.content)).toContain('Report on \\"tides\\"');
    expect((await getTask(client, task.taskId)).status).toBe('completed');
    await until(async () => statuses.includes('completed'), 'the completed status notification');
    // The upstream ran it as a task of its own: the gateway followed that one.
    const upstream = await upstreamTasks('live');
    expect(upstream.some((t) => t.status === 'completed')).toBe(true);
    expect(upstream.map((t) => t.taskId)).not.toContain(task.taskId);
  });

  it('cancelling the gateway task cancels the upstream task (stdio upstream)', async () => {
    const client = await sdkClient('canceller');
    const { task } = await createTask(client, 'demo__research', { topic: 'slow', stageMs: 5_000 });
    await until(
      async () => (await upstreamTasks('demo')).some((t) => t.status === 'working'),
      'the upstream task',
    );
    const cancelled = await client.request(
      { method: 'tasks/cancel', params: { taskId: task.taskId } },
      CancelTaskResultSchema,
    );
    expect(cancelled.status).toBe('cancelled');
    await until(async () => {
      const upstream = await upstreamTasks('demo');
      return upstream.length > 0 && upstream.every((t) => t.status === 'cancelled');
    }, 'the upstream task cancelled');
    expect((await getTask(client, task.taskId)).status).toBe('cancelled');
  });

  it('tasks/list shows each session only its own tasks, and another session cannot read them', async () => {
    const [a, b] = [await sdkClient('a'), await sdkClient('b')];
    const ta = (await createTask(a, 'live__research', { topic: 'a', stageMs: 10 })).task;
    const tb = (await createTask(b, 'demo__research', { topic: 'b', stageMs: 10 })).task;
    const ids = async (client: Client) =>
      (await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema)).tasks.map(
        (t) => t.taskId,
      );
    expect(await ids(a)).toEqual([ta.taskId]);
    expect(await ids(b)).toEqual([tb.taskId]);
    await expect(getTask(a, tb.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('a plain call of the task tool still answers plainly', async () => {
    const client = await sdkClient('plain');
    const result = await client.callTool({
      name: 'demo__research',
      arguments: { topic: 'plain', stageMs: 10 },
    });
    expect(JSON.stringify(result.content)).toContain('Report on');
  });
});

describe('an upstream task that needs input (the everything server)', () => {
  it('the gateway task goes input_required with it, the elicitation reaches the caller tagged with the gateway task, and the task completes', async () => {
    const own = createGateway({
      host: {
        servers: [reference('everything', 'server-everything', ['stdio'])],
        connector: nodeConnector(),
      },
    });
    const ownServed = await serve(own.httpHandler(), { port: 0, path: '/mcp' });
    closers.push(async () => {
      await ownServed.close();
      await own.close();
    });
    const client = new Client(
      { name: 'asked', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const statuses: string[] = [];
    let asked = 0;
    const relatedTo: unknown[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params.status));
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked++;
      relatedTo.push(request.params._meta?.['io.modelcontextprotocol/related-task']);
      const schema = 'requestedSchema' in request.params ? request.params.requestedSchema : undefined;
      const [field] = Object.keys(schema?.properties ?? {});
      return { action: 'accept', content: field ? { [field]: 'historical' } : {} };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(ownServed.url)));
    closers.push(() => client.close());
    const { task } = await createTask(client, 'simulate-research-query', { topic: 'tides', ambiguous: true });
    const result = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CallToolResultSchema,
    );
    expect(asked).toBe(1);
    // Asked through the gateway's task: tagged with its id, never the upstream's.
    expect(relatedTo).toEqual([{ taskId: task.taskId }]);
    expect(JSON.stringify(result.content)).toContain('historical');
    expect(statuses).toContain('input_required');
    expect((await getTask(client, task.taskId)).status).toBe('completed');
  }, 60_000);
});

describe('tasks through the gateway (McpClient over HTTP)', () => {
  // 2025: the client asks for a task (`task` param) and polls it. 2026-07-28: the client declares
  // the tasks extension and the gateway decides (the tool offers task support): a task of the
  // gateway's, answered in the extension's form, that the client follows with `tasks/get`.
  for (const protocolEra of ['2025', '2026'] as const) {
    it(`callToolAndWait sees the statuses and gets the result of a stdio upstream task (${protocolEra})`, async () => {
      const client = new McpClient({ name: 'mcpkit', version: '1.0.0' }, { protocolEra, onError: () => {} });
      closers.push(() => client.close());
      await client.connect(new StreamableHttpClientTransport(new URL(served.url)));
      expect(client.era).toBe(protocolEra);
      const seen: string[] = [];
      const result = await callToolAndWait(
        client,
        'demo__research',
        { topic: 'moons', stageMs: 50 },
        { onStatus: (task) => void seen.push(task.status) },
      );
      expect(JSON.stringify(result.content)).toContain('Report on \\"moons\\"');
      expect(seen).toContain('working');
    });
  }
});

describe('tasks through `mcpkit gateway --stdio` (SDK client)', () => {
  it('creates, polls and reads a task of the demo server over stdio', async () => {
    const { dir, config } = await twoServerConfig('mcpkit-gateway-tasks-');
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const client = new Client({ name: 'sdk-stdio', version: '1.0.0' });
    await client.connect(new StdioClientTransport(gatewayStdio(config, 'ignore')));
    closers.push(() => client.close());
    const { task } = await createTask(client, 'research', { topic: 'stdio', stageMs: 10 });
    await until(
      async () => (await getTask(client, task.taskId)).status === 'completed',
      'the task to complete',
    );
    const result = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CallToolResultSchema,
    );
    expect(JSON.stringify(result.content)).toContain('Report on \\"stdio\\"');
  });
});
