/**
 * Interoperability with the official TypeScript SDK (`@modelcontextprotocol/sdk`), both ways and
 * over two transports:
 *
 * - mcpkit's McpClient against an official McpServer (tests/fixtures/sdkServer.ts);
 * - the official Client against mcpkit's McpServer (tests/fixtures/mcpkitServer.ts);
 *
 * each in-process over mcpkit's serializing in-memory pair, and across a process boundary over
 * stdio. The mcpkit end of every in-memory connection is wrapped in a SchemaRecorder, so each
 * message either way is also checked against the official schema.
 */
import type { McpClient } from '@mcpkit/client';
import { createInMemoryPair, type ProgressUpdate, type Transport } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { TaskManager } from '@mcpkit/server/tasks';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpkitServer } from './fixtures/mcpkitServer.js';
import * as officialChecks from './fixtures/mcpkitServerSuite.js';
import { officialPeer } from './fixtures/mcpkitServerSuite.js';
import { ClientProbe, callAndCancel, countProgress, textOf } from './fixtures/probe.js';
import { fromSdkTransport, toSdkTransport } from './fixtures/sdkBridge.js';
import { SdkProbe, type SdkProbingClient, sdkProbingClient, sdkText } from './fixtures/sdkProbingClient.js';
import { createSdkServer } from './fixtures/sdkServer.js';
import * as sdkChecks from './fixtures/sdkServerSuite.js';
import { eventually as until } from './support/eventually.js';
import { type SchemaFailure, SchemaRecorder } from './support/officialSchema.js';
import { fixtureCommand } from './support/tsFixture.js';

/** A fixture launched with plain Node, running TypeScript from source. */
function spawnFixture(file: string): StdioClientTransport {
  return new StdioClientTransport(fixtureCommand(file));
}

// -------------------------------------------------------------------------------------------------
// mcpkit client → official server

interface OfficialServerConnection {
  readonly transport: Transport;
  close(): Promise<void>;
}

const officialServerConnections: Record<string, () => Promise<OfficialServerConnection>> = {
  'in-memory': async () => {
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    const server = createSdkServer();
    await server.connect(toSdkTransport(serverSide));
    return { transport: clientSide, close: () => server.close() };
  },
  stdio: async () => {
    const transport = spawnFixture('sdk-server.ts');
    return { transport, close: () => transport.close() };
  },
};

describe.each(Object.keys(officialServerConnections))(
  'mcpkit McpClient → official McpServer (%s)',
  (mode) => {
    const probe = new ClientProbe();
    const recorder = new SchemaRecorder({ side: 'client' });
    let connection: OfficialServerConnection;
    let client: McpClient;

    beforeAll(async () => {
      connection = await officialServerConnections[mode]!();
      client = await sdkChecks.connectToSdkFixture(probe, recorder, connection.transport);
    });

    afterAll(async () => {
      await client?.close();
      await connection?.close();
    });

    it('initializes on 2025-11-25 and pings both ways', async () => {
      sdkChecks.expectSdkFixtureInfo(client);
      await client.ping();
      expect(textOf(await client.callTool('ping-client'))).toBe('pong');
    });

    it('lists tools and calls them: structuredContent checked against outputSchema, isError, images', async () => {
      await sdkChecks.expectSdkToolCalls(client);
      const add = (await client.tools()).find((tool) => tool.name === 'add');
      expect(add?.annotations?.readOnlyHint).toBe(true);
      const invalid = await client.callTool('add', { a: 'two', b: 3 }).catch((error: unknown) => error);
      expect(invalid instanceof Error || (invalid as { isError?: boolean }).isError === true).toBe(true);
    });

    it('receives progress for a tool call', async () => {
      const updates: ProgressUpdate[] = [];
      const result = await client.callTool('count', { steps: 3 }, { onProgress: (u) => updates.push(u) });
      expect(textOf(result)).toBe('counted to 3');
      expect(updates).toEqual(countProgress(3));
    });

    it('cancels a tool call: the server sees notifications/cancelled', async () => {
      await callAndCancel(client, 'user pressed stop');
      expect(await probe.cancellation('the server log')).toContain('user pressed stop');
    });

    it('lists and reads resources and templates, completing a template variable', async () => {
      await sdkChecks.expectSdkResources(client, expect.any(String));
    });

    it('subscribes, receives resources/updated, and stops after unsubscribing', async () => {
      await sdkChecks.expectSdkSubscriptionStops(client, probe);
    });

    it('lists and gets prompts, with completion of an argument', async () => {
      await sdkChecks.expectSdkPrompts(client);
      const plain = await client.getPrompt('plain');
      expect(plain.messages[1]?.content).toMatchObject({
        type: 'resource',
        resource: { uri: 'mem://readme' },
      });
    });

    it('filters log messages by logging/setLevel', async () => {
      await client.setLoggingLevel('warning');
      const before = probe.logs.length;
      await client.callTool('log');
      await client.ping();
      expect(probe.logs.slice(before).map((log) => log.data)).toEqual(['at warning', 'at error']);
      await client.setLoggingLevel('debug');
      await client.callTool('log');
      await until(() => probe.logs.filter((log) => log.data === 'at debug').length === 1, 'debug logs');
    });

    it('answers sampling, including tools, tool_use and tool_result', async () => {
      expect(textOf(await client.callTool('ask-model'))).toBe('fake-model: [{"type":"text","text":"4"}]');
      expect(probe.sampling.at(-1)).toMatchObject({ systemPrompt: 'Be brief', maxTokens: 20 });
      const withTools = await client.callTool('ask-model-with-tools');
      expect(textOf(withTools)).toBe('toolUse/endTurn: [{"type":"text","text":"It is sunny"}]');
      const [first, second] = probe.sampling.slice(-2);
      expect(first).toMatchObject({ toolChoice: { mode: 'auto' }, tools: [{ name: 'weather' }] });
      expect(second?.messages[2]?.content).toEqual([
        { type: 'tool_result', toolUseId: 'use-1', content: [{ type: 'text', text: 'sunny, 21°C' }] },
      ]);
    });

    it('sends progress for a server request (client → server notifications/progress)', async () => {
      expect(textOf(await client.callTool('ask-model-with-progress'))).toBe('progress: 1,2');
    });

    it('honours the server cancelling its own sampling request', async () => {
      const result = await client.callTool('ask-model-then-cancel');
      expect(textOf(result)).toMatch(/^rejected:/);
      await until(() => probe.samplingAborted, 'the sampling handler to see the abort');
    });

    it('answers form elicitation with schema defaults applied', async () => {
      const answer = JSON.parse(textOf(await client.callTool('ask-user')));
      expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, color: 'blue' } });
    });

    it('answers URL elicitation and receives notifications/elicitation/complete', async () => {
      expect(textOf(await client.callTool('ask-url'))).toBe('accept');
      expect(probe.urlElicitations.at(-1)).toMatchObject({ url: 'https://example.com/consent' });
      await until(() => probe.completedElicitations.includes('consent-1'), 'elicitation/complete');
    });

    it('surfaces -32042 as UrlElicitationRequiredError', async () => {
      await sdkChecks.expectSdkUrlElicitationRequired(client);
    });

    it('serves roots and announces roots/list_changed', async () => {
      await sdkChecks.expectSdkRootsChanged(client, probe);
    });

    it('refreshes its caches on tools, prompts and resources list_changed', async () => {
      expect((await client.tools()).some((tool) => tool.name === 'grown')).toBe(false);
      await sdkChecks.expectSdkListChanged(client, probe);
      expect((await client.resources()).some((resource) => resource.uri === 'mem://grown')).toBe(true);
    });

    it('every message matched the official schema', () => {
      recorder.assertChecked(60);
      recorder.assertClean();
    });
  },
);

// -------------------------------------------------------------------------------------------------
// official client → mcpkit server

interface McpkitServerConnection {
  readonly transport: SdkTransport;
  close(): Promise<void>;
}

const mcpkitServerConnections: Record<string, (recorder: SchemaRecorder) => Promise<McpkitServerConnection>> =
  {
    'in-memory': async (recorder) => {
      const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
      const server = createMcpkitServer({ tasks: new TaskManager({ pollInterval: 20 }) });
      server.connect(recorder.wrap(serverSide));
      return { transport: toSdkTransport(clientSide), close: () => server.close() };
    },
    stdio: async (recorder) => {
      const stdio = new SdkStdioClientTransport({ ...fixtureCommand('mcpkit-server.ts'), stderr: 'pipe' });
      // Here the recorder sits on the client's end of the pipe: it sees the same traffic.
      const transport = toSdkTransport(recorder.wrap(fromSdkTransport(stdio)));
      return { transport, close: () => stdio.close() };
    },
  };

/**
 * The official client's `callToolStream` copies the call's `task` into the params of the
 * `tasks/get` and `tasks/result` requests it sends, which the schema does not allow (mcpkit's
 * server ignores the member). Exactly that is tolerated; anything else the client or the server
 * sends must match the schema.
 */
function isSdkTaskParamDefect(failure: SchemaFailure): boolean {
  return (
    failure.direction === 'client-to-server' &&
    (failure.definition === 'GetTaskRequest' || failure.definition === 'GetTaskPayloadRequest') &&
    failure.errors.every((error) => error.endsWith('must NOT have additional properties "task"'))
  );
}

describe.each(Object.keys(mcpkitServerConnections))('official Client → mcpkit McpServer (%s)', (mode) => {
  const probe = new SdkProbe();
  const recorder = new SchemaRecorder({ side: mode === 'stdio' ? 'client' : 'server' });
  let connection: McpkitServerConnection;
  let client: SdkProbingClient;
  const peer = officialPeer(() => client, probe);
  const { call } = peer;

  beforeAll(async () => {
    connection = await mcpkitServerConnections[mode]!(recorder);
    client = sdkProbingClient(probe);
    await client.connect(connection.transport);
    await client.setLoggingLevel('debug');
  });

  afterAll(async () => {
    await client?.close();
    await connection?.close();
  });

  it('initializes on 2025-11-25 and pings both ways', async () => {
    officialChecks.expectFixtureServerInfo(peer);
    expect(client.getInstructions()).toBe('mcpkit fixture');
    await client.ping();
    expect(sdkText(await call('ping-client'))).toBe('pong');
  });

  it('lists tools and calls them: structuredContent, isError, images, every content kind', async () => {
    await officialChecks.expectToolCalls(peer);
  });

  it('receives progress for a tool call', async () => {
    // The official client handles a notification a promise tick after a response read in the same
    // chunk, by which time the request (and its progress handler) is gone: over stdio the steps
    // are spaced, as real work would be.
    await officialChecks.expectToolProgress(peer, { steps: 3, delayMs: mode === 'stdio' ? 20 : 0 });
  });

  it('cancels a tool call: the handler’s signal fires', async () => {
    await officialChecks.expectCancelReachesHandler(peer);
  });

  it('lists and reads resources and templates, completing a template variable', async () => {
    await officialChecks.expectResourcesAndTemplates(peer);
  });

  it('subscribes, receives resources/updated, and stops after unsubscribing', async () => {
    await officialChecks.expectSubscriptionStops(peer);
  });

  it('lists and gets prompts, with completion of an argument', async () => {
    await officialChecks.expectPrompts(peer);
  });

  it('filters log messages by logging/setLevel', async () => {
    await officialChecks.expectLogLevelFiltering(peer);
  });

  it('answers sampling, including tools, tool_use and tool_result', async () => {
    await officialChecks.expectSampling(peer);
  });

  it('receives the client’s progress for a sampling request', async () => {
    await officialChecks.expectSamplingProgress(peer);
  });

  it('cancels its own sampling request: the client’s handler sees the abort', async () => {
    await officialChecks.expectSamplingCancelled(peer);
  });

  it('elicits a form', async () => {
    await officialChecks.expectFormElicitation(peer);
  });

  it('elicits a URL and sends notifications/elicitation/complete', async () => {
    await officialChecks.expectUrlElicitation(peer);
  });

  it('answers -32042 with the required URL elicitations', async () => {
    await officialChecks.expectUrlElicitationRequired(peer);
  });

  it('lists the client’s roots and hears roots/list_changed', async () => {
    await officialChecks.expectRootsListChanged(peer);
  });

  it('announces tools, prompts and resources list_changed', async () => {
    await officialChecks.expectListChanged(peer);
    expect((await client.listPrompts()).prompts.some((prompt) => prompt.name === 'grown-prompt')).toBe(true);
    expect((await client.listResources()).resources.some((r) => r.uri === 'mem://grown')).toBe(true);
  });

  it('runs tools as tasks for the official client: input_required, tasks/get, tasks/list, tasks/result, tasks/cancel', async () => {
    const progress: number[] = [];
    const kinds: string[] = [];
    let result: unknown;
    const stream = client.experimental.tasks.callToolStream(
      { name: 'research', arguments: { topic: 'MCP' } },
      undefined,
      { task: { ttl: 60_000 }, onprogress: (update) => progress.push(update.progress) },
    );
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(sdkText(result)).toBe('report on MCP (Ada)');
    expect(progress).toEqual([1, 2]);

    const created = await client.request(
      { method: 'tools/call', params: { name: 'endless', arguments: {}, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working');
    expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(taskId);
    expect((await client.experimental.tasks.cancelTask(taskId)).status).toBe('cancelled');
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('every message matched the official schema (but one official-client defect)', () => {
    recorder.assertChecked(60);
    expect(recorder.failures.filter((failure) => !isSdkTaskParamDefect(failure))).toEqual([]);
  });
});
