import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpError } from '../jsonrpc/errors.js';
import { InMemoryTaskStore } from './memoryStore.js';
import type { TaskEvent } from './store.js';

const CALL = { method: 'tools/call' };
const A = 'session:a';
const B = 'session:b';

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof McpError ? error.code : undefined;
  }
  throw new Error('expected a rejection');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('InMemoryTaskStore', () => {
  it('creates working tasks with random UUIDs, timestamps, ttl and pollInterval', async () => {
    const store = new InMemoryTaskStore();
    const one = await store.create(CALL, A, { ttl: 60_000, pollInterval: 250 });
    const two = await store.create(CALL, A, { ttl: null });
    expect(one).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 250 });
    expect(two.ttl).toBeNull();
    expect(two.pollInterval).toBeUndefined();
    expect(one.taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(one.taskId).not.toBe(two.taskId);
    expect(new Date(one.createdAt).toISOString()).toBe(one.createdAt);
    expect(one.lastUpdatedAt).toBe(one.createdAt);
    store.close();
  });

  it('hides a task from every requestor but its own', async () => {
    const store = new InMemoryTaskStore();
    const task = await store.create(CALL, A, { ttl: 60_000 });
    await store.setResult(task.taskId, 'completed', { result: { content: [] } });
    expect(await store.get(task.taskId, B)).toBeUndefined();
    expect(await store.getResult(task.taskId, B)).toBeUndefined();
    expect(await store.waitForTerminal(task.taskId, B)).toBeUndefined();
    expect((await store.list(B)).tasks).toEqual([]);
    expect(await codeOf(store.cancel(task.taskId, B))).toBe(-32602);
    expect((await store.get(task.taskId, A))?.status).toBe('completed');
    store.close();
  });

  it('enforces the status machine: terminal states never change', async () => {
    const store = new InMemoryTaskStore();
    const events: TaskEvent[] = [];
    store.subscribe((event) => events.push(event));
    const task = await store.create(CALL, A, { ttl: 60_000 });
    await store.update(task.taskId, { status: 'input_required', statusMessage: 'Waiting for the user' });
    expect((await store.get(task.taskId, A))?.statusMessage).toBe('Waiting for the user');
    await store.update(task.taskId, { status: 'working' });
    const cancelled = await store.cancel(task.taskId, A);
    expect(cancelled.status).toBe('cancelled');
    const late = await store.setResult(task.taskId, 'completed', { result: { content: [] } });
    expect(late?.status).toBe('cancelled');
    expect((await store.update(task.taskId, { status: 'working' }))?.status).toBe('cancelled');
    expect(await codeOf(store.cancel(task.taskId, A))).toBe(-32602);
    expect(await store.getResult(task.taskId, A)).toEqual({
      error: { code: -32603, message: 'The task was cancelled' },
    });
    const statuses = events.flatMap((event) => (event.type === 'status' ? [event.task.status] : []));
    expect(statuses).toEqual(['input_required', 'working', 'cancelled']);
    store.close();
  });

  it('resolves waiters on the terminal state, and forgets aborted ones', async () => {
    const store = new InMemoryTaskStore();
    const task = await store.create(CALL, A, { ttl: 60_000 });
    const abandoned = new AbortController();
    const gaveUp = store.waitForTerminal(task.taskId, A, abandoned.signal);
    const waiting = store.waitForTerminal(task.taskId, A);
    abandoned.abort(new Error('client went away'));
    await expect(gaveUp).rejects.toThrow('client went away');
    await store.setResult(task.taskId, 'failed', { result: { isError: true, content: [] } }, 'boom');
    await expect(waiting).resolves.toMatchObject({ status: 'failed', statusMessage: 'boom' });
    await expect(store.waitForTerminal(task.taskId, A)).resolves.toMatchObject({ status: 'failed' });
    store.close();
  });

  it('refuses tasks beyond the per-requestor and total caps', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 3, maxTasksPerRequestor: 2 });
    await store.create(CALL, A, { ttl: 60_000 });
    await store.create(CALL, A, { ttl: 60_000 });
    expect(await codeOf(store.create(CALL, A, { ttl: 60_000 }))).toBe(-32600);
    await store.create(CALL, B, { ttl: 60_000 });
    await expect(store.create(CALL, 'session:c', { ttl: 60_000 })).rejects.toThrow(/maximum of 3 tasks/);
    store.close();
  });

  it('expires tasks with one timer, frees their results, and makes room again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const store = new InMemoryTaskStore({ maxTasksPerRequestor: 2 });
    const deleted: TaskEvent[] = [];
    store.subscribe((event) => {
      if (event.type === 'deleted') deleted.push(event);
    });
    const short = await store.create(CALL, A, { ttl: 1_000 });
    const long = await store.create(CALL, A, { ttl: 5_000 });
    await store.setResult(short.taskId, 'completed', { result: { content: [{ type: 'text', text: 'x' }] } });
    const waiter = store.waitForTerminal(long.taskId, A);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.size).toBe(1);
    expect(await store.get(short.taskId, A)).toBeUndefined();
    expect(await store.getResult(short.taskId, A)).toBeUndefined();
    await store.create(CALL, A, { ttl: 60_000 });
    await vi.advanceTimersByTimeAsync(4_000);
    await expect(waiter).resolves.toBeUndefined();
    expect(store.size).toBe(1);
    expect(deleted).toEqual([
      { type: 'deleted', taskId: short.taskId, expired: true },
      { type: 'deleted', taskId: long.taskId, expired: true },
    ]);
    store.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps tasks with a null ttl until deleted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const store = new InMemoryTaskStore();
    const task = await store.create(CALL, A, { ttl: null });
    await vi.advanceTimersByTimeAsync(30 * 24 * 3_600_000);
    expect((await store.get(task.taskId, A))?.status).toBe('working');
    expect(await store.delete(task.taskId)).toBe(true);
    expect(await store.delete(task.taskId)).toBe(false);
    expect(store.size).toBe(0);
  });

  it('pages with opaque cursors that survive deletions, and rejects foreign cursors', async () => {
    const store = new InMemoryTaskStore({ pageSize: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.create(CALL, A, { ttl: 60_000 })).taskId);
    await store.create(CALL, B, { ttl: 60_000 });
    const first = await store.list(A);
    expect(first.tasks.map((task) => task.taskId)).toEqual(ids.slice(0, 2));
    await store.delete(ids[1]!);
    await store.delete(ids[2]!);
    const second = await store.list(A, first.nextCursor);
    expect(second.tasks.map((task) => task.taskId)).toEqual(ids.slice(3, 5));
    expect(second.nextCursor).toBeUndefined();
    for (const bad of [
      '',
      'not base64!',
      btoa('task-seq:x'),
      btoa('other:1'),
      btoa(`task-seq:${'9'.repeat(40)}`),
    ]) {
      expect(await codeOf(store.list(A, bad))).toBe(-32602);
    }
    store.close();
  });

  it('reports subscriber errors without failing the change', async () => {
    const errors: Error[] = [];
    const store = new InMemoryTaskStore({ onError: (error) => errors.push(error) });
    store.subscribe(() => {
      throw new Error('listener bug');
    });
    const task = await store.create(CALL, A, { ttl: 60_000 });
    await store.cancel(task.taskId, A);
    expect((await store.get(task.taskId, A))?.status).toBe('cancelled');
    expect(errors.map((error) => error.message)).toEqual(['listener bug']);
    store.close();
  });

  it('rejects invalid limits', () => {
    expect(() => new InMemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ pageSize: 1.5 })).toThrow(RangeError);
  });
});
