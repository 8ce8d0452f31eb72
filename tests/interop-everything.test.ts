/**
 * mcpkit's McpClient against the reference `@modelcontextprotocol/server-everything`, over stdio.
 *
 * Everything the server lists is discovered at run time (tools, resources, templates, prompts),
 * so a new server release is exercised without editing this file. Every message either way is
 * checked against the official schema of the negotiated revision.
 */
import path from 'node:path';
import { callToolAndWait, type McpClient } from '@mcpkit/client';
import type { Tool } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as everythingChecks from './fixtures/everythingSuite.js';
import { EverythingObserver, everythingClient, texts } from './fixtures/everythingSuite.js';
import { repoRoot, SchemaRecorder } from './support/officialSchema.js';

const EVERYTHING = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('McpClient ↔ server-everything (stdio)', () => {
  const recorder = new SchemaRecorder({ side: 'client' });
  const observed = new EverythingObserver();
  let transport: StdioClientTransport;
  let client: McpClient;
  let tools: Tool[] = [];

  beforeAll(async () => {
    client = everythingClient(observed);
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
    everythingChecks.expectEverythingCapabilities(client);
    expect(client.instructions).toEqual(expect.any(String));
  });

  it('pings the server', async () => {
    await expect(client.ping()).resolves.toBeUndefined();
  });

  everythingChecks.itRunsTheSharedChecks(() => ({ client, observed, tools }));

  it('calls every listed tool with arguments drawn from its inputSchema', async () => {
    await everythingChecks.callEveryTool(client, observed, tools);
  });

  it('turns a -32042 error into UrlElicitationRequiredError, and the retry succeeds', async () => {
    await everythingChecks.expectUrlElicitationRetry(client);
  });

  it('subscribes to a resource, receives resources/updated, and unsubscribes', async () => {
    await everythingChecks.expectResourceUpdates(client, observed);
  });

  it('gets every prompt, filling required arguments through completion/complete', async () => {
    await everythingChecks.getEveryPrompt(client);
  });

  it('completion narrows by context (completable-prompt)', async () => {
    await everythingChecks.expectCompletionByContext(client);
  });

  it('surfaces the refusal of a task-required tool called without a task', async () => {
    await everythingChecks.expectTaskRequiredRefusal(client);
  });

  it('runs a tool as a task: input_required elicitation, tasks/get, tasks/list, tasks/result, tasks/cancel', async () => {
    await everythingChecks.runResearchTask(client, observed);
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
    recorder.assertChecked(50);
    recorder.assertClean();
  });
});
