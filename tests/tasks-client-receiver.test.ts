/**
 * The client as a task receiver: a server sends task-augmented `sampling/createMessage` and
 * `elicitation/create` to an McpClient with the `tasks` option, then polls, fetches, lists and
 * cancels the client's tasks with the server-side helpers. Every message the client sends or
 * receives is checked against the official 2025-11-25 schema.
 */
import {
  Client,
  ClientTaskAbortedError,
  ClientTaskContext,
  ClientTaskReceiver,
  McpClient,
  type McpClientOptions,
  type SamplingHandler,
  type ServerRequestContext,
} from '@mcpkit/client';
import {
  CapabilityError,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  createInMemoryPair,
  type ElicitRequestFormParams,
  type ElicitResult,
  InMemoryTaskStore,
  McpError,
  type ProtocolVersion,
  RELATED_TASK_META_KEY,
  type TaskStatusNotificationParams,
} from '@mcpkit/core';
import { Server, type ServerSession } from '@mcpkit/server';
import {
  cancelClientTask,
  elicitAndWait,
  elicitAsTask,
  getClientTask,
  getClientTaskResult,
  listClientTasks,
  pollClientTask,
  sampleAndWait,
  sampleAsTask,
} from '@mcpkit/server/tasks';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually as until } from './support/eventually.js';
import { SchemaRecorder } from './support/officialSchema.js';
import { gate, rejection } from './support/promises.js';

// ---------------------------------------------------------------------------------------------

interface Connected {
  client: McpClient;
  server: Server;
  session: ServerSession;
  recorder: SchemaRecorder;
  /** `notifications/tasks/status` the server received. */
  statuses: TaskStatusNotificationParams[];
  /** `notifications/progress` the server received outside any pending request. */
  progress: Record<string, unknown>[];
  clientErrors: Error[];
}

const open: Connected[] = [];

async function connect(
  options: McpClientOptions = {},
  extra: { revision?: ProtocolVersion; record?: boolean } = {},
): Promise<Connected> {
  const server = new Server({ name: 'asks-clients', version: '1.0.0' }, { onError: () => {} });
  const statuses: TaskStatusNotificationParams[] = [];
  const progress: Record<string, unknown>[] = [];
  server.setNotificationHandler('notifications/tasks/status', (params) => {
    statuses.push(params as TaskStatusNotificationParams);
  });
  server.setNotificationHandler('notifications/progress', (params) => {
    progress.push(params);
  });
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const recorder = new SchemaRecorder({ side: 'client' });
  const session = server.connect(serverSide);
  const clientErrors: Error[] = [];
  const client = new McpClient(
    { name: 'task-receiver', version: '1.0.0' },
    {
      onError: (error) => clientErrors.push(error),
      protocolEra: '2025', // tasks are a 2025-era feature (2026-07-28 makes them an extension)
      ...(extra.revision ? { protocolVersions: [extra.revision] } : {}),
      ...options,
    },
  );
  await client.connect(extra.record === false ? clientSide : recorder.wrap(clientSide));
  await until(() => session.initialized);
  const connected = { client, server, session, recorder, statuses, progress, clientErrors };
  open.push(connected);
  return connected;
}

afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
});

const PROMPT: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the report' } }],
  maxTokens: 50,
};

const FORM: ElicitRequestFormParams = {
  message: 'Deploy to production?',
  requestedSchema: {
    type: 'object',
    properties: {
      approve: { type: 'boolean' },
      region: { type: 'string', default: 'eu-west-1' },
    },
    required: ['approve'],
  },
};

function reply(text: string): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model: 'test-model' };
}

/** A sampling handler that never answers; `signal()` is the one its (last) call got. */
function hangingModel() {
  let signal: AbortSignal | undefined;
  const sampling: SamplingHandler = async (_params, context) => {
    signal = context.signal;
    await new Promise(() => {});
    return reply('never');
  };
  return { sampling, signal: () => signal };
}

/** A sampling handler that records its calls and answers once its gate opens. */
function gatedModel() {
  const calls: Array<{ params: CreateMessageRequestParams; context: ServerRequestContext }> = [];
  const step = gate();
  const sampling = async (params: CreateMessageRequestParams, context: ServerRequestContext) => {
    calls.push({ params, context });
    await step.opened;
    return reply('the summary');
  };
  return { calls, step, sampling };
}

// ---------------------------------------------------------------------------------------------

describe('client task receiver: capabilities', () => {
  it('declares tasks.requests for the handlers it has, with list and cancel', async () => {
    const { client, session } = await connect({
      sampling: async () => reply('x'),
      elicitation: { form: async () => ({ action: 'decline' }) },
      tasks: true,
    });
    const expected = {
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    };
    expect(client.capabilities.tasks).toEqual(expected);
    expect(session.clientCapabilities.tasks).toEqual(expected);
  });

  it('declares only what it serves: sampling alone, no list or cancel when disabled, nothing without handlers', () => {
    const info = { name: 'c', version: '1' };
    const samplingOnly = new McpClient(info, {
      sampling: async () => reply('x'),
      tasks: { list: false, cancel: false },
    });
    expect(samplingOnly.capabilities.tasks).toEqual({ requests: { sampling: { createMessage: {} } } });
    const urlOnly = new McpClient(info, {
      elicitation: { url: async () => ({ action: 'accept' }) },
      tasks: true,
    });
    expect(urlOnly.capabilities.tasks?.requests).toEqual({ elicitation: { create: {} } });
    expect(new McpClient(info, { roots: [], tasks: true }).capabilities.tasks).toBeUndefined();
    expect(new McpClient(info, { sampling: async () => reply('x') }).capabilities.tasks).toBeUndefined();
  });
});

describe('client task receiver: sampling as a task', () => {
  it('answers CreateTaskResult, runs the handler as the task, and tasks/result gives the CreateMessageResult', async () => {
    const model = gatedModel();
    const { session, recorder } = await connect({ sampling: model.sampling, tasks: { pollInterval: 10 } });
    const created = await sampleAsTask(session, PROMPT, { ttl: 60_000 });
    const { task } = created;
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 10 });
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(task.createdAt)).not.toBeNaN();
    expect(task.lastUpdatedAt).toBe(task.createdAt);

    await until(() => model.calls.length === 1, 'the handler to start');
    const [call] = model.calls;
    // The handler sees the request without the task param, and a context tied to the task.
    expect(call?.params).not.toHaveProperty('task');
    expect(call?.params.messages).toEqual(PROMPT.messages);
    expect(call?.context).toBeInstanceOf(ClientTaskContext);
    expect((call!.context as ClientTaskContext).taskId).toBe(task.taskId);
    expect((await getClientTask(session, task.taskId)).status).toBe('working');

    // tasks/result blocks until the task is terminal.
    let settled = false;
    const result = getClientTaskResult<CreateMessageResult>(session, task.taskId).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    model.step.open();
    const answer = await result;
    expect(answer).toEqual({
      ...reply('the summary'),
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
    const done = await pollClientTask(session, task.taskId);
    expect(done.status).toBe('completed');
    recorder.assertClean();
    recorder.assertChecked(6);
  });

  it('sampleAndWait polls to the end and reports each status; the server hears every status notification', async () => {
    const model = gatedModel();
    const { session, recorder, statuses } = await connect({
      sampling: model.sampling,
      tasks: { pollInterval: 10 },
    });
    const seen: string[] = [];
    const waiting = sampleAndWait(session, PROMPT, { onStatus: (task) => seen.push(task.status) });
    await until(() => model.calls.length === 1, 'the handler to start');
    model.step.open();
    const answer = await waiting;
    expect(answer.content).toEqual({ type: 'text', text: 'the summary' });
    expect(seen[0]).toBe('working');
    expect(seen.at(-1)).toBe('completed');
    await until(() => statuses.some((status) => status.status === 'completed'), 'the status notification');
    const [status] = statuses;
    const taskId = (model.calls[0]!.context as ClientTaskContext).taskId;
    expect(status).toMatchObject({ taskId, status: 'completed', ttl: 300_000, pollInterval: 10 });
    expect(Date.parse(status!.lastUpdatedAt)).not.toBeNaN();
    // Status notifications must not carry the related-task meta.
    expect(status?._meta).toBeUndefined();
    recorder.assertClean();
  });

  it('sends no status notifications when told not to', async () => {
    const { session, statuses } = await connect({
      sampling: async () => reply('x'),
      tasks: { pollInterval: 10, statusNotifications: false },
    });
    const { task } = await sampleAsTask(session, PROMPT);
    expect((await pollClientTask(session, task.taskId)).status).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statuses).toEqual([]);
  });

  it('honours the requested ttl within the client’s bounds', async () => {
    const { session } = await connect({
      sampling: async () => reply('x'),
      tasks: { defaultTtl: 20_000, maxTtl: 30_000, minTtl: 5_000 },
    });
    expect((await sampleAsTask(session, PROMPT)).task.ttl).toBe(20_000);
    expect((await sampleAsTask(session, PROMPT, { ttl: 25_000 })).task.ttl).toBe(25_000);
    expect((await sampleAsTask(session, PROMPT, { ttl: 3_600_000 })).task.ttl).toBe(30_000);
    expect((await sampleAsTask(session, PROMPT, { ttl: 1 })).task.ttl).toBe(5_000);
  });

  it('fails the task with the handler’s McpError, and hides a crash behind -32603', async () => {
    let crash = false;
    const { session, recorder, clientErrors } = await connect({
      sampling: async () => {
        if (crash) throw new Error('model key /secret/path leaked');
        throw new McpError(-32602, 'The prompt is too long');
      },
      tasks: { pollInterval: 10 },
    });
    const refused = await sampleAsTask(session, PROMPT);
    const failed = await pollClientTask(session, refused.task.taskId);
    expect(failed).toMatchObject({ status: 'failed', statusMessage: 'The prompt is too long' });
    const error = await rejection(getClientTaskResult(session, refused.task.taskId));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('The prompt is too long');

    crash = true;
    const crashed = await sampleAsTask(session, PROMPT);
    await pollClientTask(session, crashed.task.taskId);
    const internal = await rejection(getClientTaskResult(session, crashed.task.taskId));
    expect(internal.code).toBe(-32603);
    expect(internal.message).not.toContain('secret');
    expect(clientErrors.map((e) => e.message)).toContain('model key /secret/path leaked');
    recorder.assertClean();
  });

  it('keeps the original progressToken valid until the task ends, tagged with the task', async () => {
    let context: ServerRequestContext | undefined;
    const step = gate();
    const { session, progress, recorder } = await connect({
      sampling: async (_params, ctx) => {
        context = ctx;
        await ctx.sendProgress({ progress: 1, total: 2, message: 'thinking' });
        await step.opened;
        await ctx.sendProgress({ progress: 2, total: 2 });
        return reply('done');
      },
      tasks: { pollInterval: 10 },
    });
    const token = 'sampling-progress-1';
    // The server's own token, kept as is because the engine is told not to add one.
    const { task } = await sampleAsTask(
      session,
      { ...PROMPT, _meta: { progressToken: token } },
      { resetTimeoutOnProgress: false },
    );
    await until(() => progress.length === 1, 'the first progress');
    expect(context?.progressToken).toBe(token);
    step.open();
    await pollClientTask(session, task.taskId);
    await context!.sendProgress({ progress: 3, total: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(progress.map(({ progressToken, progress: value }) => [progressToken, value])).toEqual([
      [token, 1],
      [token, 2],
    ]);
    expect(progress[0]?._meta).toEqual({ [RELATED_TASK_META_KEY]: { taskId: task.taskId } });
    recorder.assertClean();
  });
});

describe('client task receiver: elicitation as a task', () => {
  it('runs a form elicitation as a task, with schema defaults applied to the result', async () => {
    const forms: ElicitRequestFormParams[] = [];
    const { session, recorder, statuses } = await connect({
      elicitation: {
        form: async (params) => {
          forms.push(params);
          return { action: 'accept', content: { approve: true } };
        },
      },
      tasks: { pollInterval: 10 },
    });
    const { task } = await elicitAsTask(session, FORM, { ttl: 120_000 });
    expect(task).toMatchObject({ status: 'working', ttl: 120_000 });
    const done = await pollClientTask(session, task.taskId);
    expect(done.status).toBe('completed');
    const answer = await getClientTaskResult<ElicitResult>(session, task.taskId);
    expect(answer).toEqual({
      action: 'accept',
      content: { approve: true, region: 'eu-west-1' },
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
    expect(forms).toHaveLength(1);
    expect(forms[0]).not.toHaveProperty('task');
    expect(forms[0]?.requestedSchema).toEqual(FORM.requestedSchema);
    await until(() => statuses.length > 0, 'the status notification');
    expect(statuses.map((status) => status.status)).toEqual(['completed']);

    const again = await elicitAndWait(session, FORM);
    expect(again).toMatchObject({ action: 'accept', content: { approve: true, region: 'eu-west-1' } });
    recorder.assertClean();
  });
});

describe('client task receiver: cancellation, listing and lifetime', () => {
  it('tasks/cancel marks the task cancelled, aborts the handler, and keeps it cancelled', async () => {
    let signal: AbortSignal | undefined;
    let finish!: () => void;
    const { session, recorder, statuses } = await connect({
      sampling: async (_params, context) => {
        signal = context.signal;
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        return reply('too late');
      },
      tasks: { pollInterval: 10 },
    });
    const { task } = await sampleAsTask(session, PROMPT);
    await until(() => signal !== undefined, 'the handler to start');
    const cancelled = await cancelClientTask(session, task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(ClientTaskAbortedError);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await getClientTask(session, task.taskId)).status).toBe('cancelled');
    expect((await rejection(cancelClientTask(session, task.taskId))).code).toBe(-32602);
    const result = await rejection(getClientTaskResult(session, task.taskId));
    expect(result.code).toBe(-32603);
    await until(() => statuses.some((status) => status.status === 'cancelled'), 'the cancelled status');
    expect(statuses.map((status) => status.status)).toEqual(['cancelled']);
    recorder.assertClean();
  });

  it('sampleAndWait cancels the task when its signal aborts', async () => {
    const model = hangingModel();
    const { session } = await connect({ sampling: model.sampling, tasks: { pollInterval: 10 } });
    const controller = new AbortController();
    let taskId: string | undefined;
    const waiting = sampleAndWait(session, PROMPT, {
      signal: controller.signal,
      onStatus: (task) => {
        taskId = task.taskId;
      },
    });
    await until(() => model.signal() !== undefined, 'the handler to start');
    controller.abort(new Error('enough'));
    await expect(waiting).rejects.toThrow('enough');
    await until(() => model.signal()?.aborted === true, 'the cancel to reach the client');
    expect((await getClientTask(session, taskId!)).status).toBe('cancelled');
  });

  it('pages tasks/list, and refuses it locally when the client does not offer it', async () => {
    const { session, recorder } = await connect({
      sampling: async () => reply('x'),
      tasks: { store: new InMemoryTaskStore({ pageSize: 2 }), pollInterval: 10 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sampleAsTask(session, PROMPT)).task.taskId);
    const first = await listClientTasks(session);
    expect(first.tasks.map((task) => task.taskId)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listClientTasks(session, first.nextCursor);
    expect(second.tasks.map((task) => task.taskId)).toEqual(ids.slice(2));
    expect(second.nextCursor).toBeUndefined();
    expect((await rejection(listClientTasks(session, 'not-a-cursor'))).code).toBe(-32602);
    recorder.assertClean();

    const other = await connect({ sampling: async () => reply('x'), tasks: { list: false, cancel: false } });
    await expect(listClientTasks(other.session)).rejects.toBeInstanceOf(CapabilityError);
    await expect(cancelClientTask(other.session, 'any')).rejects.toBeInstanceOf(CapabilityError);
    // Sent anyway, bypassing the check: the client does not answer what it did not declare.
    const raw = await rejection(other.session.connection.request('tasks/list', {}));
    expect(raw.code).toBe(-32601);
  });

  it('answers -32602 for unknown tasks and another client’s tasks', async () => {
    const store = new InMemoryTaskStore();
    const one = await connect({ sampling: async () => reply('x'), tasks: { store } });
    const two = await connect({ sampling: async () => reply('x'), tasks: { store } });
    const { task } = await sampleAsTask(one.session, PROMPT);
    expect((await getClientTask(one.session, task.taskId)).taskId).toBe(task.taskId);
    expect((await rejection(getClientTask(two.session, task.taskId))).code).toBe(-32602);
    expect((await rejection(getClientTaskResult(two.session, task.taskId))).code).toBe(-32602);
    expect((await listClientTasks(two.session)).tasks).toEqual([]);
    expect((await rejection(getClientTask(one.session, 'no-such-task'))).code).toBe(-32602);
  });

  it('expires tasks after their ttl: the handler is aborted and the task is gone', async () => {
    const model = hangingModel();
    const { session } = await connect({ sampling: model.sampling, tasks: { minTtl: 1 } });
    const { task } = await sampleAsTask(session, PROMPT, { ttl: 40 });
    expect(task.ttl).toBe(40);
    await until(() => model.signal()?.aborted === true, 'the expiry');
    expect((model.signal()!.reason as Error).message).toBe('The task expired');
    expect((await rejection(getClientTask(session, task.taskId))).code).toBe(-32602);
  });

  it('aborts running tasks when the connection closes', async () => {
    const model = hangingModel();
    const { session, client } = await connect({ sampling: model.sampling, tasks: true });
    await sampleAsTask(session, PROMPT);
    await until(() => model.signal() !== undefined, 'the handler to start');
    await client.close();
    await until(() => model.signal()?.aborted === true, 'the abort');
    expect((model.signal()!.reason as Error).message).toBe('The connection closed');
  });
});

describe('client task receiver: clients that cannot run tasks', () => {
  it('refuses locally, naming the missing capability, and the plain request still works', async () => {
    const calls: CreateMessageRequestParams[] = [];
    const { session, recorder } = await connect({
      sampling: async (params) => {
        calls.push(params);
        return reply('plain');
      },
    });
    const refused = await rejection(sampleAsTask(session, PROMPT), CapabilityError);
    expect(refused).toBeInstanceOf(CapabilityError);
    expect(refused.message).toContain('tasks.requests.sampling.createMessage');
    expect(calls).toEqual([]);
    const plain = await session.request<CreateMessageResult>('sampling/createMessage', { ...PROMPT });
    expect(plain.content).toEqual({ type: 'text', text: 'plain' });
    recorder.assertClean();
  });

  it('a low-level Client runs only the handlers it wraps as tasks', async () => {
    const receiver = new ClientTaskReceiver({ pollInterval: 10 });
    const client = new Client(
      { name: 'low-level', version: '1.0.0' },
      {
        protocolEra: '2025', // as connect() above: the server's requests to the client are 2025-era
        capabilities: {
          sampling: {},
          elicitation: { form: {} },
          ...receiver.capabilitiesFor(['sampling/createMessage']),
        },
      },
    );
    client.setRequestHandler(
      'sampling/createMessage',
      receiver.taskable('sampling/createMessage', async () => reply('from a task')),
    );
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: false } }));
    receiver.install(client);
    const server = new Server({ name: 'asks-clients', version: '1.0.0' });
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    const recorder = new SchemaRecorder({ side: 'client' });
    const session = server.connect(serverSide);
    await client.connect(recorder.wrap(clientSide));
    await until(() => session.initialized);
    try {
      const refused = await rejection(elicitAsTask(session, FORM), CapabilityError);
      expect(refused).toBeInstanceOf(CapabilityError);
      expect(refused.message).toContain('tasks.requests.elicitation.create');
      const plain = await session.request<ElicitResult>('elicitation/create', { ...FORM });
      expect(plain.action).toBe('accept');
      expect((await sampleAndWait(session, PROMPT)).content).toEqual({ type: 'text', text: 'from a task' });
      recorder.assertClean();
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('refuses on a session whose revision has no tasks', async () => {
    const { session, client } = await connect(
      { sampling: async () => reply('x'), tasks: true },
      { revision: '2025-06-18' },
    );
    expect(client.protocolVersion).toBe('2025-06-18');
    const refused = await rejection(sampleAsTask(session, PROMPT), CapabilityError);
    expect(refused).toBeInstanceOf(CapabilityError);
    expect(refused.message).toMatch(/tasks/);
  });

  it('a client that did not declare task support ignores a task param and answers normally', async () => {
    const { session } = await connect({ sampling: async () => reply('plain') }, { record: false });
    // Bypasses the server's own checks, as a non-conforming server would.
    const answer = await session.connection.request<CreateMessageResult>('sampling/createMessage', {
      ...PROMPT,
      task: { ttl: 1_000 },
    });
    expect(answer).toMatchObject({ role: 'assistant', content: { type: 'text', text: 'plain' } });
    expect((answer as { task?: unknown }).task).toBeUndefined();
  });
});
