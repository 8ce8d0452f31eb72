import {
  callToolAndWait,
  callToolAsTask,
  cancelTask,
  getTask,
  getTaskResult,
  listTasks,
  McpClient,
  type McpClientOptions,
  onTaskStatus,
  pollTask,
} from '@mcpkit/client';
import {
  type AuthInfo,
  type CallToolResult,
  CapabilityError,
  createInMemoryPair,
  McpError,
  MODEL_IMMEDIATE_RESPONSE_META_KEY,
  type ProgressUpdate,
  type ProtocolVersion,
  RELATED_TASK_META_KEY,
  type Task,
  type TaskStatusNotificationParams,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { McpServer, type RequestContext, Server, type ServerSession } from '@mcpkit/server';
import {
  InMemoryTaskStore,
  TaskAbortedError,
  TaskManager,
  type TaskManagerOptions,
} from '@mcpkit/server/tasks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually as until } from './support/eventually.js';
import { officialSchemaSkipped, SchemaRecorder } from './support/officialSchema.js';
import { gate, rejection } from './support/promises.js';

// ---------------------------------------------------------------------------------------------
// A server with task support built on the low-level Server and the TaskManager, the way
// McpServer wires it: the tool's execution.taskSupport decides, -32601 for the wrong mode.

type TaskSupport = 'forbidden' | 'optional' | 'required';

interface TestTool {
  taskSupport?: TaskSupport;
  immediate?: string;
  run: (args: Record<string, unknown>, ctx: RequestContext) => CallToolResult | Promise<CallToolResult>;
}

/** A task-optional tool that answers `answer` once `release` opens. */
function gatedTool(release: { opened: Promise<void> }, answer: string): TestTool {
  return {
    taskSupport: 'optional',
    run: async () => {
      await release.opened;
      return text(answer);
    },
  };
}

/** {@link taskServer} with a single task-optional tool, `t`, that runs `run`. */
function oneTaskTool(run: TestTool['run'], options?: TaskManagerOptions): Harness {
  return taskServer({ t: { taskSupport: 'optional', run } }, options);
}

interface Harness {
  server: Server;
  tasks: TaskManager;
  store: InMemoryTaskStore;
  errors: Error[];
}

function taskServer(tools: Record<string, TestTool>, options: TaskManagerOptions = {}): Harness {
  const store = (options.store as InMemoryTaskStore | undefined) ?? new InMemoryTaskStore();
  const tasks = new TaskManager({ pollInterval: 20, ...options, store });
  const errors: Error[] = [];
  const server = new Server(
    { name: 'tasks-test', version: '1.0.0' },
    {
      capabilities: { tools: {}, logging: {}, ...tasks.capabilities },
      onError: (error) => errors.push(error),
    },
  );
  tasks.install(server);
  server.setRequestHandler('tools/list', () => ({
    tools: Object.entries(tools).map(([name, tool]) => ({
      name,
      inputSchema: { type: 'object' },
      ...(tool.taskSupport ? { execution: { taskSupport: tool.taskSupport } } : {}),
    })),
  }));
  server.setRequestHandler('tools/call', (params, ctx) => {
    const name = params.name as string;
    const tool = tools[name];
    if (!tool) throw new McpError(-32602, `Unknown tool: ${name}`);
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const task = tasks.requested(params, ctx);
    const support = tool.taskSupport ?? 'forbidden';
    if (task && support === 'forbidden') throw new McpError(-32601, `Tool "${name}" cannot run as a task`);
    if (!task && support === 'required') throw new McpError(-32601, `Tool "${name}" must run as a task`);
    if (!task) return tool.run(args, ctx);
    return tasks.run(ctx, { method: 'tools/call', params }, (taskCtx) => tool.run(args, taskCtx), {
      task,
      ...(tool.immediate === undefined ? {} : { modelImmediateResponse: tool.immediate }),
    });
  });
  return { server, tasks, store, errors };
}

interface Connected {
  client: McpClient;
  session: ServerSession;
  recorder: SchemaRecorder;
}

async function connect(
  server: Server,
  options: McpClientOptions = {},
  extra?: { authInfo: AuthInfo },
): Promise<Connected> {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true, ...(extra ? { extra } : {}) });
  const recorder = new SchemaRecorder({ side: 'client' });
  const session = server.connect(serverSide);
  const client = new McpClient(
    { name: 'tasks-client', version: '1.0.0' },
    { onError: () => {}, protocolEra: '2025', ...options },
  );
  await client.connect(recorder.wrap(clientSide));
  await until(() => session.initialized);
  return { client, session, recorder };
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function statusesOf(client: McpClient, taskId?: () => string | undefined): TaskStatusNotificationParams[] {
  const seen: TaskStatusNotificationParams[] = [];
  onTaskStatus(client, (task) => {
    if (!taskId || task.taskId === taskId()) seen.push(task);
  });
  return seen;
}

afterEach(() => {
  vi.useRealTimers();
});

// ---------------------------------------------------------------------------------------------

describe('tasks: tools/call as a task', () => {
  it('creates a task, polls it to completed, and returns the tool result with related-task meta', async () => {
    const { server } = taskServer({
      slow: { taskSupport: 'optional', run: async (args) => text(`hello ${String(args.who)}`) },
    });
    const { client, recorder } = await connect(server);
    expect(client.serverCapabilities?.tasks).toEqual({
      cancel: {},
      list: {},
      requests: { tools: { call: {} } },
    });

    const created = await callToolAsTask(client, 'slow', { who: 'Ada' }, { ttl: 30_000 });
    expect(created.task).toMatchObject({ status: 'working', ttl: 30_000, pollInterval: 20 });
    expect(created.task.createdAt).toBe(created.task.lastUpdatedAt);
    expect(created._meta).toBeUndefined();

    const seen: string[] = [];
    const done = await pollTask(client, created.task.taskId, { onStatus: (task) => seen.push(task.status) });
    expect(done.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');

    const result = await getTaskResult<CallToolResult>(client, created.task.taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId: created.task.taskId });
    recorder.assertClean();
    recorder.assertChecked(6);
  });

  it('caps the requested ttl and applies the default one', async () => {
    const { server } = taskServer(
      { t: { taskSupport: 'optional', run: () => text('x') } },
      { maxTtl: 10_000, defaultTtl: 2_000, minTtl: 500 },
    );
    const { client } = await connect(server);
    expect((await callToolAsTask(client, 't', {}, { ttl: 999_999 })).task.ttl).toBe(10_000);
    expect((await callToolAsTask(client, 't')).task.ttl).toBe(2_000);
    expect((await callToolAsTask(client, 't', {}, { ttl: 1 })).task.ttl).toBe(500);
    const bad = await rejection(
      client.request('tools/call', { name: 't', arguments: {}, task: { ttl: -5 } }),
    );
    expect(bad.code).toBe(-32602);
  });

  it('refuses tasks beyond the per-client cap with -32600, without creating them', async () => {
    const { server, store } = taskServer(
      { t: { taskSupport: 'optional', run: () => text('x') } },
      { store: new InMemoryTaskStore({ maxTasksPerRequestor: 2 }) },
    );
    const a = await connect(server);
    const b = await connect(server);
    await callToolAsTask(a.client, 't');
    await callToolAsTask(a.client, 't');
    const refused = await rejection(callToolAsTask(a.client, 't'));
    expect(refused.code).toBe(-32600);
    expect(refused.message).toMatch(/at most 2 tasks/);
    expect(store.size).toBe(2);
    expect((await callToolAsTask(b.client, 't')).task.status).toBe('working');
  });

  it('puts the tool-provided model-immediate-response in the CreateTaskResult', async () => {
    const { server } = taskServer({
      t: { taskSupport: 'required', immediate: 'Rendering has started.', run: () => text('x') },
    });
    const { client, recorder } = await connect(server);
    const created = await callToolAsTask(client, 't');
    expect(created._meta?.[MODEL_IMMEDIATE_RESPONSE_META_KEY]).toBe('Rendering has started.');
    recorder.assertClean();
  });

  it('blocks tasks/result until the task is terminal', async () => {
    const release = gate();
    const { server } = taskServer({ t: gatedTool(release, 'finally') });
    const { client, recorder } = await connect(server);
    const { task } = await callToolAsTask(client, 't');
    let settled = false;
    const pending = getTaskResult<CallToolResult>(client, task.taskId).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(settled).toBe(false);
    expect((await getTask(client, task.taskId)).status).toBe('working');
    release.open();
    expect((await pending).content).toEqual([{ type: 'text', text: 'finally' }]);
    recorder.assertClean();
  });

  it('fails the task on isError, and tasks/result returns that same result', async () => {
    const { server } = oneTaskTool(() => ({ ...text('disk full'), isError: true }));
    const { client, recorder } = await connect(server);
    const { task } = await callToolAsTask(client, 't');
    const done = await pollTask(client, task.taskId);
    expect(done).toMatchObject({ status: 'failed', statusMessage: 'disk full' });
    const result = await getTaskResult<CallToolResult>(client, task.taskId);
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'disk full' }] });
    recorder.assertClean();
  });

  it('fails the task on a thrown McpError and reproduces the same JSON-RPC error', async () => {
    const { server } = oneTaskTool(() => {
      throw new McpError(-32602, 'Invalid arguments: "x" must be a number', { field: 'x' });
    });
    const { client, recorder } = await connect(server);
    const direct = await rejection(client.request('tools/call', { name: 't', arguments: {} }));
    const { task } = await callToolAsTask(client, 't');
    expect(await pollTask(client, task.taskId)).toMatchObject({
      status: 'failed',
      statusMessage: 'Invalid arguments: "x" must be a number',
    });
    const viaTask = await rejection(getTaskResult(client, task.taskId));
    expect(viaTask.toJSON()).toEqual(direct.toJSON());
    expect(viaTask.toJSON()).toEqual({
      code: -32602,
      message: 'Invalid arguments: "x" must be a number',
      data: { field: 'x' },
    });
    recorder.assertClean();
  });

  it('answers a crash as -32603 without leaking it, and reports it to onError', async () => {
    const { server, errors } = oneTaskTool(() => {
      throw new Error('secret connection string in stack');
    });
    const { client } = await connect(server);
    const { task } = await callToolAsTask(client, 't');
    const done = await pollTask(client, task.taskId);
    expect(done).toMatchObject({ status: 'failed', statusMessage: 'Internal error' });
    const error = await rejection(getTaskResult(client, task.taskId));
    expect(error.toJSON()).toEqual({ code: -32603, message: 'Internal error' });
    expect(errors.map((e) => e.message)).toContain('secret connection string in stack');
  });
});

describe('tasks: cancellation', () => {
  it('marks the task cancelled before answering, aborts the handler, and keeps it cancelled', async () => {
    let reason: unknown;
    let started = false;
    const finish = gate();
    const { server } = oneTaskTool(async (_args, ctx) => {
      started = true;
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      reason = ctx.signal.reason;
      await finish.opened;
      return text('finished anyway');
    });
    const { client, recorder } = await connect(server);
    const { task } = await callToolAsTask(client, 't');
    const statuses = statusesOf(client);
    await until(() => started, 'the tool to start');
    const cancelled = await cancelTask(client, task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    // The status notification was sent before the response, so it is already here.
    expect(statuses.map((s) => s.status)).toEqual(['cancelled']);
    await until(() => reason !== undefined, 'the abort');
    expect(reason).toBeInstanceOf(TaskAbortedError);
    finish.open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await getTask(client, task.taskId)).status).toBe('cancelled');
    const again = await rejection(cancelTask(client, task.taskId));
    expect(again.code).toBe(-32602);
    const result = await rejection(getTaskResult(client, task.taskId));
    expect(result.message).toBe('The task was cancelled');
    recorder.assertClean();
  });

  it('rejects cancelling a completed task with -32602', async () => {
    const { server } = oneTaskTool(() => text('ok'));
    const { client } = await connect(server);
    const { task } = await callToolAsTask(client, 't');
    await pollTask(client, task.taskId);
    expect((await rejection(cancelTask(client, task.taskId))).code).toBe(-32602);
  });

  it('keeps running after the tools/call response and is not aborted by it', async () => {
    let aborted = false;
    const { server } = oneTaskTool(async (_args, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      aborted = ctx.signal.aborted;
      return text('still here');
    });
    const { client } = await connect(server);
    const result = await callToolAndWait(client, 't');
    expect(result.content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(aborted).toBe(false);
  });

  it('cancels session-bound tasks when the session closes', async () => {
    let reason: unknown;
    const { server, store } = oneTaskTool(
      (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            resolve(text('stopped'));
          });
        }),
    );
    const { client } = await connect(server);
    await callToolAsTask(client, 't');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await client.close();
    await until(() => reason !== undefined, 'the abort');
    expect((reason as Error).message).toBe('The session closed');
    expect(store.size).toBe(1);
  });

  it('callToolAndWait cancels the task when its signal aborts', async () => {
    const { server, store } = oneTaskTool(
      (_args, ctx) =>
        new Promise<CallToolResult>((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve({ content: [] })),
        ),
    );
    const { client } = await connect(server);
    const controller = new AbortController();
    // Aborted once the client holds the task (its first status), not after a fixed time: an abort
    // while the CreateTaskResult is on its way has no task id to cancel (a loaded machine).
    const pending = callToolAndWait(
      client,
      't',
      {},
      { signal: controller.signal, onStatus: () => controller.abort(new Error('user pressed stop')) },
    );
    await expect(pending).rejects.toThrow('user pressed stop');
    const [task] = (await listTasks(client)).tasks;
    expect((await getTask(client, task!.taskId)).status).toBe('cancelled');
    expect(store.size).toBe(1);
  });
});

describe('tasks: input_required', () => {
  it('moves to input_required during an elicitation tagged with the task, then back to working', async () => {
    let elicitMeta: unknown;
    let statusDuringElicitation: string | undefined;
    let taskIdRef: string | undefined;
    const { server } = taskServer({
      ask: {
        taskSupport: 'required',
        run: async (_args, ctx) => {
          const answer = await ctx.elicit({
            message: 'Which colour?',
            requestedSchema: {
              type: 'object',
              properties: { colour: { type: 'string' } },
              required: ['colour'],
            },
          });
          await ctx.progress(1, 1);
          return text(`colour: ${String(answer.content?.colour)}`);
        },
      },
    });
    let clientRef: McpClient | undefined;
    const { client, recorder } = await connect(server, {
      elicitation: {
        form: async (params) => {
          elicitMeta = params._meta;
          statusDuringElicitation = (await getTask(clientRef!, taskIdRef!)).status;
          return { action: 'accept', content: { colour: 'teal' } };
        },
      },
    });
    clientRef = client;
    const statuses = statusesOf(client, () => taskIdRef);
    const result = await callToolAndWait(
      client,
      'ask',
      {},
      {
        onStatus: (task) => {
          taskIdRef = task.taskId;
        },
      },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'colour: teal' }]);
    expect(elicitMeta).toMatchObject({ [RELATED_TASK_META_KEY]: { taskId: taskIdRef } });
    expect(statusDuringElicitation).toBe('input_required');
    expect(statuses.map((s) => s.status)).toEqual(['input_required', 'working', 'completed']);
    for (const status of statuses) expect(status._meta).toBeUndefined();
    recorder.assertClean();
  });

  it('tags sampling requests and logs with the task', async () => {
    let samplingMeta: unknown;
    const logs: unknown[] = [];
    const { server } = oneTaskTool(async (_args, ctx) => {
      ctx.log.info('thinking');
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 5,
      });
      return text(reply.model);
    });
    const { client, recorder } = await connect(server, {
      sampling: async (params) => {
        samplingMeta = params._meta;
        return { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm-1' };
      },
    });
    client.onLog((log) => logs.push(log));
    const { task } = await callToolAsTask(client, 't');
    const result = await callToolAndWait(client, 't');
    expect(result.content).toEqual([{ type: 'text', text: 'm-1' }]);
    expect(samplingMeta).toMatchObject({ [RELATED_TASK_META_KEY]: {} });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        data: 'thinking',
        _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
      }),
    );
    recorder.assertClean();
  });
});

describe('tasks: notifications and progress', () => {
  it('sends the full Task on each status change, without related-task meta', async () => {
    const { server } = oneTaskTool(() => text('ok'));
    const { client, recorder } = await connect(server);
    const statuses = statusesOf(client);
    const { task } = await callToolAsTask(client, 't');
    await until(() => statuses.length === 1, 'the status notification');
    const [status] = statuses;
    expect(status).toMatchObject({
      taskId: task.taskId,
      status: 'completed',
      ttl: task.ttl,
      pollInterval: 20,
    });
    expect(status?.createdAt).toBe(task.createdAt);
    expect(status?._meta).toBeUndefined();
    recorder.assertClean();
  });

  it('keeps the original progressToken until the task ends, then stops', async () => {
    let taskCtx: RequestContext | undefined;
    const step = gate();
    const { server } = oneTaskTool(async (_args, ctx) => {
      taskCtx = ctx;
      await ctx.progress(1, 3, 'one');
      await step.opened;
      await ctx.progress(2, 3);
      await ctx.progress(2, 3); // not increasing: dropped
      return text('ok');
    });
    const { client, recorder } = await connect(server);
    const updates: unknown[] = [];
    const raw: Record<string, unknown>[] = [];
    client.onNotification('notifications/progress', (params) => raw.push(params));
    const pending = callToolAndWait(client, 't', {}, { onProgress: (update) => updates.push(update) });
    await until(() => updates.length === 1, 'the first progress');
    step.open();
    await pending;
    await taskCtx!.progress(3, 3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(updates).toEqual([
      { progress: 1, total: 3, message: 'one' },
      { progress: 2, total: 3 },
    ]);
    expect(raw.map((params) => params.progress)).toEqual([1, 2]);
    expect(raw[0]?._meta).toMatchObject({ [RELATED_TASK_META_KEY]: {} });
    recorder.assertClean();
  });
});

describe('tasks: callToolAsTask progress', () => {
  it('delivers onProgress for the task’s whole life, not just until the CreateTaskResult', async () => {
    let token: unknown;
    const step = gate();
    const { server } = oneTaskTool(async (_args, ctx) => {
      token = ctx.meta?.progressToken;
      await ctx.progress(1, 3, 'one');
      await step.opened;
      await ctx.progress(2, 3, 'two');
      return text('ok');
    });
    const { client, session, recorder } = await connect(server);
    const updates: ProgressUpdate[] = [];
    // The tool reports nothing before the CreateTaskResult: every update comes after it.
    const { task } = await callToolAsTask(client, 't', {}, { onProgress: (update) => updates.push(update) });
    await until(() => updates.length === 1, 'progress after the CreateTaskResult');
    step.open();
    await until(() => updates.length === 2, 'the second progress');
    expect((await pollTask(client, task.taskId)).status).toBe('completed');
    // Once the task is seen terminal the watch ends: a stray update for its token is not delivered.
    await session.notify('notifications/progress', { progressToken: token as string, progress: 9 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(updates).toEqual([
      { progress: 1, total: 3, message: 'one' },
      { progress: 2, total: 3, message: 'two' },
    ]);
    expect(token).toEqual(expect.any(String));
    recorder.assertClean();
  });
});

describe('tasks: listing and binding', () => {
  it('pages tasks/list and shows each session only its own tasks', async () => {
    const { server } = taskServer(
      { t: { taskSupport: 'optional', run: () => text('ok') } },
      { store: new InMemoryTaskStore({ pageSize: 2 }) },
    );
    const a = await connect(server);
    const b = await connect(server);
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push((await callToolAsTask(a.client, 't')).task.taskId);
    const theirs = (await callToolAsTask(b.client, 't')).task.taskId;

    const listed: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listTasks(a.client, cursor);
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      listed.push(...page.tasks.map((task) => task.taskId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(listed).toEqual(mine);
    expect((await listTasks(b.client)).tasks.map((task) => task.taskId)).toEqual([theirs]);

    expect((await rejection(getTask(b.client, mine[0]!))).code).toBe(-32602);
    expect((await rejection(getTaskResult(b.client, mine[0]!))).code).toBe(-32602);
    expect((await rejection(cancelTask(b.client, mine[0]!))).code).toBe(-32602);
    expect((await rejection(listTasks(a.client, 'bogus'))).code).toBe(-32602);
    a.recorder.assertClean();
    b.recorder.assertClean();
  });

  it('binds tasks to the auth context across sessions, and keeps them from other identities', async () => {
    const release = gate();
    const { server } = taskServer({ t: gatedTool(release, 'for alice') });
    const alice = { authInfo: { token: 'alice-token', clientId: 'app' } };
    const first = await connect(server, {}, alice);
    const { task } = await callToolAsTask(first.client, 't');
    await first.client.close();
    const again = await connect(server, {}, alice);
    const mallory = await connect(server, {}, { authInfo: { token: 'mallory-token', clientId: 'app' } });
    expect((await rejection(getTask(mallory.client, task.taskId))).code).toBe(-32602);
    expect((await listTasks(mallory.client)).tasks).toEqual([]);
    release.open();
    // Auth-bound tasks outlive the session that created them.
    const result = await getTaskResult<CallToolResult>(again.client, task.taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'for alice' }]);
    expect((await listTasks(again.client)).tasks.map((t: Task) => t.taskId)).toEqual([task.taskId]);
  });

  it('does not advertise or answer tasks/list when disabled', async () => {
    const { server } = oneTaskTool(() => text('ok'), { list: false });
    const { client } = await connect(server);
    expect(client.serverCapabilities?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    await expect(listTasks(client)).rejects.toBeInstanceOf(CapabilityError);
    expect((await rejection(client.connection.request('tasks/list', {}))).code).toBe(-32601);
  });
});

describe('tasks: expiry', () => {
  it('expires tasks after their ttl, frees them, aborts running ones, and then answers -32602', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let reason: unknown;
    const { server, store } = taskServer(
      {
        done: { taskSupport: 'optional', run: () => text('big result '.repeat(100)) },
        hang: {
          taskSupport: 'optional',
          run: (_args, ctx) =>
            new Promise(() => {
              ctx.signal.addEventListener('abort', () => {
                reason = ctx.signal.reason;
              });
            }),
        },
      },
      { maxTtl: 5_000 },
    );
    const connecting = connect(server);
    await vi.advanceTimersByTimeAsync(50);
    const { client } = await connecting;
    const done = (await callToolAsTask(client, 'done', {}, { ttl: 1_000 })).task;
    const hang = (await callToolAsTask(client, 'hang', {}, { ttl: 60_000 })).task;
    expect(hang.ttl).toBe(5_000);
    await vi.advanceTimersByTimeAsync(10);
    expect((await getTask(client, done.taskId)).status).toBe('completed');
    expect(store.size).toBe(2);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.size).toBe(1);
    expect((await rejection(getTask(client, done.taskId))).code).toBe(-32602);
    expect((await rejection(getTaskResult(client, done.taskId))).code).toBe(-32602);

    await vi.advanceTimersByTimeAsync(4_000);
    expect(store.size).toBe(0);
    expect((reason as Error).message).toBe('The task expired');
    expect((await rejection(getTask(client, hang.taskId))).code).toBe(-32602);
    expect((await rejection(getTask(client, 'no-such-task'))).code).toBe(-32602);
  });

  it('answers a pending tasks/result with -32602 when the task expires first', async () => {
    const { server } = taskServer(
      { hang: { taskSupport: 'optional', run: () => new Promise(() => {}) } },
      { minTtl: 50, maxTtl: 50 },
    );
    const { client } = await connect(server);
    const { task } = await callToolAsTask(client, 'hang');
    expect((await rejection(getTaskResult(client, task.taskId))).code).toBe(-32602);
  });
});

describe('tasks: taskSupport and revisions', () => {
  it('enforces forbidden, optional and required', async () => {
    const { server } = taskServer({
      forbidden: { run: () => text('f') },
      optional: { taskSupport: 'optional', run: () => text('o') },
      required: { taskSupport: 'required', run: () => text('r') },
    });
    const { client, recorder } = await connect(server);
    // Locally refused: the tool list says the tool does not support tasks.
    await expect(callToolAsTask(client, 'forbidden')).rejects.toBeInstanceOf(CapabilityError);
    const forbidden = await rejection(callToolAsTask(client, 'forbidden', {}, { checkTaskSupport: false }));
    expect(forbidden.code).toBe(-32601);
    expect((await client.callTool('forbidden')).content).toEqual([{ type: 'text', text: 'f' }]);

    expect((await client.callTool('optional')).content).toEqual([{ type: 'text', text: 'o' }]);
    expect((await callToolAndWait(client, 'optional')).content).toEqual([{ type: 'text', text: 'o' }]);

    expect((await rejection(client.callTool('required'))).code).toBe(-32601);
    expect((await callToolAndWait(client, 'required')).content).toEqual([{ type: 'text', text: 'r' }]);
    recorder.assertClean();
  });

  it('refuses task augmentation locally when the server lacks tasks.requests.tools.call', async () => {
    const server = new Server({ name: 'plain', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    server.setRequestHandler('tools/call', () => text('plain'));
    const { client } = await connect(server);
    await expect(callToolAsTask(client, 'x')).rejects.toThrow(/tasks\.requests\.tools\.call/);
  });

  it('ignores task from a client on an older revision and answers normally', async () => {
    const revision: ProtocolVersion = '2025-06-18';
    const { server } = oneTaskTool(() => text('normal'));
    const { client, recorder } = await connect(server, { protocolVersions: [revision] });
    expect(client.protocolVersion).toBe(revision);
    expect(client.serverCapabilities?.tasks).toBeUndefined();
    // Sent on the raw connection: the client's own codec would strip `task` for this revision.
    const result = await client.connection.request<CallToolResult>('tools/call', {
      name: 't',
      arguments: {},
      task: { ttl: 1_000 },
    });
    expect(result).toEqual(text('normal'));
    expect((await rejection(client.connection.request('tasks/get', { taskId: 'x' }))).code).toBe(-32601);
    await expect(getTask(client, 'x')).rejects.toBeInstanceOf(CapabilityError);
    // The 2025-06-18 schema refuses only the two messages sent deliberately out of revision.
    if (officialSchemaSkipped) return;
    expect(recorder.failures.map((failure) => failure.definition)).toEqual([
      'CallToolRequest',
      'ClientRequest',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// McpServer with its `tasks` option: the same engine behind the high-level tool registry.

describe('tasks: McpServer integration', () => {
  async function mcpConnect(server: McpServer, options: McpClientOptions = {}) {
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    const recorder = new SchemaRecorder({ side: 'client' });
    server.connect(serverSide);
    const client = new McpClient(
      { name: 'tasks-client', version: '1.0.0' },
      { onError: () => {}, protocolEra: '2025', ...options },
    );
    await client.connect(recorder.wrap(clientSide));
    return { client, recorder };
  }

  function mcpServer(withTasks = true) {
    const tasks = withTasks ? new TaskManager({ pollInterval: 20 }) : undefined;
    const server = new McpServer({ name: 'mcp-tasks', version: '1.0.0' }, { tasks, onError: () => {} });
    server.tool(
      'render',
      {
        inputSchema: { type: 'object', properties: { scene: { type: 'number' } }, required: ['scene'] },
        execution: { taskSupport: 'optional' },
        modelImmediateResponse: 'Rendering started; the picture will follow.',
      },
      async (args, ctx) => {
        await ctx.progress(1, 2);
        return `scene ${String(args.scene)} rendered`;
      },
    );
    server.tool('quick', () => 'quick');
    server.tool('batch', { execution: { taskSupport: 'required' } }, () => 'batch done');
    server.tool('crash', { execution: { taskSupport: 'optional' } }, () => {
      throw new Error('renderer crashed');
    });
    server.tool('login', { execution: { taskSupport: 'optional' } }, () => {
      throw new UrlElicitationRequiredError([
        { mode: 'url', message: 'Sign in first', url: 'https://example.com/login', elicitationId: 'e-1' },
      ]);
    });
    server.tool('ask', { execution: { taskSupport: 'required' } }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Proceed?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return `answer: ${answer.action}`;
    });
    return server;
  }

  it('declares the capability, runs a tool as a task, and carries model-immediate-response', async () => {
    const server = mcpServer();
    const { client, recorder } = await mcpConnect(server);
    expect(client.serverCapabilities?.tasks).toEqual({
      cancel: {},
      list: {},
      requests: { tools: { call: {} } },
    });
    const created = await callToolAsTask(client, 'render', { scene: 7 });
    expect(created._meta?.[MODEL_IMMEDIATE_RESPONSE_META_KEY]).toBe(
      'Rendering started; the picture will follow.',
    );
    const progress: unknown[] = [];
    const result = await callToolAndWait(
      client,
      'render',
      { scene: 8 },
      { onProgress: (update) => progress.push(update) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'scene 8 rendered' }]);
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    expect((await getTaskResult<CallToolResult>(client, created.task.taskId)).content).toEqual([
      { type: 'text', text: 'scene 7 rendered' },
    ]);
    expect((await client.tools()).find((tool) => tool.name === 'render')).not.toHaveProperty(
      'modelImmediateResponse',
    );
    recorder.assertClean();
    await server.close();
  });

  it('applies taskSupport: forbidden and required answer -32601 in the wrong mode', async () => {
    const server = mcpServer();
    const { client, recorder } = await mcpConnect(server);
    expect((await rejection(callToolAsTask(client, 'quick', {}, { checkTaskSupport: false }))).code).toBe(
      -32601,
    );
    expect((await rejection(client.callTool('batch'))).code).toBe(-32601);
    expect((await callToolAndWait(client, 'batch')).content).toEqual([{ type: 'text', text: 'batch done' }]);
    expect((await client.callTool('render', { scene: 1 })).content).toEqual([
      { type: 'text', text: 'scene 1 rendered' },
    ]);
    recorder.assertClean();
    await server.close();
  });

  it('fails tasks whose tool errors, and tasks/result reproduces what a plain call returns', async () => {
    const server = mcpServer();
    const { client, recorder } = await mcpConnect(server);
    const plainCrash = await client.callTool('crash');
    const crash = await callToolAsTask(client, 'crash');
    expect(await pollTask(client, crash.task.taskId)).toMatchObject({ status: 'failed' });
    expect(await getTaskResult(client, crash.task.taskId)).toEqual({
      ...plainCrash,
      _meta: { [RELATED_TASK_META_KEY]: { taskId: crash.task.taskId } },
    });

    const plainLogin = await rejection(client.callTool('login'));
    const login = await callToolAsTask(client, 'login');
    expect((await pollTask(client, login.task.taskId)).status).toBe('failed');
    const viaTask = await rejection(getTaskResult(client, login.task.taskId));
    expect(viaTask).toBeInstanceOf(UrlElicitationRequiredError);
    expect(viaTask.toJSON()).toEqual(plainLogin.toJSON());
    recorder.assertClean();
    await server.close();
  });

  it('gives tools a task context: elicitation moves the task to input_required', async () => {
    const server = mcpServer();
    let meta: unknown;
    const { client, recorder } = await mcpConnect(server, {
      elicitation: {
        form: async (params) => {
          meta = params._meta;
          return { action: 'accept', content: { ok: true } };
        },
      },
    });
    const seen: string[] = [];
    const result = await callToolAndWait(client, 'ask', {}, { onStatus: (task) => seen.push(task.status) });
    expect(result.content).toEqual([{ type: 'text', text: 'answer: accept' }]);
    expect(meta).toMatchObject({ [RELATED_TASK_META_KEY]: { taskId: expect.any(String) } });
    expect(seen.at(-1)).toBe('completed');
    recorder.assertClean();
    await server.close();
  });

  it('refuses a tasks option that is not a TaskManager, naming the subpath to import it from', () => {
    for (const tasks of [true, { pollInterval: 20 }]) {
      expect(() => new McpServer({ name: 'x', version: '1' }, { tasks: tasks as never })).toThrow(
        /tasks: new TaskManager\(options\), from '@mcpkit\/server\/tasks'/,
      );
    }
  });

  it('aborts running tasks when the server closes', async () => {
    const server = new McpServer(
      { name: 'closing', version: '1' },
      { tasks: new TaskManager(), onError: () => {} },
    );
    let reason: unknown;
    server.tool('wait', { execution: { taskSupport: 'required' } }, (_args, ctx) => {
      return new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          resolve('stopped');
        });
      });
    });
    const { client } = await mcpConnect(server);
    await callToolAsTask(client, 'wait');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await server.close();
    await until(() => reason !== undefined, 'the abort');
    expect(reason).toBeInstanceOf(TaskAbortedError);
  });

  it('ignores task without the tasks option, and from clients on older revisions', async () => {
    const plain = mcpServer(false);
    const a = await mcpConnect(plain);
    expect(a.client.serverCapabilities?.tasks).toBeUndefined();
    const raw = { name: 'render', arguments: { scene: 2 }, task: { ttl: 1_000 } };
    expect(await a.client.connection.request('tools/call', raw)).toEqual(text('scene 2 rendered'));

    const withTasks = mcpServer();
    const b = await mcpConnect(withTasks, { protocolVersions: ['2025-06-18'] });
    expect(b.client.serverCapabilities?.tasks).toBeUndefined();
    expect(await b.client.connection.request('tools/call', raw)).toEqual(text('scene 2 rendered'));
    expect(
      await b.client.connection.request('tools/call', { name: 'batch', arguments: {}, task: {} }),
    ).toEqual(text('batch done'));
    await plain.close();
    await withTasks.close();
  });
});
