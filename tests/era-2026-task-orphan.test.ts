/**
 * Issue 16, "a 2026 task orphaned by its caller's abort". Under 2026-07-28 the server decides
 * whether a `tools/call` becomes a task, and the task id travels only in the answer. A caller
 * that aborts while that answer is on its way rejects at once and drops the answer, so nobody
 * could ever send `tasks/cancel`: the server now cancels a task whose creating request was
 * cancelled before its answer went out (HTTP: the client left; stdio: `notifications/cancelled`),
 * or by a `notifications/cancelled` that arrives after the answer was sent (stdio). And the client
 * cancels a task it finds in an answer its caller gave up on, for servers that do not. Plain calls
 * still reject at once.
 */
import { getTask, McpClient } from '@mcpkit/client';
import { type FetchLike, StreamableHttpClientTransport } from '@mcpkit/client/http';
import type {
  MessageSink,
  Task,
  TaskCreateOptions,
  TaskRequest,
  TaskRequestor,
  Transport,
} from '@mcpkit/core';
import { InMemoryTaskStore } from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { describe, expect, it } from 'vitest';
import { createTaskOrphanServer } from './fixtures/taskOrphanServer.js';
import { cleanupsAfterEach } from './support/cleanups.js';
import { scriptedPeer } from './support/scriptedPeer.js';
import { fixtureCommand } from './support/tsFixture.js';

const INFO = { name: 'task-orphan-test', version: '1.0.0' };
const cleanups = cleanupsAfterEach();

/** A store whose `create` waits for the test: the task is being made while the caller aborts. */
class HeldCreationStore extends InMemoryTaskStore {
  private release!: () => void;
  private readonly released = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  private entered!: () => void;
  /** Resolves once a `create` waits. */
  readonly creating = new Promise<void>((resolve) => {
    this.entered = resolve;
  });
  readonly created: Task[] = [];
  override async create(request: TaskRequest, requestor: TaskRequestor, options: TaskCreateOptions) {
    this.entered();
    await this.released;
    const task = await super.create(request, requestor, options);
    this.created.push(task);
    return task;
  }
  open(): void {
    this.release();
  }
}

/**
 * A client transport that holds back the answer that carries a task (`resultType: "task"`) until
 * the test lets it through: the `CreateTaskResult` is "in flight" while the caller aborts.
 */
class TaskAnswerHold implements Transport {
  private deliver: (() => void) | undefined;
  private seen!: (taskId: string) => void;
  /** The id of the task in the held answer, once one is held. */
  readonly held = new Promise<string>((resolve) => {
    this.seen = resolve;
  });
  constructor(private readonly inner: Transport) {}
  start(sink: MessageSink): void | Promise<void> {
    return this.inner.start({
      message: (value, extra) => {
        const result = (value as { result?: { resultType?: unknown; taskId?: unknown } }).result;
        if (this.deliver || result?.resultType !== 'task') return sink.message(value, extra);
        this.deliver = () => sink.message(value, extra);
        this.seen(String(result.taskId));
      },
      parseError: (error) => sink.parseError(error),
      error: (error) => sink.error(error),
      closed: (error) => sink.closed(error),
    });
  }
  send(...args: Parameters<Transport['send']>) {
    return this.inner.send(...args);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
  /** Lets the held answer through (the client drops it: its caller gave up). */
  letThrough(): void {
    this.deliver?.();
  }
}

async function connected(transport: Transport): Promise<McpClient> {
  const client = new McpClient(INFO, { protocolEra: '2026' });
  cleanups.push(() => client.close());
  await client.connect(transport);
  expect(client.era).toBe('2026');
  return client;
}

async function statusOf(client: McpClient, taskId: string): Promise<Task['status']> {
  return (await getTask(client, taskId)).status;
}

describe("a 2026 task orphaned by its caller's abort (issue 16)", () => {
  it('stdio: an abort while the CreateTaskResult is in flight cancels the task', async () => {
    const hold = new TaskAnswerHold(new StdioClientTransport(fixtureCommand('task-orphan-server.ts')));
    const client = await connected(hold);
    const controller = new AbortController();
    const call = client.callTool('wait', {}, { signal: controller.signal });
    const taskId = await hold.held;
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    // The server answered before the cancellation arrived. The answer stays held, so the client
    // cannot cancel the task from it (that is the last test's case): only the server can end it.
    await expect.poll(() => statusOf(client, taskId), { timeout: 15_000 }).toBe('cancelled');
  });

  it('HTTP: a client that leaves while the task is being created gets its task cancelled', async () => {
    const store = new HeldCreationStore();
    const server = createTaskOrphanServer(store);
    const http = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
    cleanups.push(() => http.close());
    const client = await connected(new StreamableHttpClientTransport(new URL(http.url)));
    const controller = new AbortController();
    const call = client.callTool('wait', {}, { signal: controller.signal });
    await store.creating;
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    // The server saw the client leave (the request's throwaway session closed) before the task existed.
    await expect.poll(() => server.sessions.size, { timeout: 15_000 }).toBe(0);
    store.open();
    await expect.poll(() => store.created.length, { timeout: 15_000 }).toBe(1);
    const [task] = store.created;
    await expect.poll(() => statusOf(client, task!.taskId), { timeout: 15_000 }).toBe('cancelled');
  });

  // Issue 30: the server had answered (its request done, so it cancels nothing), and the caller
  // aborted while the client read the JSON body: the client aborted that read, dropped the only
  // copy of the task id, and the task ran to its TTL. Now a JSON answer that arrived is read to
  // its end: the client finds the task in it and cancels it.
  it('HTTP: an abort while the JSON answer with the task is being read gets the task cancelled', async () => {
    const store = new HeldCreationStore();
    store.open();
    const server = createTaskOrphanServer(store);
    const http = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
    cleanups.push(() => http.close());
    const controller = new AbortController();
    const fetchSlowly: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      if (typeof init?.body !== 'string' || !init.body.includes('"tools/call"')) return response;
      // The answer is in, the server done with it; the caller gives up as the client reads it.
      const reader = response.body!.getReader();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(stream) {
            controller.abort(new Error('caller gave up'));
            await new Promise((resolve) => setTimeout(resolve, 5));
            const { done, value } = await reader.read();
            if (done) stream.close();
            else stream.enqueue(value);
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = await connected(
      new StreamableHttpClientTransport(new URL(http.url), { fetch: fetchSlowly }),
    );
    const call = client.callTool('wait', {}, { signal: controller.signal });
    await expect(call).rejects.toThrow('caller gave up');
    expect(store.created).toHaveLength(1);
    const taskId = store.created[0]!.taskId;
    await expect
      .poll(() => getTask(client, taskId), { timeout: 15_000 })
      .toMatchObject({
        status: 'cancelled',
        statusMessage: 'The task was cancelled by request',
      });
  });

  it('client: a task in an answer that arrives after the abort gets tasks/cancel (a server that does not cancel it)', async () => {
    const cancels: unknown[] = [];
    // A bare JSON-RPC peer: it answers every call with a task and never cancels one by itself.
    const peer = await scriptedPeer((request) => {
      if (request.method === 'server/discover') return DISCOVER_RESULT;
      if (request.method === 'tasks/cancel') cancels.push(request.params?.taskId);
      if (request.method === 'tools/call') return { resultType: 'task', taskId: 'task-1', status: 'working' };
      return {};
    }, cleanups);
    const hold = new TaskAnswerHold(peer.transport);
    const client = await connected(hold);
    const controller = new AbortController();
    const call = client.callTool('wait', {}, { signal: controller.signal });
    expect(await hold.held).toBe('task-1');
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    expect(cancels).toEqual([]);
    hold.letThrough();
    await expect.poll(() => cancels, { timeout: 15_000 }).toEqual(['task-1']);
  });
});

const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bare', version: '1' } },
};
