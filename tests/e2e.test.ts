/**
 * The end-to-end suite: mcpkit's McpClient against mcpkit's McpServer over the serializing
 * in-memory pair, with both ends wrapped in a SchemaRecorder (closed mode), so every message
 * either way must match the official schema of the negotiated revision and carry nothing that
 * revision lacks.
 *
 * The first block drives every request and notification of 2025-11-25 in each direction it can
 * travel, and its last test proves it from the wire: the methods seen are compared with the
 * official schema's own `ClientRequest`, `ServerRequest`, `ClientNotification` and
 * `ServerNotification` unions. The second block runs clients pinned to each older revision
 * against the same server.
 */
import {
  callToolAndWait,
  callToolAsTask,
  cancelTask,
  getTask,
  getTaskResult,
  listTasks,
  type McpClient,
  type McpClientOptions,
  onTaskStatus,
  pollTask,
} from '@mcpkit/client';
import {
  type CallToolResult,
  CapabilityError,
  type CreateMessageResult,
  createInMemoryPair,
  type JsonRpcMessage,
  type ProgressUpdate,
  type ProtocolVersion,
  RELATED_TASK_META_KEY,
  type Task,
  type TaskStatusNotificationParams,
  type Transport,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import type { McpServer, McpServerOptions, ServerSession } from '@mcpkit/server';
import {
  cancelClientTask,
  elicitAndWait,
  getClientTask,
  getClientTaskResult,
  listClientTasks,
  pollClientTask,
  sampleAsTask,
  TaskManager,
} from '@mcpkit/server/tasks';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpkitServer, TINY_PNG } from './fixtures/mcpkitServer.js';
import {
  ClientProbe,
  callAndCancel,
  countProgress,
  probingClient,
  ROOT,
  textOf,
  tick,
} from './fixtures/probe.js';
import { eventually as until } from './support/eventually.js';
import {
  type MessageUnion,
  methodsOf,
  officialSchemaSkipped,
  SchemaRecorder,
} from './support/officialSchema.js';

// ------------------------------------------------------------------------------------------ harness

/** `C→S request tools/call`, `S→C notification notifications/progress`... as seen on the wire. */
const wire = new Set<string>();

function wireKey(direction: 'C→S' | 'S→C', kind: 'request' | 'notification', method: string): string {
  return `${direction} ${kind} ${method}`;
}

/** Records the method of every request and notification `transport` sends. */
function logWire(transport: Transport, side: 'client' | 'server'): Transport {
  const direction = side === 'client' ? 'C→S' : 'S→C';
  const note = (message: JsonRpcMessage) => {
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (typeof method === 'string')
      wire.add(wireKey(direction, id === undefined ? 'notification' : 'request', method));
  };
  return {
    start: (sink) => transport.start(sink),
    send: (message, options) => {
      for (const item of Array.isArray(message) ? message : [message]) note(item);
      return transport.send(message, options);
    },
    close: () => transport.close(),
    setProtocolVersion: (version) => transport.setProtocolVersion?.(version),
  };
}

interface Connected {
  readonly server: McpServer;
  readonly session: ServerSession;
  readonly client: McpClient;
  readonly probe: ClientProbe;
  readonly serverRecorder: SchemaRecorder;
  readonly clientRecorder: SchemaRecorder;
  readonly serverErrors: Error[];
}

const open: Connected[] = [];

interface OpenOptions {
  readonly revision?: ProtocolVersion;
  readonly server?: McpServerOptions;
  readonly client?: McpClientOptions;
}

/** A fresh fixture server and probing client, connected; closed and schema-checked after each test. */
async function connect(options: OpenOptions = {}): Promise<Connected> {
  const serverErrors: Error[] = [];
  const server = createMcpkitServer({
    pageSize: 2,
    tasks: new TaskManager({ pollInterval: 10 }),
    onError: (error) => serverErrors.push(error),
    ...options.server,
  });
  const probe = new ClientProbe();
  const client = probingClient(probe, {
    ...(options.revision ? { protocolVersions: [options.revision] } : {}),
    ...options.client,
  });
  const serverRecorder = new SchemaRecorder({ side: 'server' });
  const clientRecorder = new SchemaRecorder({ side: 'client' });
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const session = server.connect(serverRecorder.wrap(logWire(serverSide, 'server')));
  const connected = { server, session, client, probe, serverRecorder, clientRecorder, serverErrors };
  open.push(connected);
  await client.connect(clientRecorder.wrap(logWire(clientSide, 'client')));
  await until(() => session.initialized, 'notifications/initialized');
  await client.setLoggingLevel('debug');
  return connected;
}

afterEach(async () => {
  for (const { client, server, serverRecorder, clientRecorder } of open.splice(0)) {
    await client.close();
    await server.close();
    serverRecorder.assertClean();
    clientRecorder.assertClean();
    serverRecorder.assertChecked(0);
  }
});

const blockTypes = (result: CallToolResult) => result.content.map((block) => block.type);

// ------------------------------------------------------------------------------------ 2025-11-25

describe('every method of 2025-11-25, both directions, schema-checked', () => {
  it('initialize, notifications/initialized, and ping both ways', async () => {
    const { client, session } = await connect();
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo).toMatchObject({ name: 'mcpkit-fixture', title: 'mcpkit fixture' });
    expect(client.serverInfo?.icons?.[0]?.src).toBe('https://example.com/icon.png');
    expect(client.instructions).toBe('mcpkit fixture');
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(session.clientInfo).toEqual({ name: 'mcpkit-client', version: '1.0.0' });
    expect(session.clientCapabilities).toMatchObject({
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
    });
    await client.ping();
    await session.ping();
    expect(textOf(await client.callTool('ping-client'))).toBe('pong');
  });

  it('tools/list in pages; tools/call: plain, structuredContent, isError, bad arguments, unknown tool', async () => {
    const { client } = await connect();
    // A first page of two, and a cursor to the rest.
    expect(await client.listTools()).toMatchObject({ tools: [{}, {}], nextCursor: expect.any(String) });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor);
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect((await client.tools()).map((tool) => tool.name)).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(['add', 'fail', 'media', 'research', 'endless']));
    const add = (await client.tools()).find((tool) => tool.name === 'add');
    expect(add).toMatchObject({
      title: 'Add',
      outputSchema: { type: 'object' },
      icons: [{ mimeType: 'image/png' }],
    });

    const sum = await client.callTool('add', { a: 2, b: 3 });
    expect(sum).toEqual({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } });
    expect(await client.callTool('fail')).toEqual({
      content: [{ type: 'text', text: 'it went wrong' }],
      isError: true,
    });
    const invalid = await client.callTool('add', { a: 'two', b: 3 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/Invalid arguments for tool "add"/);
    await expect(client.callTool('no-such-tool')).rejects.toMatchObject({ code: -32602 });
    expect(blockTypes(await client.callTool('media'))).toEqual([
      'text',
      'image',
      'audio',
      'resource_link',
      'resource',
    ]);
    expect((await client.callTool('image')).content).toEqual([
      { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
    ]);
  });

  it('notifications/progress server → client during tools/call', async () => {
    const { client } = await connect();
    const updates: ProgressUpdate[] = [];
    const result = await client.callTool(
      'count',
      { steps: 3 },
      { onProgress: (update) => updates.push(update) },
    );
    expect(textOf(result)).toBe('counted to 3');
    expect(updates).toEqual(countProgress(3));
  });

  it('notifications/cancelled client → server aborts the tool handler', async () => {
    const { client, probe } = await connect();
    await callAndCancel(client, 'user pressed stop');
    expect(await probe.cancellation('the handler to stop')).toContain('user pressed stop');
  });

  it('notifications/cancelled server → client aborts the sampling handler', async () => {
    const { client, probe } = await connect();
    expect(textOf(await client.callTool('ask-model-then-cancel'))).toMatch(/^rejected:/);
    await until(() => probe.samplingAborted, 'the sampling handler to see the abort');
  });

  it('notifications/progress client → server for sampling/createMessage', async () => {
    const { client } = await connect();
    expect(textOf(await client.callTool('ask-model-with-progress'))).toBe('progress: 1,2');
  });

  it('resources/list in pages, resources/templates/list, resources/read (text, blob, template), -32002', async () => {
    const { client } = await connect();
    // A first page of two, and a cursor to the rest.
    expect(await client.listResources()).toMatchObject({
      resources: [{}, {}],
      nextCursor: expect.any(String),
    });
    const uris = (await client.resources()).map((resource) => resource.uri);
    expect(uris).toEqual(['mem://readme', 'mem://logo', 'mem://notes/1', 'mem://notes/2', 'mem://notes/3']);
    expect((await client.resources())[0]).toMatchObject({
      name: 'readme',
      title: 'Read me',
      annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-01T00:00:00Z' },
    });
    expect((await client.readResource('mem://readme')).contents).toEqual([
      { uri: 'mem://readme', mimeType: 'text/markdown', text: '# Hello' },
    ]);
    expect((await client.readResource('mem://logo')).contents).toEqual([
      { uri: 'mem://logo', mimeType: 'image/png', blob: TINY_PNG },
    ]);
    expect((await client.readResource('mem://notes/3')).contents).toEqual([
      { uri: 'mem://notes/3', mimeType: 'text/plain', text: 'third note' },
    ]);
    await expect(client.readResource('mem://nothing')).rejects.toMatchObject({ code: -32002 });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'mem://notes/{id}',
        name: 'note',
        title: 'Note',
        description: 'A note by id',
        mimeType: 'text/plain',
      },
    ]);
  });

  it('resources/subscribe, notifications/resources/updated, resources/unsubscribe', async () => {
    const { client, probe } = await connect();
    await expect(client.subscribeResource('mem://nothing')).rejects.toMatchObject({ code: -32002 });
    await client.subscribeResource('mem://notes/1');
    await client.callTool('touch', { uri: 'mem://notes/2' });
    await client.callTool('touch', { uri: 'mem://notes/1' });
    await until(() => probe.updates.length > 0, 'resources/updated');
    expect(probe.updates).toEqual(['mem://notes/1']);
    await client.unsubscribeResource('mem://notes/1');
    await client.callTool('touch', { uri: 'mem://notes/1' });
    await client.ping();
    expect(probe.updates).toEqual(['mem://notes/1']);
  });

  it('tools, prompts and resources list_changed refresh the client’s caches', async () => {
    const { client, probe } = await connect();
    expect((await client.tools()).some((tool) => tool.name === 'grown')).toBe(false);
    expect((await client.prompts()).some((prompt) => prompt.name === 'grown-prompt')).toBe(false);
    await client.callTool('grow');
    await until(
      () => ['tools', 'prompts', 'resources'].every((k) => probe.listChanges.includes(k)),
      'list_changed',
    );
    expect(probe.listChanges.toSorted()).toEqual(['prompts', 'resources', 'tools']);
    expect((await client.tools()).some((tool) => tool.name === 'grown')).toBe(true);
    expect((await client.prompts()).some((prompt) => prompt.name === 'grown-prompt')).toBe(true);
    expect((await client.resources()).some((resource) => resource.uri === 'mem://grown')).toBe(true);
  });

  it('prompts/list and prompts/get; a missing required argument is -32602', async () => {
    const { client } = await connect();
    const prompts = await client.prompts();
    expect(prompts.find((prompt) => prompt.name === 'greet')).toEqual({
      name: 'greet',
      title: 'Greet',
      description: 'Greets someone',
      arguments: [{ name: 'name', title: 'Name', description: 'Who to greet', required: true }],
    });
    expect(await client.getPrompt('greet', { name: 'Ada' })).toEqual({
      description: 'Greets someone',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }],
    });
    const plain = await client.getPrompt('plain');
    expect(plain.messages.map((message) => message.content.type)).toEqual(['text', 'resource']);
    await expect(client.getPrompt('greet')).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt('nope')).rejects.toMatchObject({ code: -32602 });
  });

  it('completion/complete for prompt arguments and template variables', async () => {
    const { client } = await connect();
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'A' },
      context: { arguments: {} },
    });
    expect(prompt.completion).toEqual({ values: ['Ada', 'Alan'], total: 2, hasMore: false });
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'mem://notes/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(template.completion.values).toEqual(['1', '2', '3']);
  });

  it('logging/setLevel filters notifications/message', async () => {
    const { client, probe } = await connect();
    await client.callTool('log');
    await client.ping();
    expect(probe.logs.map((log) => log.data)).toEqual(['at debug', 'at info', 'at warning', 'at error']);
    expect(probe.logs[0]).toEqual({ level: 'debug', logger: 'mcpkit-fixture', data: 'at debug' });
    await client.setLoggingLevel('warning');
    await client.callTool('log');
    await client.ping();
    expect(probe.logs.slice(4).map((log) => log.data)).toEqual(['at warning', 'at error']);
  });

  it('sampling/createMessage: plain, and with tools/toolChoice carrying tool_use and tool_result', async () => {
    const { client, probe } = await connect();
    expect(textOf(await client.callTool('ask-model'))).toBe('fake-model: [{"type":"text","text":"4"}]');
    expect(probe.sampling[0]).toMatchObject({ systemPrompt: 'Be brief', maxTokens: 20 });
    expect(textOf(await client.callTool('ask-model-with-tools'))).toBe(
      'toolUse/endTurn: [{"type":"text","text":"It is sunny"}]',
    );
    expect(probe.sampling[1]).toMatchObject({ tools: [{ name: 'weather' }], toolChoice: { mode: 'auto' } });
    expect(probe.sampling[2]?.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'use-1', name: 'weather', input: { city: 'Paris' } },
    ]);
    expect(probe.sampling[2]?.messages[2]?.content).toEqual([
      { type: 'tool_result', toolUseId: 'use-1', content: [{ type: 'text', text: 'sunny, 21°C' }] },
    ]);
  });

  it('elicitation/create in form mode (defaults applied) and URL mode, elicitation/complete, and -32042', async () => {
    const { client, probe } = await connect();
    expect(JSON.parse(textOf(await client.callTool('ask-user')))).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 30, color: 'blue' },
    });
    expect(textOf(await client.callTool('ask-url'))).toBe('accept');
    expect(probe.urlElicitations).toEqual([
      expect.objectContaining({
        mode: 'url',
        message: 'Open this page',
        url: 'https://example.com/consent',
        elicitationId: 'consent-1',
      }),
    ]);
    await until(
      () => probe.completedElicitations.includes('consent-1'),
      'notifications/elicitation/complete',
    );
    const error = await client.callTool('needs-auth').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).code).toBe(-32042);
    expect((error as UrlElicitationRequiredError).elicitations).toEqual([
      { mode: 'url', message: 'Authorize', url: 'https://example.com/authorize', elicitationId: 'auth-1' },
    ]);
  });

  it('roots/list and notifications/roots/list_changed', async () => {
    const { client, probe } = await connect();
    expect(JSON.parse(textOf(await client.callTool('list-roots')))).toEqual([ROOT]);
    await client.setRoots([ROOT, { uri: 'file:///tmp', name: 'tmp' }]);
    await until(() => probe.logged('roots changed'), 'the server to hear roots/list_changed');
    expect(JSON.parse(textOf(await client.callTool('list-roots')))).toEqual([
      ROOT,
      { uri: 'file:///tmp', name: 'tmp' },
    ]);
  });

  it('tasks the client requests: tools/call as a task, tasks/get, tasks/list, tasks/result, tasks/cancel, tasks/status', async () => {
    const { client } = await connect();
    const statuses: Task[] = [];
    onTaskStatus(client, (task) => statuses.push(task));
    const created = await callToolAsTask(client, 'research', { topic: 'MCP' }, { ttl: 60_000 });
    expect(created.task).toMatchObject({ taskId: expect.any(String), status: 'working', ttl: 60_000 });
    const taskId = created.task.taskId;
    const needsInput = await pollTask(client, taskId, { stopOnInputRequired: true });
    expect(needsInput.status).toBe('input_required');
    // tasks/result waits for the end; the task's elicitation reaches the client meanwhile.
    const result = await getTaskResult<CallToolResult>(client, taskId);
    expect(textOf(result)).toBe('report on MCP (Ada)');
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
    expect((await getTask(client, taskId)).status).toBe('completed');
    await until(
      () => statuses.some((task) => task.taskId === taskId && task.status === 'completed'),
      'tasks/status',
    );
    expect(statuses.map((task) => task.status)).toContain('input_required');

    const endless = await callToolAsTask(client, 'endless');
    expect((await listTasks(client)).tasks.map((task) => task.taskId)).toEqual(
      expect.arrayContaining([taskId, endless.task.taskId]),
    );
    expect((await cancelTask(client, endless.task.taskId)).status).toBe('cancelled');
    await expect(cancelTask(client, endless.task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(getTask(client, 'no-such-task')).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool('endless')).rejects.toMatchObject({ code: -32601 });
    // The task's progress keeps flowing on the call's progressToken after CreateTaskResult.
    const progress: ProgressUpdate[] = [];
    const waited = await callToolAndWait(
      client,
      'research',
      { topic: 'JSON-RPC' },
      { onProgress: (update) => progress.push(update) },
    );
    expect(textOf(waited)).toBe('report on JSON-RPC (Ada)');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'gathering' },
      { progress: 2, total: 2, message: 'writing' },
    ]);
  });

  it('tasks the server requests: task-augmented sampling and elicitation, tasks/get, tasks/list, tasks/result, tasks/cancel, and the client’s tasks/status', async () => {
    const received: TaskStatusNotificationParams[] = [];
    const { session, server, probe } = await connect({ client: { tasks: { pollInterval: 10 } } });
    server.setNotificationHandler('notifications/tasks/status', (params) => {
      received.push(params as TaskStatusNotificationParams);
    });
    const ask = (text: string) => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      maxTokens: 5,
    });

    const created = await sampleAsTask(session, ask('What is 2+2?'), { ttl: 60_000 });
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 10 });
    const taskId = created.task.taskId;
    expect((await pollClientTask(session, taskId)).status).toBe('completed');
    const result = await getClientTaskResult<CreateMessageResult>(session, taskId);
    expect(result.content).toEqual({ type: 'text', text: '4' });
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
    await until(
      () => received.some((task) => task.taskId === taskId && task.status === 'completed'),
      'notifications/tasks/status',
    );

    const answer = await elicitAndWait(session, {
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    expect(answer).toMatchObject({ action: 'accept', content: { name: 'Ada' } });

    // "never mind" makes the fixture's model wait until its signal fires.
    const endless = await sampleAsTask(session, ask('never mind'));
    await until(() => probe.sampling.length === 2, 'the endless sampling to start');
    expect((await listClientTasks(session)).tasks.map((task) => task.taskId)).toEqual(
      expect.arrayContaining([taskId, endless.task.taskId]),
    );
    expect((await cancelClientTask(session, endless.task.taskId)).status).toBe('cancelled');
    await until(() => probe.samplingAborted, 'the cancelled sampling to stop');
    await expect(cancelClientTask(session, endless.task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(getClientTask(session, 'no-such-task')).rejects.toMatchObject({ code: -32602 });
  });

  it.skipIf(officialSchemaSkipped)(
    'covered every request and notification of the official 2025-11-25 schema in each direction',
    () => {
      const expected: string[] = [];
      const unions: Array<[MessageUnion, 'C→S' | 'S→C', 'request' | 'notification']> = [
        ['ClientRequest', 'C→S', 'request'],
        ['ServerRequest', 'S→C', 'request'],
        ['ClientNotification', 'C→S', 'notification'],
        ['ServerNotification', 'S→C', 'notification'],
      ];
      for (const [union, direction, kind] of unions) {
        for (const method of methodsOf('2025-11-25', union).keys())
          expected.push(wireKey(direction, kind, method));
      }
      expect(expected.length).toBeGreaterThan(35);
      expect(expected.filter((key) => !wire.has(key))).toEqual([]);
    },
  );
});

// ------------------------------------------------------------------------------------ older revisions

const OLDER = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** Revision order, for "has feature X" checks. */
const atLeast = (revision: ProtocolVersion, since: ProtocolVersion) => revision >= since;

describe.each(OLDER)('a client pinned to %s against the same server', (revision) => {
  it('negotiates the revision; tools list without fields the revision lacks; results stay usable', async () => {
    const { client, session, serverRecorder, clientRecorder } = await connect({ revision });
    expect(client.protocolVersion).toBe(revision);
    expect(session.protocolVersion).toBe(revision);
    expect(serverRecorder.currentRevision).toBe(revision);
    expect(clientRecorder.currentRevision).toBe(revision);
    expect(client.serverInfo).toEqual(
      atLeast(revision, '2025-06-18')
        ? { name: 'mcpkit-fixture', version: '1.0.0', title: 'mcpkit fixture' }
        : { name: 'mcpkit-fixture', version: '1.0.0' },
    );
    expect(client.serverCapabilities?.tasks).toBeUndefined();
    await client.ping();
    await session.ping();

    const tools = await client.tools();
    const add = tools.find((tool) => tool.name === 'add')!;
    expect(add.icons).toBeUndefined();
    expect(add.execution).toBeUndefined();
    expect(add.outputSchema !== undefined).toBe(atLeast(revision, '2025-06-18'));
    expect(add.title !== undefined).toBe(atLeast(revision, '2025-06-18'));
    expect(add.annotations !== undefined).toBe(atLeast(revision, '2025-03-26'));

    // Structured output degrades to its JSON text for revisions without structuredContent.
    const sum = await client.callTool('add', { a: 2, b: 3 });
    expect(JSON.parse(textOf(sum))).toEqual({ sum: 5 });
    expect(sum.structuredContent).toEqual(atLeast(revision, '2025-06-18') ? { sum: 5 } : undefined);
    expect((await client.callTool('fail')).isError).toBe(true);

    const media = await client.callTool('media');
    expect(blockTypes(media)).toEqual([
      'text',
      'image',
      atLeast(revision, '2025-03-26') ? 'audio' : 'text',
      atLeast(revision, '2025-06-18') ? 'resource_link' : 'text',
      'resource',
    ]);
    if (!atLeast(revision, '2025-06-18')) expect(textOf(media)).toContain('mem://readme');

    const updates: ProgressUpdate[] = [];
    await client.callTool('count', { steps: 2 }, { onProgress: (update) => updates.push(update) });
    expect(updates).toEqual(
      atLeast(revision, '2025-03-26')
        ? [
            { progress: 1, total: 2, message: 'step 1' },
            { progress: 2, total: 2, message: 'step 2' },
          ]
        : [
            { progress: 1, total: 2 },
            { progress: 2, total: 2 },
          ],
    );
    await expect(callToolAsTask(client, 'research', { topic: 'x' })).rejects.toBeInstanceOf(CapabilityError);
  });

  it('resources, templates, subscriptions, prompts, completion and logging', async () => {
    const { client, probe } = await connect({ revision });
    const resources = await client.resources();
    expect(resources.map((resource) => resource.uri)).toContain('mem://notes/2');
    expect(resources[0]?.title !== undefined).toBe(atLeast(revision, '2025-06-18'));
    expect((await client.readResource('mem://notes/2')).contents[0]).toMatchObject({ text: 'second note' });
    expect((await client.readResource('mem://logo')).contents[0]).toMatchObject({ blob: TINY_PNG });
    expect((await client.resourceTemplates()).map((template) => template.uriTemplate)).toEqual([
      'mem://notes/{id}',
    ]);
    await client.subscribeResource('mem://readme');
    await client.callTool('touch', { uri: 'mem://readme' });
    await until(() => probe.updates.includes('mem://readme'), 'resources/updated');
    await client.unsubscribeResource('mem://readme');

    const greet = (await client.prompts()).find((prompt) => prompt.name === 'greet');
    expect(greet?.title !== undefined).toBe(atLeast(revision, '2025-06-18'));
    expect((await client.getPrompt('greet', { name: 'Ada' })).messages).toHaveLength(1);

    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'G' },
      context: { arguments: {} },
    });
    expect(completion.completion.values).toEqual(['Grace']);

    await client.setLoggingLevel('error');
    await client.callTool('log');
    await client.ping();
    expect(probe.logs.map((log) => log.data)).toEqual(['at error']);

    await client.callTool('grow');
    await until(() => probe.listChanges.length === 3, 'list_changed');
    expect((await client.tools()).some((tool) => tool.name === 'grown')).toBe(true);
  });

  it('sampling, elicitation, roots and cancellation as far as the revision has them', async () => {
    const { client, probe } = await connect({ revision });
    expect(textOf(await client.callTool('ask-model'))).toBe('fake-model: [{"type":"text","text":"4"}]');
    // Sampling with tools is 2025-11-25: the server refuses it locally, and the tool reports that.
    const withTools = await client.callTool('ask-model-with-tools');
    expect(withTools.isError).toBe(true);
    expect(textOf(withTools)).toMatch(/sampling\.tools/);
    expect(probe.sampling).toHaveLength(1);
    // The client's progress (sent with a message) reaches the server in the revision's shape.
    expect(textOf(await client.callTool('ask-model-with-progress'))).toBe('progress: 1,2');

    const form = await client.callTool('ask-user');
    if (atLeast(revision, '2025-06-18')) {
      // `default` on elicitation fields is 2025-11-25, so an older client cannot fill it in.
      expect(JSON.parse(textOf(form))).toEqual({ action: 'accept', content: { name: 'Ada' } });
    } else {
      expect(form.isError).toBe(true);
      expect(textOf(form)).toMatch(/elicitation/);
    }
    const url = await client.callTool('ask-url');
    expect(url.isError).toBe(true);
    expect(probe.urlElicitations).toEqual([]);

    expect(JSON.parse(textOf(await client.callTool('list-roots')))).toEqual([ROOT]);
    await client.setRoots([{ uri: 'file:///tmp' }]);
    await until(() => probe.logged('roots changed'), 'roots/list_changed');

    await callAndCancel(client, 'stop');
    await probe.cancellation('the handler to stop');
    expect(textOf(await client.callTool('ask-model-then-cancel'))).toMatch(/^rejected:/);
    await until(() => probe.samplingAborted, 'the sampling handler to see the abort');
    await tick();
  });
});
