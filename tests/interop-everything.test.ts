/**
 * mcpkit's McpClient against the reference `@modelcontextprotocol/server-everything`, over stdio.
 *
 * Everything the server lists is discovered at run time (tools, resources, templates, prompts),
 * so a new server release is exercised without editing this file. Every message either way is
 * checked against the official schema of the negotiated revision.
 */
import path from 'node:path';
import {
  callToolAndWait,
  callToolAsTask,
  cancelTask,
  getTask,
  getTaskResult,
  listTasks,
  McpClient,
  pollTask,
} from '@mcpkit/client';
import {
  type CallToolResult,
  type CreateMessageRequestParams,
  type ElicitRequestURLParams,
  type LoggingMessageNotificationParams,
  McpError,
  type ProgressUpdate,
  type Prompt,
  type ResourceTemplate,
  type Tool,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleObject, sampleValue } from './fixtures/sampleValues.js';
import { repoRoot, SchemaRecorder } from './support/officialSchema.js';

const EVERYTHING = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ROOT = { uri: 'file:///work/mcpkit-interop', name: 'mcpkit-interop' };
const SAMPLED_TEXT = 'sampled by mcpkit';
const ELICITED_NAME = 'Ada Lovelace';

/**
 * Arguments the schema alone would get wrong: the long-running tool defaults to 10 s, and the gzip
 * tool's default input is a URL on the public internet (tests reach only localhost).
 */
const ARGUMENT_OVERRIDES: Readonly<Record<string, Record<string, unknown>>> = {
  'trigger-long-running-operation': { duration: 0.3, steps: 3 },
  'gzip-file-as-resource': { data: `data:text/plain;base64,${btoa('hello from mcpkit\n'.repeat(20))}` },
};

/** Tools whose run takes tasks, checked by their own test below. */
const TASK_TOOLS = new Set(['simulate-research-query']);

const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await tick();
  }
}

function texts(result: { content: CallToolResult['content'] }): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

describe('McpClient ↔ server-everything (stdio)', () => {
  const recorder = new SchemaRecorder({ side: 'client' });
  const logs: LoggingMessageNotificationParams[] = [];
  const updates: string[] = [];
  const sampled: CreateMessageRequestParams[] = [];
  const urlElicitations: ElicitRequestURLParams[] = [];
  const formMessages: string[] = [];
  let rootsAsked = 0;
  let transport: StdioClientTransport;
  let client: McpClient;
  let tools: Tool[] = [];

  beforeAll(async () => {
    client = new McpClient(
      { name: 'mcpkit-interop', version: '1.0.0' },
      {
        sampling: async (params) => {
          sampled.push(params);
          return {
            role: 'assistant',
            content: { type: 'text', text: SAMPLED_TEXT },
            model: 'mcpkit-test-model',
            stopReason: 'endTurn',
          };
        },
        elicitation: {
          form: async (params) => {
            formMessages.push(params.message);
            const content = sampleObject(params.requestedSchema) as Record<string, never>;
            if ('name' in content) Object.assign(content, { name: ELICITED_NAME });
            // The official JSON Schema types form values as integers (schema.ts says number), so a
            // fractional answer would be flagged by the recorder: answer with whole numbers.
            for (const [key, value] of Object.entries(content)) {
              if (typeof value === 'number') Object.assign(content, { [key]: Math.round(value) });
            }
            if ('interpretation' in content) Object.assign(content, { interpretation: 'historical' });
            return { action: 'accept', content };
          },
          url: async (params) => {
            urlElicitations.push(params);
            return { action: 'accept' };
          },
        },
        roots: () => {
          rootsAsked++;
          return [ROOT];
        },
      },
    );
    client.onLog((message) => logs.push(message));
    client.onResourceUpdated((uri) => updates.push(uri));
    transport = new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'] });
    const init = await client.connect(recorder.wrap(transport));
    expect(init.protocolVersion).toBe('2025-11-25');
    expect(init.serverInfo.name).toBe('mcp-servers/everything');
    tools = await client.tools();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('negotiated 2025-11-25 and sees the server’s declared capabilities', () => {
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
    expect(client.instructions).toEqual(expect.any(String));
  });

  it('pings the server', async () => {
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it('lists the tools that depend on the capabilities this client declared', () => {
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'get-roots-list',
        'trigger-sampling-request',
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'simulate-research-query',
      ]),
    );
  });

  it('answers the server’s roots/list, and again after roots/list_changed', async () => {
    await until(() => rootsAsked > 0, 'the initial roots/list');
    let secondAsked = 0;
    await client.setRoots(() => {
      secondAsked++;
      return [ROOT, { uri: 'file:///work/second', name: 'second' }];
    });
    await until(() => secondAsked > 0, 'roots/list after roots/list_changed');
    const result = await client.callTool('get-roots-list');
    expect(texts(result)).toContain('file:///work/second');
  });

  it('calls every listed tool with arguments drawn from its inputSchema', async () => {
    await client.setLoggingLevel('debug');
    const failures: string[] = [];
    const called: string[] = [];
    for (const tool of tools) {
      if (TASK_TOOLS.has(tool.name)) continue;
      const args = { ...sampleObject(tool.inputSchema), ...ARGUMENT_OVERRIDES[tool.name] };
      const progress: ProgressUpdate[] = [];
      try {
        const result = await client.callTool(tool.name, args, {
          onProgress: (update) => progress.push(update),
        });
        called.push(tool.name);
        expect(result.isError, `${tool.name}: ${texts(result)}`).not.toBe(true);
        expect(result.content.length, tool.name).toBeGreaterThan(0);
        await checkTool(tool, args, result, progress);
      } catch (error) {
        failures.push(`${tool.name}(${JSON.stringify(args)}): ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(called.length).toBe(tools.length - TASK_TOOLS.size);
  });

  /** What each well-known tool must have done beyond returning content. */
  async function checkTool(
    tool: Tool,
    args: Record<string, unknown>,
    result: CallToolResult,
    progress: ProgressUpdate[],
  ): Promise<void> {
    switch (tool.name) {
      case 'echo':
        expect(texts(result)).toContain(String(args.message));
        return;
      case 'get-sum':
        expect(texts(result)).toContain(String(Number(args.a) + Number(args.b)));
        return;
      case 'get-structured-content':
        // McpClient already validated it against the tool's outputSchema.
        expect(tool.outputSchema).toBeDefined();
        expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
        return;
      case 'get-tiny-image':
        expect(result.content.some((block) => block.type === 'image')).toBe(true);
        return;
      case 'get-annotated-message':
        expect(result.content.some((block) => block.annotations !== undefined)).toBe(true);
        return;
      case 'get-resource-links': {
        const links = result.content.filter((block) => block.type === 'resource_link');
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) {
          const read = await client.readResource(link.uri);
          expect(read.contents[0]?.uri).toBe(link.uri);
        }
        return;
      }
      case 'get-resource-reference':
        expect(result.content.some((block) => block.type === 'resource')).toBe(true);
        return;
      case 'gzip-file-as-resource': {
        const link = result.content.find((block) => block.type === 'resource_link');
        expect(link).toBeDefined();
        const read = await client.readResource((link as { uri: string }).uri);
        expect(read.contents[0]).toMatchObject({ mimeType: 'application/gzip', blob: expect.any(String) });
        return;
      }
      case 'trigger-long-running-operation':
        expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
        expect(progress.every((p) => p.total === 3)).toBe(true);
        return;
      case 'get-roots-list':
        expect(texts(result)).toContain(ROOT.uri);
        return;
      case 'trigger-sampling-request':
        expect(texts(result)).toContain(SAMPLED_TEXT);
        expect(sampled.at(-1)?.messages[0]?.content).toMatchObject({
          text: expect.stringContaining('mcpkit'),
        });
        return;
      case 'trigger-elicitation-request':
        expect(texts(result)).toContain(ELICITED_NAME);
        return;
      case 'trigger-url-elicitation':
        expect(urlElicitations.at(-1)?.url).toBe(args.url);
        expect(texts(result)).toContain('completed');
        return;
      case 'toggle-simulated-logging':
        await until(() => logs.length > 0, 'a simulated log message');
        return;
      default:
        return;
    }
  }

  it('turns a -32042 error into UrlElicitationRequiredError, and the retry succeeds', async () => {
    const args = { url: 'https://example.com/authorize', errorPath: true };
    const error = await client.callTool('trigger-url-elicitation', args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    const required = error as UrlElicitationRequiredError;
    expect(required.code).toBe(-32042);
    expect(required.elicitations[0]).toMatchObject({ mode: 'url', url: expect.stringMatching(/^https:/) });
    const retry = await client.callTool('trigger-url-elicitation', args);
    expect(texts(retry)).toContain('completed');
  });

  it('subscribes to a resource, receives resources/updated, and unsubscribes', async () => {
    const [resource] = await client.resources();
    expect(resource).toBeDefined();
    const uri = resource!.uri;
    await client.subscribeResource(uri);
    // The tool toggles updates; its first round is sent at once.
    const toggled = await client.callTool('toggle-subscriber-updates');
    if (texts(toggled).startsWith('Stopped')) await client.callTool('toggle-subscriber-updates');
    await until(() => updates.includes(uri), `resources/updated for ${uri}`);
    await client.unsubscribeResource(uri);
  });

  it('reads every listed resource, following pagination', async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor);
      for (const resource of page.resources) seen.add(resource.uri);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen.size).toBeGreaterThan(0);
    for (const uri of seen) {
      const { contents } = await client.readResource(uri);
      expect(contents.length, uri).toBeGreaterThan(0);
      expect(contents[0]?.uri, uri).toBe(uri);
      const body = contents[0] as { text?: string; blob?: string };
      expect(body.text ?? body.blob, uri).toEqual(expect.any(String));
    }
  });

  it('reads an expansion of every resource template, using completion for the variable', async () => {
    const templates: ResourceTemplate[] = await client.resourceTemplates();
    expect(templates.length).toBeGreaterThan(0);
    for (const template of templates) {
      const variable = /\{([a-zA-Z0-9_]+)\}/.exec(template.uriTemplate)?.[1];
      expect(variable, template.uriTemplate).toBeDefined();
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: template.uriTemplate },
        argument: { name: variable!, value: '' },
      });
      const value = completion.values[0] ?? '1';
      const uri = template.uriTemplate.replace(`{${variable}}`, encodeURIComponent(value));
      const { contents } = await client.readResource(uri);
      expect(contents[0]?.uri).toBe(uri);
    }
  });

  it('gets every prompt, filling required arguments through completion/complete', async () => {
    const prompts: Prompt[] = await client.prompts();
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      const args: Record<string, string> = {};
      for (const argument of prompt.arguments ?? []) {
        if (!argument.required) continue;
        args[argument.name] = await suggestArgument(prompt.name, argument.name, args);
      }
      const result = await client.getPrompt(prompt.name, args);
      expect(result.messages.length, prompt.name).toBeGreaterThan(0);
    }
  });

  /**
   * A value for a prompt argument: the server's first completion of an empty prefix or, for
   * completers that only validate (ids), of a typical id; a generated string otherwise.
   */
  async function suggestArgument(prompt: string, name: string, known: Record<string, string>) {
    for (const value of ['', '1']) {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: prompt },
        argument: { name, value },
        context: { arguments: { ...known } },
      });
      if (completion.values[0] !== undefined) return completion.values[0];
    }
    return String(sampleValue({ type: 'string' }, name));
  }

  it('completion narrows by context (completable-prompt)', async () => {
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
  });

  it('surfaces the refusal of a task-required tool called without a task', async () => {
    // The spec asks for -32601; the official SDK answers with an isError result. Either way the
    // caller must learn the call did not run.
    const outcome = await client.callTool('simulate-research-query', { topic: 'x' }).catch((e: unknown) => e);
    if (outcome instanceof McpError) return;
    expect((outcome as CallToolResult).isError).toBe(true);
    expect(texts(outcome as CallToolResult)).toMatch(/task/i);
  });

  it('runs a tool as a task: input_required elicitation, tasks/get, tasks/list, tasks/result, tasks/cancel', async () => {
    const formsBefore = formMessages.length;
    const statuses: string[] = [];
    const created = await callToolAsTask(
      client,
      'simulate-research-query',
      { topic: 'history of computing', ambiguous: true },
      { ttl: 60_000 },
    );
    expect(created.task).toMatchObject({ taskId: expect.any(String), status: 'working' });
    const taskId = created.task.taskId;

    const doomed = await callToolAsTask(client, 'simulate-research-query', { topic: 'to be cancelled' });
    const cancelled = await cancelTask(client, doomed.task.taskId);
    expect(cancelled.status).toBe('cancelled');
    await expect(cancelTask(client, doomed.task.taskId)).rejects.toMatchObject({ code: -32602 });

    const listed = await listTasks(client);
    expect(listed.tasks.map((task) => task.taskId)).toEqual(
      expect.arrayContaining([taskId, doomed.task.taskId]),
    );

    const status = await getTask(client, taskId);
    expect(['working', 'input_required']).toContain(status.status);
    await expect(getTask(client, 'no-such-task')).rejects.toMatchObject({ code: -32602 });

    // Polls until input is needed, then tasks/result carries the clarifying elicitation.
    const needsInput = await pollTask(client, taskId, {
      stopOnInputRequired: true,
      onStatus: (task) => statuses.push(task.status),
    });
    expect(needsInput.status).toBe('input_required');
    const result = await getTaskResult<CallToolResult>(client, taskId, { timeout: 15_000 });
    expect(formMessages.length).toBeGreaterThan(formsBefore);
    expect(texts(result)).toContain('historical');
    expect((await getTask(client, taskId)).status).toBe('completed');
    expect(statuses).toContain('input_required');
  }, 20_000);

  it('callToolAndWait runs a task-required tool to completion', async () => {
    const statuses: string[] = [];
    const result = await callToolAndWait(
      client,
      'simulate-research-query',
      { topic: 'compilers' },
      { onStatus: (task) => statuses.push(task.status) },
    );
    expect(texts(result)).toContain('compilers');
    expect(statuses.at(-1)).toBe('completed');
  }, 20_000);

  it('every message either way matched the official 2025-11-25 schema', () => {
    expect(recorder.checked).toBeGreaterThan(50);
    recorder.assertClean();
  });
});
