/**
 * `@mcpkit/host` aggregation with real servers: two demo servers (stdio and HTTP) that collide on
 * every name, the reference everything, filesystem and memory servers; one catalogue, routed
 * calls, reads, prompts and completions, list_changed and resource subscriptions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCode, RequestCancelledError, RequestTimeoutError } from '@mcpkit/core';
import { McpHost, NameCollisionError, type ServerEntry } from '@mcpkit/host';
import { nodeConnector } from '@mcpkit/host/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp, demoStdio, reference } from './fixtures/hostServers.js';

let dir = '';
let http: Awaited<ReturnType<typeof demoHttp>>;
let servers: ServerEntry[] = [];
let host: McpHost;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-host-'));
  http = await demoHttp('demoB', 50);
  servers = [
    demoStdio('demoA'),
    http.entry,
    reference('everything', 'server-everything', ['stdio']),
    reference('memory', 'server-memory', [], { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') }),
    reference('files', 'server-filesystem', [dir]),
  ];
  host = new McpHost({
    servers,
    connector: nodeConnector(),
    policy: { demoA: { trusted: true }, demoB: { trusted: true } },
    // These tests read the whole catalogue from the first listing: wait for every server.
    startBudgetMs: Number.POSITIVE_INFINITY,
  });
});

afterAll(async () => {
  await host?.close();
  await http?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('McpHost aggregation over five real servers', () => {
  it('lists one catalogue: colliding names namespaced, the others plain, each entry keeping its server and metadata', async () => {
    const tools = await host.tools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['demoA__echo', 'demoB__echo', 'everything__echo']));
    expect(names).not.toContain('echo');
    expect(names).toEqual(expect.arrayContaining(['read_graph', 'list_allowed_directories']));
    const echo = tools.find((tool) => tool.name === 'demoB__echo')!;
    expect(echo).toMatchObject({ server: 'demoB', original: 'echo', annotations: { readOnlyHint: true } });
    const summarize = tools.find((tool) => tool.name === 'demoA__summarize')!;
    expect(summarize.title).toBe('Summarize');
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
    expect(host.status().map((s) => s.state)).toEqual(['ready', 'ready', 'ready', 'ready', 'ready']);
  });

  it('names do not depend on the order of the servers', async () => {
    const reversed = new McpHost({
      servers: [...servers].reverse(),
      connector: nodeConnector(),
      startBudgetMs: Number.POSITIVE_INFINITY,
    });
    try {
      const mine = (await host.tools()).map((tool) => tool.name).sort();
      expect((await reversed.tools()).map((tool) => tool.name).sort()).toEqual(mine);
    } finally {
      await reversed.close();
    }
  });

  it('routes each colliding call to the server that owns the name', async () => {
    const before = http.calls.length;
    const fromA = await host.callTool('demoA__echo', { text: 'to A' });
    expect(http.calls.length).toBe(before); // demoA is the stdio process, demoB never saw it
    const fromB = await host.callTool('demoB__echo', { text: 'to B' });
    expect(http.calls.slice(before)).toEqual(['echo']);
    expect(fromA.content).toEqual(fromB.content.map((block) => ({ ...block, text: 'to A' })));
    const everything = await host.callTool('everything__echo', { message: 'hi' });
    expect(JSON.stringify(everything.content)).toContain('hi');
    await expect(host.callTool('echo', { text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it('routes plain names, and the memory server keeps what it was told', async () => {
    await host.callTool('create_entities', {
      entities: [{ name: 'mcpkit', entityType: 'project', observations: ['hosts many servers'] }],
    });
    const graph = await host.callTool('read_graph', {});
    expect(JSON.stringify(graph)).toContain('hosts many servers');
  });

  it('namespaces colliding prompts and rewrites colliding resource URIs reversibly; reads and gets are routed', async () => {
    const prompts = (await host.prompts()).map((prompt) => prompt.name);
    expect(prompts).toEqual(expect.arrayContaining(['demoA__greet', 'demoB__greet']));
    const greeting = await host.getPrompt('demoB__translate', { text: 'Ada wrote this', language: 'French' });
    expect(JSON.stringify(greeting.messages)).toContain('Ada wrote this');
    const resources = await host.resources();
    const readme = resources.filter((resource) => resource.original === 'demo://readme');
    expect(readme.map((resource) => resource.uri).sort()).toEqual([
      'mcp-host://demoA/demo://readme',
      'mcp-host://demoB/demo://readme',
    ]);
    const read = await host.readResource('mcp-host://demoB/demo://readme');
    expect(read.contents[0]).toMatchObject({ uri: 'demo://readme' });
    // Colliding templates are rewritten the same way, so they expand to routable URIs.
    const templates = (await host.resourceTemplates()).filter(
      (t) => t.original === 'demo://items/{category}/{id}',
    );
    expect(templates.map((t) => t.uriTemplate).sort()).toEqual([
      'mcp-host://demoA/demo://items/{category}/{id}',
      'mcp-host://demoB/demo://items/{category}/{id}',
    ]);
    const item = await host.readResource('mcp-host://demoA/demo://items/fruit/apple');
    expect(item.contents[0]).toMatchObject({ uri: 'demo://items/fruit/apple' });
    const categories = await host.complete({
      ref: { type: 'ref/resource', uri: 'mcp-host://demoB/demo://items/{category}/{id}' },
      argument: { name: 'category', value: 'fr' },
    });
    expect(categories.completion.values).toEqual(['fruit']);
  });

  it('routes completion/complete by prompt name', async () => {
    const result = await host.complete({
      ref: { type: 'ref/prompt', name: 'demoA__translate' },
      argument: { name: 'language', value: 'Fr' },
    });
    expect(result.completion.values).toContain('French');
  });

  it('passes progress, cancellation and timeouts through to the owning server', async () => {
    const progress: number[] = [];
    const result = await host.callTool(
      'demoB__slow_count',
      { steps: 3, delayMs: 10 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const cancelled = host.callTool(
      'demoA__slow_count',
      { steps: 100, delayMs: 1000 },
      { signal: controller.signal },
    );
    controller.abort('stop');
    await expect(cancelled).rejects.toBeInstanceOf(RequestCancelledError);
    await expect(
      host.callTool(
        'demoA__slow_count',
        { steps: 100, delayMs: 1000 },
        { timeout: 200, resetTimeoutOnProgress: false },
      ),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('fans resource subscriptions in and routes updates to the subscriber', async () => {
    const updates: string[] = [];
    const clock = (await host.resources()).find(
      (r) => r.server === 'demoB' && r.original === 'demo://clock',
    )!;
    const unsubscribe = await host.subscribe(clock.uri, (uri) => updates.push(uri));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (updates.length >= 2) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    expect(new Set(updates)).toEqual(new Set([clock.uri]));
    await unsubscribe();
  });

  it('turns a list_changed of any server into a catalogue update and an event', async () => {
    const changes: string[] = [];
    const stop = host.onListChanged(({ server, kind }) => changes.push(`${server}:${kind}`));
    const changed = new Promise<void>((resolve) => {
      const off = host.onListChanged(({ server }) => {
        if (server === 'demoB') {
          off();
          resolve();
        }
      });
    });
    http.server.tool('late_tool', { description: 'added at run time' }, () => 'late');
    await changed;
    stop();
    expect(changes).toContain('demoB:tools');
    expect((await host.tools()).map((tool) => tool.name)).toContain('late_tool');
    expect((await host.callTool('late_tool')).content).toEqual([{ type: 'text', text: 'late' }]);
  });

  it('with namespacing off, a collision is an error that names both servers', async () => {
    const strict = new McpHost({
      servers: [servers[0]!, servers[1]!],
      naming: { mode: 'off' },
      connector: nodeConnector(),
      startBudgetMs: Number.POSITIVE_INFINITY,
    });
    try {
      const error = await strict.tools().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(NameCollisionError);
      expect((error as Error).message).toMatch(/^The tool "echo" is offered by servers "demoA" and "demoB"/);
    } finally {
      await strict.close();
    }
  });
});
