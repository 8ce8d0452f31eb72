import { Connection, createInMemoryPair, type IncomingRequest, McpError, type Task } from '@mcpkit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from './client.js';
import { callToolAsTask, getTaskResult, isTaskTerminal, onTaskStatus, pollTask } from './tasks.js';

const STAMP = '2025-11-25T10:00:00.000Z';

function task(status: Task['status'], extra: Partial<Task> = {}): Task {
  return { taskId: 't-1', status, createdAt: STAMP, lastUpdatedAt: STAMP, ttl: 60_000, ...extra };
}

/** A scripted server on a raw connection: answers tasks/get from a queue and records when. */
async function scriptedServer(answers: Record<string, (request: IncomingRequest) => unknown>) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const calls: Array<{ method: string; at: number }> = [];
  const server = new Connection(serverSide, {
    onRequest: (request) => {
      if (request.method === 'initialize') {
        return {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
          serverInfo: { name: 'scripted', version: '1' },
        };
      }
      calls.push({ method: request.method, at: Date.now() });
      const answer = answers[request.method];
      if (!answer) throw new McpError(-32601, `Method not found: ${request.method}`);
      return answer(request);
    },
    onNotification: () => {},
  });
  await server.start();
  // Tasks as 2025-11-25 has them: no era probe, which this scripted server would record.
  const client = new Client({ name: 'c', version: '1' }, { onError: () => {}, protocolEra: '2025' });
  const connecting = client.connect(clientSide);
  await vi.advanceTimersByTimeAsync(1);
  await connecting;
  return { client, server, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('client task helpers', () => {
  it('polls at the server-suggested pollInterval until terminal, reporting each new status', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const script = [
      task('working', { pollInterval: 500 }),
      task('input_required', { pollInterval: 500 }),
      task('completed'),
    ];
    const { client, calls } = await scriptedServer({ 'tasks/get': () => script.shift() });
    const start = Date.now();
    const seen: string[] = [];
    const polling = pollTask(client, 't-1', { onStatus: (t) => seen.push(t.status) });
    await vi.advanceTimersByTimeAsync(2_000);
    const done = await polling;
    expect(done.status).toBe('completed');
    expect(seen).toEqual(['working', 'input_required', 'completed']);
    expect(calls.map((call) => call.at - start)).toEqual([0, 500, 1_000]);
  });

  it('stops at input_required when asked to', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const script = [task('working', { pollInterval: 100 }), task('input_required')];
    const { client } = await scriptedServer({ 'tasks/get': () => script.shift() });
    const polling = pollTask(client, 't-1', { stopOnInputRequired: true });
    await vi.advanceTimersByTimeAsync(100);
    expect((await polling).status).toBe('input_required');
  });

  it('wakes early on a status notification for the task, and ignores other tasks', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let current = task('working', { pollInterval: 60_000 });
    const { client, server, calls } = await scriptedServer({ 'tasks/get': () => current });
    const polling = pollTask(client, 't-1');
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(1);
    await server.notify('notifications/tasks/status', { ...task('completed'), taskId: 'other' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(1);
    current = task('completed');
    await server.notify('notifications/tasks/status', current);
    await vi.advanceTimersByTimeAsync(10);
    expect((await polling).status).toBe('completed');
    expect(calls).toHaveLength(2);
  });

  it('rejects with the signal reason when aborted while waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, calls } = await scriptedServer({
      'tasks/get': () => task('working', { pollInterval: 60_000 }),
    });
    const controller = new AbortController();
    const polling = pollTask(client, 't-1', { signal: controller.signal });
    const outcome = polling.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('stop'));
    expect(await outcome).toEqual(new Error('stop'));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
  });

  it('refuses a task-augmented answer that carries no task', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client } = await scriptedServer({ 'tools/call': () => ({ content: [] }) });
    const call = callToolAsTask(client, 'x').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1);
    expect(String(await call)).toMatch(/without a task/);
  });

  it('sends the task param with the requested ttl', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let params: Record<string, unknown> | undefined;
    const { client } = await scriptedServer({
      'tools/call': (request) => {
        params = request.params;
        return { task: task('working') };
      },
    });
    const call = callToolAsTask(
      client,
      'render',
      { scene: 2 },
      { ttl: 5_000, meta: { 'com.example/trace': 'x' } },
    );
    await vi.advanceTimersByTimeAsync(1);
    expect((await call).task.taskId).toBe('t-1');
    expect(params).toMatchObject({
      name: 'render',
      arguments: { scene: 2 },
      task: { ttl: 5_000 },
      _meta: { 'com.example/trace': 'x' },
    });
  });

  it('follows a task’s progress after the CreateTaskResult, until tasks/result answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let token: unknown;
    const { client, server } = await scriptedServer({
      'tools/call': (request) => {
        token = request.progressToken;
        return { task: task('working') };
      },
      'tasks/result': () => ({ content: [] }),
    });
    const updates: number[] = [];
    const call = callToolAsTask(
      client,
      'render',
      {},
      { onProgress: ({ progress }) => updates.push(progress) },
    );
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(token).toEqual(expect.any(String));
    await server.notify('notifications/progress', { progressToken: token as string, progress: 1 });
    await vi.advanceTimersByTimeAsync(1);
    // No status notification ever says the task ended: the answer of tasks/result does.
    const result = getTaskResult(client, 't-1');
    await vi.advanceTimersByTimeAsync(1);
    await result;
    await server.notify('notifications/progress', { progressToken: token as string, progress: 2 });
    await vi.advanceTimersByTimeAsync(1);
    expect(updates).toEqual([1]);
  });

  it('ends a task’s progress watch on a terminal status notification, or when its ttl elapses', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const tokens: unknown[] = [];
    let next = 0;
    const { client, server } = await scriptedServer({
      'tools/call': (request) => {
        tokens.push(request.progressToken);
        next += 1;
        return { task: task('working', { taskId: `t-${next}`, ttl: 10_000 }) };
      },
    });
    const updates: string[] = [];
    for (const name of ['a', 'b']) {
      const call = callToolAsTask(
        client,
        name,
        {},
        { onProgress: ({ progress }) => updates.push(`${name}${progress}`) },
      );
      await vi.advanceTimersByTimeAsync(1);
      await call;
    }
    const progress = async (index: number, value: number) => {
      await server.notify('notifications/progress', {
        progressToken: tokens[index] as string,
        progress: value,
      });
      await vi.advanceTimersByTimeAsync(1);
    };
    await progress(0, 1);
    await progress(1, 1);
    await server.notify('notifications/tasks/status', task('completed', { taskId: 't-1' }));
    await vi.advanceTimersByTimeAsync(1);
    await progress(0, 2);
    await progress(1, 2);
    await vi.advanceTimersByTimeAsync(10_000);
    await progress(1, 3);
    expect(updates).toEqual(['a1', 'b1', 'b2']);
  });

  it('delivers only well-formed status notifications', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, server } = await scriptedServer({});
    const seen: string[] = [];
    const stop = onTaskStatus(client, (t) => seen.push(`${t.taskId}:${t.status}`));
    await server.notify('notifications/tasks/status', { taskId: 't-1', status: 'exploded' });
    await server.notify('notifications/tasks/status', task('failed'));
    await vi.advanceTimersByTimeAsync(1);
    stop();
    await server.notify('notifications/tasks/status', task('completed'));
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual(['t-1:failed']);
  });

  it('knows the terminal statuses', () => {
    expect(
      ['working', 'input_required', 'completed', 'failed', 'cancelled'].map((status) =>
        isTaskTerminal({ status } as Task),
      ),
    ).toEqual([false, false, true, true, true]);
  });
});
