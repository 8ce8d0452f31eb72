/**
 * `@mcpkit/host` policy with real servers: allow/deny and read-only lists, consent for tool
 * calls (unattended hosts deny), remembered decisions, roots isolation, sampling through consent
 * and the host's one model, elicitation labelled with its server, and audit events.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCode } from '@mcpkit/core';
import {
  type AuditEvent,
  type ConsentDecision,
  McpHost,
  type McpHostOptions,
  type ModelCallback,
} from '@mcpkit/host';
import { nodeConnector } from '@mcpkit/host/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp, demoStdio, reference } from './fixtures/hostServers.js';

let http: Awaited<ReturnType<typeof demoHttp>>;
let dir = '';
const hosts: McpHost[] = [];

beforeAll(async () => {
  http = await demoHttp('demoB');
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-host-policy-'));
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

afterAll(async () => {
  await http?.close();
  await rm(dir, { recursive: true, force: true });
});

function host(options: Omit<McpHostOptions, 'connector'>): McpHost {
  // These tests read the whole catalogue from the first listing: wait for every server.
  const created = new McpHost({
    connector: nodeConnector(),
    startBudgetMs: Number.POSITIVE_INFINITY,
    ...options,
  });
  hosts.push(created);
  return created;
}

function text(result: { content: unknown[] }): string {
  return (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

/** server-filesystem asks for roots after initialization; waits (by calling) until `done` holds. */
async function allowedOnce(h: McpHost, done: (dirs: string[]) => boolean): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const dirs = text(await h.callTool('list_allowed_directories'))
      .split('\n')
      .slice(1);
    if (done(dirs) || attempt === 100) return dirs;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const model: ModelCallback = ({ model: chosen, params }) => ({
  role: 'assistant',
  model: chosen,
  content: { type: 'text', text: `summary with maxTokens ${params.maxTokens}` },
});

describe('McpHost policy (real servers)', () => {
  it('a denied tool is neither listed nor callable, and the server never sees the call', async () => {
    const h = host({
      servers: [demoStdio('demoA'), http.entry],
      policy: { demoB: { deny: ['echo'], trusted: true } },
    });
    const names = (await h.tools()).map((tool) => tool.name);
    // Only demoA offers echo now, so it is not even namespaced.
    expect(names).toContain('echo');
    expect(names).not.toContain('demoB__echo');
    expect(names).toContain('demoB__add');
    const before = http.calls.length;
    await expect(h.callTool('demoB__echo', { text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    // Not even through the server's own client: the policy sits in its middleware.
    const client = await h.client('demoB');
    await expect(client.callTool('echo', { text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Unknown tool: echo',
    });
    expect(http.calls.length).toBe(before);
  });

  it('prompt and resource filters keep items out of the listings, and requests for them never leave the host', async () => {
    const events: AuditEvent[] = [];
    const h = host({
      servers: [http.entry],
      audit: (event) => events.push(event),
      policy: {
        demoB: {
          prompts: { deny: ['translate'] },
          resources: { allow: ['demo://readme', 'demo://items/*'] },
        },
      },
    });
    const prompts = (await h.prompts()).map((prompt) => prompt.name);
    expect(prompts).toContain('greet');
    expect(prompts).not.toContain('translate');
    expect((await h.resources()).map((resource) => resource.uri)).toEqual(['demo://readme']);
    expect((await h.resourceTemplates()).map((template) => template.uriTemplate)).toEqual([
      'demo://items/{category}/{id}',
    ]);
    expect((await h.readResource('demo://readme')).contents[0]?.uri).toBe('demo://readme');
    await expect(h.getPrompt('translate', {})).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(h.readResource('demo://logo.png')).rejects.toMatchObject({
      code: ErrorCode.ResourceNotFound,
    });
    // Even the server's own client, which skips the catalogue, cannot reach them.
    const client = await h.client('demoB');
    await expect(client.getPrompt('translate', {})).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(client.readResource('demo://clock')).rejects.toMatchObject({
      code: ErrorCode.ResourceNotFound,
    });
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'translate' },
        argument: { name: 'language', value: 'f' },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const denied = events.filter((event) => event.decision === 'denied').map((event) => event.item);
    expect(denied).toEqual(['translate', 'demo://clock', 'translate']);
  });

  it('tool overrides rename a tool (routed back to its own name), and their annotations decide consent', async () => {
    const h = host({
      servers: [http.entry],
      policy: {
        demoB: {
          tools: {
            echo: { name: 'say', description: 'Says it back.' },
            weather: { annotations: { readOnlyHint: false, destructiveHint: true } },
          },
        },
      },
    });
    const tools = await h.tools();
    expect(tools.map((tool) => tool.name)).not.toContain('echo');
    expect(tools.find((tool) => tool.name === 'say')).toMatchObject({
      description: 'Says it back.',
      original: 'echo',
    });
    const before = http.calls.length;
    expect(text(await h.callTool('say', { text: 'renamed' }))).toContain('renamed');
    expect(http.calls.slice(before)).toEqual(['echo']);
    // The host's annotations make weather destructive: an unattended host refuses it, unsent.
    const refused = await h.callTool('weather', { city: 'Paris' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/needs consent/);
    expect(http.calls.slice(before)).toEqual(['echo']);
  });

  it('allow patterns and read-only mode keep only what they name', async () => {
    const h = host({
      servers: [http.entry],
      policy: { demoB: { allow: ['e*', 'book_*', 'summarize'], readOnly: true } },
    });
    expect((await h.tools()).map((tool) => tool.name).sort()).toEqual(['echo', 'summarize']);
  });

  it('an unattended host (no hook, no allow-list) refuses calls that need consent with an isError result', async () => {
    const h = host({ servers: [http.entry] });
    const before = http.calls.length;
    // summarize is open-world: it needs consent.
    const refused = await h.callTool('summarize', { text: 'x' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'The tool "summarize" of server "demoB" was not run: it needs consent and this host has no one to ask.',
    );
    // echo is read-only and closed-world: no consent needed.
    expect(text(await h.callTool('echo', { text: 'free' }))).toBe('free');
    expect(http.calls.slice(before)).toEqual(['echo']);
  });

  it('autoApprove (from the config entry) lets a named tool run without asking', async () => {
    const h = host({
      servers: [{ ...http.entry, autoApprove: ['summar*'] }],
      model,
      models: ['m'],
      hooks: { sampling: () => 'once' },
    });
    expect(text(await h.callTool('summarize', { text: 'x' }))).toContain('summary with');
  });

  it('asks the tool-call hook with the server and annotations, and remembers session and always decisions', async () => {
    const asked: string[] = [];
    const stored = new Map<string, ConsentDecision>();
    const store = {
      get: (key: string) => stored.get(key),
      set: (key: string, value: ConsentDecision) => void stored.set(key, value),
    };
    let answer: ConsentDecision = 'session';
    const options = {
      servers: [http.entry],
      model,
      models: ['m'],
      consentStore: store,
      hooks: {
        toolCall: ({
          server,
          tool,
          annotations,
        }: {
          server: string;
          tool: string;
          annotations?: { openWorldHint?: boolean };
        }) => {
          asked.push(`${server}/${tool}/${annotations?.openWorldHint}`);
          return answer;
        },
        sampling: () => 'always' as const,
      },
    };
    const h = host(options);
    await h.callTool('summarize', { text: 'a' });
    await h.callTool('summarize', { text: 'b' });
    expect(asked).toEqual(['demoB/summarize/true']);
    answer = 'never';
    await h.callTool('connect_account', {});
    const second = host(options); // a new session: 'session' is forgotten, 'never' and 'always' are not
    answer = 'once';
    expect(text(await second.callTool('summarize', { text: 'c' }))).toContain('summary with');
    expect((await second.callTool('connect_account', {})).isError).toBe(true);
    expect(asked).toEqual(['demoB/summarize/true', 'demoB/connect_account/true', 'demoB/summarize/true']);
    expect(Object.fromEntries(stored)).toEqual({
      'sampling:demoB': 'always',
      'tool:demoB:connect_account': 'never',
    });
  });

  it('each server sees only its own roots; changing one server’s roots leaves the other’s alone', async () => {
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    await Promise.all([mkdir(a, { recursive: true }), mkdir(b, { recursive: true })]);
    const h = host({
      servers: [demoStdio('A'), reference('B', 'server-filesystem', [dir])],
      policy: {
        A: { roots: [{ uri: pathToFileURL(a).href, name: 'a' }], trusted: true },
        B: { roots: [{ uri: pathToFileURL(b).href, name: 'b' }], trusted: true },
      },
    });
    const rootsOfA = text(await h.callTool('list_roots'));
    expect(rootsOfA).toContain(pathToFileURL(a).href);
    expect(rootsOfA).not.toContain(pathToFileURL(b).href);
    // server-filesystem replaces its command-line directory by the roots it is given.
    expect(await allowedOnce(h, (dirs) => dirs.includes(b))).toEqual([b]);
    const sent: Record<string, string[]> = { A: [], B: [] };
    for (const server of ['A', 'B']) {
      (await h.client(server)).use((ctx, next) => {
        if (ctx.direction === 'send' && ctx.isNotification) sent[server]!.push(ctx.method);
        return next();
      });
    }
    await h.setRoots('B', [{ uri: pathToFileURL(a).href, name: 'now a' }]);
    expect(sent).toEqual({ A: [], B: ['notifications/roots/list_changed'] });
    expect(await allowedOnce(h, (dirs) => dirs.includes(a))).toEqual([a]);
    expect(text(await h.callTool('list_roots'))).not.toContain('now a');
  });

  it('sampling from A reaches the consent hook labelled A, then the host model with policy applied', async () => {
    const asked: string[] = [];
    const seen: Array<{ server: string; model: string; maxTokens: number }> = [];
    const h = host({
      servers: [demoStdio('A'), http.entry],
      policy: {
        A: { trusted: true, sampling: { maxTokens: 50 } },
        demoB: { trusted: true, sampling: { models: ['gpt-small'] } },
      },
      models: ['gpt-small', 'claude-sonnet'],
      model: (request) => {
        seen.push({ server: request.server, model: request.model, maxTokens: request.params.maxTokens });
        return model(request);
      },
      hooks: {
        sampling: ({ server }) => {
          asked.push(server);
          return 'once';
        },
      },
    });
    // The demo asks with maxTokens 200 and the hint "claude".
    expect(text(await h.callTool('A__summarize', { text: 'x' }))).toContain('summarized by claude-sonnet');
    expect(text(await h.callTool('demoB__summarize', { text: 'x' }))).toContain('summarized by gpt-small');
    expect(asked).toEqual(['A', 'demoB']);
    expect(seen).toEqual([
      { server: 'A', model: 'claude-sonnet', maxTokens: 50 },
      { server: 'demoB', model: 'gpt-small', maxTokens: 200 },
    ]);
  });

  it('sampling from the reference everything server reaches the hook labelled with its key, capped by policy', async () => {
    const asked: string[] = [];
    const seen: number[] = [];
    const h = host({
      servers: [reference('everything', 'server-everything', ['stdio']), demoStdio('A')],
      policy: { everything: { trusted: true, sampling: { maxTokens: 64 } } },
      models: ['m'],
      model: (request) => {
        seen.push(request.params.maxTokens);
        return model(request);
      },
      hooks: {
        sampling: ({ server }) => {
          asked.push(server);
          return 'once';
        },
      },
    });
    const result = await h.callTool('trigger-sampling-request', { prompt: 'hello', maxTokens: 5000 });
    expect(JSON.stringify(result.content)).toContain('summary with maxTokens 64');
    expect(asked).toEqual(['everything']);
    expect(seen).toEqual([64]);
  });

  it('sampling refused: by the hook, without a hook, with no allowed model, past the rate limit', async () => {
    const refusedBy = async (options: Partial<McpHostOptions>) => {
      const h = host({ servers: [http.entry], model, models: ['m'], ...options });
      return text(await h.callTool('summarize', { text: 'x' }));
    };
    const trusted = { demoB: { trusted: true } };
    expect(await refusedBy({ policy: trusted, hooks: { sampling: () => 'deny' } })).toBe(
      'The client did not sample: User rejected sampling request',
    );
    expect(await refusedBy({ policy: trusted })).toBe(
      'The client did not sample: Sampling needs consent and this host has no one to ask',
    );
    expect(
      await refusedBy({
        policy: { demoB: { trusted: true, sampling: { models: ['other'] } } },
        hooks: { sampling: () => 'once' },
      }),
    ).toBe('The client did not sample: No model is allowed for server "demoB"');
    const limited = host({
      servers: [http.entry],
      model,
      models: ['m'],
      policy: { demoB: { trusted: true, sampling: { perMinute: 1 } } },
      hooks: { sampling: () => 'session' },
    });
    expect(text(await limited.callTool('summarize', { text: 'x' }))).toContain('summary with');
    expect(text(await limited.callTool('summarize', { text: 'y' }))).toBe(
      'The client did not sample: Server "demoB" exceeded its sampling limit of 1 requests per minute',
    );
  });

  it('elicitation reaches the UI hook labelled with the server that asks', async () => {
    const labels: string[] = [];
    const h = host({
      servers: [demoStdio('A')],
      hooks: {
        elicitation: ({ server, mode }) => {
          labels.push(`${server}:${mode}`);
          return { action: 'accept', content: { name: 'Ada', date: '2026-12-01', guests: 2 } };
        },
      },
    });
    expect(text(await h.callTool('book_table', {}))).toMatch(
      /^Booked Chez mcpkit for Ada, 2 guest\(s\) on 2026-12-01/,
    );
    expect(labels).toEqual(['A:form']);
  });

  it('audits every call, read and sampling as one event, arguments redacted by default', async () => {
    const events: AuditEvent[] = [];
    const h = host({
      servers: [http.entry],
      audit: (event) => events.push(event),
      model,
      models: ['m'],
      hooks: { toolCall: () => 'once', sampling: () => 'deny' },
    });
    await h.callTool('echo', { text: 'secret-value' });
    await h.callTool('summarize', { text: 'secret-value' });
    await h.readResource('demo://readme');
    const shape = events.map(({ server, operation, item, decision, outcome, arguments: args }) => ({
      server,
      operation,
      item,
      decision,
      outcome,
      args,
    }));
    expect(shape).toEqual([
      {
        server: 'demoB',
        operation: 'tools/call',
        item: 'echo',
        decision: 'allowed',
        outcome: 'ok',
        args: '[redacted]',
      },
      {
        server: 'demoB',
        operation: 'sampling/createMessage',
        item: 'sampling',
        decision: 'denied',
        outcome: 'denied',
        args: '[redacted]',
      },
      {
        server: 'demoB',
        operation: 'tools/call',
        item: 'summarize',
        decision: 'allowed',
        outcome: 'isError',
        args: '[redacted]',
      },
      {
        server: 'demoB',
        operation: 'resources/read',
        item: 'demo://readme',
        decision: 'allowed',
        outcome: 'ok',
        args: undefined,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('secret-value');
    for (const event of events) expect(event.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("with auditArguments 'sha256', events carry the arguments' hash and not their values", async () => {
    const events: AuditEvent[] = [];
    const h = host({
      servers: [http.entry],
      audit: (event) => events.push(event),
      auditArguments: 'sha256',
      hooks: { toolCall: () => 'once' },
    });
    await h.callTool('echo', { text: 'secret-value' });
    await h.callTool('echo', { text: 'secret-value' });
    await h.callTool('echo', { text: 'another' });
    const hash = (args: unknown) =>
      `sha256:${createHash('sha256').update(JSON.stringify(args)).digest('hex')}`;
    expect(events.map((event) => event.arguments)).toEqual([
      hash({ text: 'secret-value' }),
      hash({ text: 'secret-value' }),
      hash({ text: 'another' }),
    ]);
    expect(JSON.stringify(events)).not.toContain('secret-value');
  });
});
