/**
 * The conformance machinery and fixtures, without the official suite itself (that is
 * `npm run conformance`, a minute or more): the runner's self-test, the fixture server started the
 * way the runner starts it and driven by mcpkit's own client, and the conformance client's routing.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TS_LOADER = ['--import', './conformance/register-ts.mjs'];

/** What the suite's 32 server scenarios call or list, by name (FIXTURES.md §3). */
const FIXTURE_TOOLS = [
  'json_schema_2020_12_tool',
  'test_audio_content',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_embedded_resource',
  'test_error_handling',
  'test_image_content',
  'test_multiple_content_types',
  'test_reconnection',
  'test_sampling',
  'test_simple_text',
  'test_tool_with_logging',
  'test_tool_with_progress',
];
const FIXTURE_PROMPTS = [
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
  'test_simple_prompt',
];

/** Starts the fixture server on a free port; resolves with its URL once it listens. */
async function startFixture(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...TS_LOADER, 'conformance/fixture-server.ts', '--port', '0'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      log += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(log);
      if (found) resolveUrl(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fixture server exited (${code}):\n${log}`)));
  });
  return { child, url };
}

describe('conformance machinery', () => {
  it('passes its self-test (Node 22 for the suite, loopback binding, TS hooks, pass rule)', () => {
    const run = spawnSync(process.execPath, ['conformance/selftest.mjs'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    // The first run on a new machine announces the one-time Node 22 download; nothing else may appear.
    const unexpected = run.stderr
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('[node22] installing'));
    expect(unexpected).toEqual([]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^selftest: \d+ checks passed/m);
  }, 120_000);
});

describe('conformance fixture server', () => {
  let fixture: { child: ChildProcess; url: string };
  let client: McpClient;

  beforeAll(async () => {
    fixture = await startFixture();
    client = new McpClient(
      { name: 'fixture-smoke', version: '1.0.0' },
      {
        // The 2025-11-25 suite's fixture is under test (sessions, SSE resumption): 2025 pinned.
        protocolEra: '2025',
        elicitation: { form: () => ({ action: 'accept', content: {} }) },
        sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'm' }),
        // The SIGTERM test kills the server under the client; its failed DELETE is expected.
        onError: () => {},
      },
    );
    await client.connect(new StreamableHttpClientTransport(fixture.url));
  });

  afterAll(async () => {
    await client?.close();
    if (fixture && fixture.child.exitCode === null) fixture.child.kill('SIGKILL');
  });

  it('binds 127.0.0.1 at /mcp and declares what the suite needs', () => {
    expect(fixture.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(client.protocolVersion).toBe('2025-11-25');
    const capabilities = client.serverCapabilities!;
    expect(capabilities.resources?.subscribe).toBe(true);
    expect(capabilities.logging).toEqual({});
    expect(capabilities.completions).toEqual({});
    expect(capabilities.prompts).toBeDefined();
  });

  it('lists every catalogued tool and prompt, each described, no outputSchema', async () => {
    const tools = await client.tools();
    // The fixture also carries the 2026-07-28 suite's tools (conformance/fixture-2026.ts, fixture-mrtr.ts).
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(FIXTURE_TOOLS));
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema, tool.name).toBeUndefined();
    }
    const schema = tools.find((tool) => tool.name === 'json_schema_2020_12_tool')!.inputSchema;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.additionalProperties).toBe(false);
    const prompts = await client.prompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(FIXTURE_PROMPTS));
    for (const prompt of prompts) expect(prompt.description, prompt.name).toBeTruthy();
  });

  it('answers test_reconnection after closing its stream: the client resumes to get it', async () => {
    const result = await client.callTool('test_reconnection');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Reconnection test completed successfully' }],
    });
  });

  it('sends progress and logs on the call stream, before the result', async () => {
    const seen: string[] = [];
    const stopLogs = client.onLog((log) => seen.push(`log:${String(log.data)}`));
    await client.setLoggingLevel('debug');
    await client.callTool('test_tool_with_logging');
    const result = await client.callTool(
      'test_tool_with_progress',
      {},
      {
        onProgress: (update) => seen.push(`progress:${update.progress}/${update.total}`),
      },
    );
    seen.push('result');
    stopLogs();
    expect(seen).toEqual([
      'log:Tool execution started',
      'log:Tool processing data',
      'log:Tool execution completed',
      'progress:0/100',
      'progress:50/100',
      'progress:100/100',
      'result',
    ]);
    expect(result.isError).toBeUndefined();
  });

  it("relays the client's sampling answer", async () => {
    const result = await client.callTool('test_sampling', { prompt: 'Say hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'LLM response: hi there' }]);
  });

  it('gets the elicitation answer with the schema defaults filled in', async () => {
    const result = await client.callTool('test_elicitation_sep1034_defaults');
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
      },
    ]);
  });

  it('reads the template resource and completes arg1', async () => {
    const read = await client.readResource('test://template/123/data');
    expect(read.contents[0]).toMatchObject({ uri: 'test://template/123/data', mimeType: 'application/json' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: '123' });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('exits promptly on SIGTERM, with open streams', async () => {
    const exited = once(fixture.child, 'exit');
    fixture.child.kill('SIGTERM');
    // Exit code 0 is the fixture's own shutdown (SIGTERM unhandled ends with signal, no code);
    // an exit held up by the open streams is a hang the test's timeout reports. No clock.
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});

/** Runs the conformance client for `scenario` against a port where nothing listens. */
function runClientAgainstNothing(scenario: string) {
  return spawnSync(process.execPath, [...TS_LOADER, 'conformance/client.ts', 'http://127.0.0.1:1/mcp'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, MCP_CONFORMANCE_SCENARIO: scenario },
  });
}

describe('conformance client', () => {
  it('refuses an unknown scenario with exit code 2', () => {
    const run = runClientAgainstNothing('no-such-scenario');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown scenario "no-such-scenario"');
  });

  it('issue 35: knows every scenario the runner runs, auth/enterprise-managed-authorization included (it used to exit 2 before trying)', async () => {
    const { AUTH_CLIENT_SCENARIOS } = await import('../conformance/auth-scenarios.mjs');
    const { CLIENT_SCENARIOS_2026, EXTENSION_CLIENT_SCENARIOS_2026 } = await import(
      '../conformance/next-scenarios.mjs'
    );
    expect(EXTENSION_CLIENT_SCENARIOS_2026).toContain('auth/enterprise-managed-authorization');
    const run = runClientAgainstNothing('no-such-scenario');
    const known = /\(known: ([^)]*)\)/.exec(run.stderr)?.[1]?.split(', ') ?? [];
    const wanted = [...AUTH_CLIENT_SCENARIOS, ...CLIENT_SCENARIOS_2026, ...EXTENSION_CLIENT_SCENARIOS_2026];
    expect(wanted.filter((name) => !known.includes(name))).toEqual([]);
    // Without credentials from the suite it gets as far as reading its context, not "unknown".
    const enterprise = runClientAgainstNothing('auth/enterprise-managed-authorization');
    expect(enterprise.status).toBe(1);
    expect(enterprise.stderr).toContain('the suite gave no cross-app access context');
  });

  it('exits 1 with a message when the server cannot be reached', () => {
    const run = runClientAgainstNothing('initialize');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('[client] failed:');
  });
});
