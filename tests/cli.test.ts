/**
 * The `mcpkit` CLI as a user runs it, against the demo server over Streamable HTTP (one shared
 * `mcpkit serve` child process per file), legacy HTTP+SSE and stdio. Every verb, every exit code,
 * `--json`, and the failures a new user meets first. Most commands run in-process through
 * `runCli(argv, io)` (no Node start-up per command); what needs a real process (Ctrl-C, a pty,
 * serve, the bin script) is spawned.
 *
 * The CLI runs from its TypeScript source through the repo's loader, so no build is needed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toNodeListener } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoServer } from '../packages/cli/src/index.js';
import { runCliInProcess } from './support/inProcessCli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = ['--import', './conformance/register-ts.mjs', 'packages/cli/src/main.ts'];
/** The demo server over stdio, as a target: everything after `--`. */
const DEMO_STDIO = ['--', process.execPath, ...CLI, 'serve', '--stdio'];
const HAS_SCRIPT = spawnSyncOk('script', ['--version']);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

interface Started {
  child: ChildProcess;
  done: Promise<Run>;
  /** Resolves once stderr contains `text`. */
  stderrIncludes(text: string): Promise<void>;
}

function start(args: readonly string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const waiter of waiters.splice(0)) {
      if (stderr.includes(waiter.text)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  const done = new Promise<Run>((resolve) => {
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, stdout: stdoutBytes.toString('utf8'), stderr, stdoutBytes });
    });
  });
  return {
    child,
    done,
    stderrIncludes: (text) =>
      stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve })),
  };
}

/** The URL a `mcpkit serve --stateless --json-response` prints once it listens. */
function statelessUrl(server: Started): Promise<string> {
  return new Promise<string>((resolve) => {
    let text = '';
    server.child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)\nStreamable HTTP \(stateless, JSON responses\)/.exec(text);
      if (match) resolve(match[1]!);
    });
  });
}

/**
 * Runs `mcpkit ARGS…` to completion, in this process (`runCli` with its own streams): the tests
 * that need a real process (Ctrl-C, the pty, serve) use {@link start}.
 */
function mcpkit(...args: string[]): Promise<Run> {
  return runCliInProcess(args);
}

function json(run: Run): any {
  expect(run.stderr).not.toContain('Error:');
  return JSON.parse(run.stdout);
}

function spawnSyncOk(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** The shared demo server: `mcpkit serve --http --port 0`, as `npm start` runs it. */
let demo: Started;
let url = '';
let legacyUrl = '';

/** An in-process demo server with pages of two items, that records the headers it receives. */
let recorder: Server;
let recorderUrl = '';
const seenHeaders: IncomingHttpHeaders[] = [];

let scratch = '';

beforeAll(async () => {
  demo = start(['serve', '--http', '--port', '0']);
  url = await new Promise<string>((resolve, reject) => {
    let text = '';
    demo.child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    demo.child.once('exit', (code) => reject(new Error(`mcpkit serve exited early (${code})`)));
  });
  legacyUrl = url.replace(/\/mcp$/, '/sse');

  const handler = createStreamableHttpHandler(
    createDemoServer({ clockIntervalMs: 0, serverOptions: { pageSize: 2 } }),
  );
  const listener = toNodeListener(handler);
  recorder = createServer((req, res) => {
    seenHeaders.push(req.headers);
    listener(req, res);
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/mcp`;
  scratch = await mkdtemp(path.join(tmpdir(), 'mcpkit-cli-'));
});

afterAll(async () => {
  recorder?.closeAllConnections();
  await new Promise((resolve) => recorder?.close(resolve));
  if (scratch) await rm(scratch, { recursive: true, force: true });
  if (demo && demo.child.exitCode === null) {
    demo.child.kill('SIGINT');
    const run = await demo.done;
    // Ctrl-C stops the demo server cleanly.
    expect(run.code, run.stderr).toBe(0);
  }
});

describe.concurrent('mcpkit against the demo server over Streamable HTTP', { timeout: 60_000 }, () => {
  it('list --json lists every kind, exactly', async () => {
    const listing = json(await mcpkit('list', '--json', url));
    expect(Object.keys(listing)).toEqual(['tools', 'resources', 'resourceTemplates', 'prompts']);
    const tools = listing.tools.map((tool: { name: string }) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining(['echo', 'add', 'weather', 'slow_count', 'research', 'summarize']),
    );
    expect(listing.tools.find((tool: { name: string }) => tool.name === 'echo').inputSchema.required).toEqual(
      ['text'],
    );
    expect(listing.resources.map((r: { uri: string }) => r.uri)).toEqual([
      'demo://readme',
      'demo://logo.png',
      'demo://clock',
    ]);
    expect(listing.resourceTemplates[0].uriTemplate).toBe('demo://items/{category}/{id}');
    expect(listing.prompts.map((p: { name: string }) => p.name)).toEqual([
      'greet',
      'translate',
      'review_readme',
    ]);
  });

  it('list KIND prints a table, and --json only that kind', async () => {
    const human = await mcpkit('list', url, 'tools');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Tools \(\d+\)\nNAME\s+ARGUMENTS\s+DESCRIPTION\n/);
    expect(human.stdout).toMatch(/^echo\s+text\s+Returns the text it is given\.$/m);
    expect(human.stdout).not.toContain('Resources');
    expect(Object.keys(json(await mcpkit('list', '--json', url, 'prompts')))).toEqual(['prompts']);
  });

  it('list follows pagination (a server with pages of two)', async () => {
    const run = await mcpkit('list', '--json', '--verbose', recorderUrl, 'tools');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).tools.length).toBeGreaterThan(10);
    expect(run.stderr).toContain('"nextCursor"');
  });

  it('call --json prints the CallToolResult exactly', async () => {
    // --era 2025 here and in a few tests below: what they check is the 2025-11-25 shape or session.
    const [legacy, modern] = await Promise.all([
      mcpkit('call', '--json', '--era', '2025', url, 'echo', 'text=hi'),
      mcpkit('call', '--json', url, 'echo', 'text=hi'),
    ]);
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(JSON.parse(legacy.stdout)).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    // 2026-07-28 (the default era here): the result as sent, with its resultType and the serverInfo _meta.
    expect(modern.code, modern.stderr).toBe(0);
    expect(JSON.parse(modern.stdout)).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'mcpkit-demo' }) },
    });
  });

  it('call coerces key=value by the inputSchema', async () => {
    const run = await mcpkit('call', url, 'add', 'a=2', 'b=0.5');
    expect(run).toMatchObject({ code: 0, stdout: '2.5\n' });
    const overridden = await mcpkit('call', url, 'add', '--args', '{"a": 1, "b": 1}', 'b=41');
    expect(overridden.stdout).toBe('42\n');
  });

  it('call shows structured output, images, audio, resource links and annotations', async () => {
    const [weather, logo, beep, links, annotated] = await Promise.all([
      mcpkit('call', '--json', url, 'weather', 'city=Paris'),
      mcpkit('call', '--json', url, 'logo'),
      mcpkit('call', '--json', url, 'beep'),
      mcpkit('call', url, 'find_resources', 'query=apple'),
      mcpkit('call', url, 'annotated_message'),
    ]);
    expect(json(weather).structuredContent).toMatchObject({ city: 'Paris', conditions: expect.any(String) });
    const image = json(logo).content[1];
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(json(beep).content[1]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    expect(links.stdout).toContain('→ apple (fruit) demo://items/fruit/apple');
    expect(annotated.stdout).toContain('(for user, priority 0.9)');
    expect(annotated.stdout).toMatch(/\[image image\/png, [\d.]+ KB\]/);
  });

  it('call exits 4 when the tool returns isError; sampling is refused clearly', async () => {
    // Under 2025 the refusal reaches the server, whose tool reports it as an error.
    const human = await mcpkit('call', '--era', '2025', url, 'summarize', 'text=Long text');
    expect(human.code, human.stderr).toBe(4);
    expect(human.stderr).toContain('refused. Pass --sampling-command CMD to answer');
    expect(human.stderr).toContain('Tool "summarize" reported an error:');
    const machine = await mcpkit('call', '--json', '--era', '2025', url, 'summarize', 'text=Long text');
    expect(machine.code, machine.stderr).toBe(4);
    expect(JSON.parse(machine.stdout)).toMatchObject({ isError: true });
    // 2026-07-28 has no error answer to an input request: the call stops in the CLI, which says so.
    const modern = await mcpkit('call', url, 'summarize', 'text=Long text');
    expect(modern.code, modern.stderr).toBe(2);
    expect(modern.stderr).toContain('refused. Pass --sampling-command CMD to answer');
    expect(modern.stderr).toContain('Under 2026-07-28 the refusal cannot be sent to the server');
    expect(modern.stderr).not.toContain('bug in mcpkit');
  });

  it('--sampling-command answers sampling: the request on stdin, the result on stdout', async () => {
    const command = `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s);console.log(JSON.stringify({role:'assistant',model:'test-model',content:{type:'text',text:'max '+r.maxTokens}}))})"`;
    const run = await mcpkit('call', url, 'summarize', 'text=Long text', '--sampling-command', command);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('max 200\n\n(summarized by test-model)\n');
    const plain = await mcpkit(
      'call',
      url,
      'summarize',
      'text=x',
      '--sampling-command',
      'echo A plain reply',
    );
    expect(plain.stdout).toContain('A plain reply');
  });

  it('declines elicitation clearly when not on a terminal (form and URL mode)', async () => {
    const [form, link] = await Promise.all([
      mcpkit('call', url, 'book_table'),
      mcpkit('call', url, 'connect_account'),
    ]);
    expect(form.stdout).toBe('No booking made: the user chose to decline.\n');
    expect(form.stderr).toContain('declined, because stdin is not an interactive terminal');
    expect(link.stdout).toBe('Not connected: the user chose to decline.\n');
  });

  it('--root answers roots/list', async () => {
    const run = await mcpkit('call', url, 'list_roots', '--root', 'packages', '--root', 'docs');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(pathToFileURL(path.join(ROOT, 'packages')).href);
    expect(run.stdout).toContain('The client shares 2 roots');
    expect((await mcpkit('call', url, 'list_roots')).code).toBe(4);
  });

  it('runs a tool as a task with --task', async () => {
    const run = await mcpkit('call', '--json', url, 'research', 'topic=tides', 'stageMs=30', '--task');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).content[0].text).toContain('Report on "tides"');
    expect(run.stderr).toMatch(/Task \S+ is completed/);
    const forbidden = await mcpkit('call', url, 'echo', 'text=x', '--task');
    expect(forbidden.code, forbidden.stderr).toBe(2);
    expect(forbidden.stderr).toContain('cannot run as a task');
  });

  it('server logs go to stderr; results alone to stdout; --log-level filters', async () => {
    const run = await mcpkit('call', url, 'slow_count', 'steps=2', 'delayMs=10');
    expect(run.stdout).toBe('Counted to 2.\n');
    expect(run.stderr).toContain('[info slow_count] step 1 of 2');
    const quiet = await mcpkit('call', url, 'slow_count', 'steps=2', 'delayMs=10', '--log-level', 'warning');
    expect(quiet.stderr).not.toContain('[info');
  });

  it('--verbose prints every JSON-RPC message both ways, with timing', async () => {
    const modern = await mcpkit('call', url, 'slow_count', 'steps=1', 'delayMs=10', '--verbose');
    expect(modern.code, modern.stderr).toBe(0);
    expect(modern.stderr).toMatch(
      /^\[\s*\d+\.\d ms\] → \{"jsonrpc":"2\.0","id":\d+,"method":"server\/discover"/m,
    );
    // The 2025 handshake, pinned with --era 2025.
    const run = await mcpkit(
      'call',
      url,
      'slow_count',
      'steps=1',
      'delayMs=10',
      '--verbose',
      '--era',
      '2025',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^\[\s*\d+\.\d ms\] → \{"jsonrpc":"2\.0","id":\d+,"method":"initialize"/m);
    expect(run.stderr).toMatch(
      /^\[\s*\d+\.\d ms\] ← \{"jsonrpc":"2\.0","id":\d+,"result":\{"protocolVersion".*\} \(\d+\.\d ms\)$/m,
    );
    expect(run.stderr).toMatch(/→ \{"jsonrpc":"2\.0","method":"notifications\/initialized"/);
    expect(run.stderr).toMatch(/← \{"jsonrpc":"2\.0","method":"notifications\/progress"/);
    expect(run.stdout).toBe('Counted to 1.\n');
  });

  it('read prints text, --json the exact result, and raw bytes of a binary resource when piped', async () => {
    const [text, exact, bytes] = await Promise.all([
      mcpkit('read', url, 'demo://items/fruit/apple'),
      mcpkit('read', '--json', url, 'demo://logo.png'),
      mcpkit('read', url, 'demo://logo.png'),
    ]);
    expect(text).toMatchObject({ code: 0, stdout: 'apple (fruit): Crisp and sweet.\n' });
    expect(json(exact).contents[0]).toMatchObject({
      uri: 'demo://logo.png',
      mimeType: 'image/png',
      blob: expect.any(String),
    });
    expect(bytes.stdoutBytes.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  it('get fills in a prompt; --json prints the GetPromptResult', async () => {
    const run = await mcpkit('get', '--json', url, 'translate', 'text=Good morning', 'language=French');
    expect(json(run).messages[0]).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Translate into French, keeping the tone:\n\nGood morning' },
    });
    const embedded = await mcpkit('get', url, 'review_readme');
    expect(embedded.stdout).toContain('[resource demo://readme text/markdown]');
    const missing = await mcpkit('get', url, 'translate', 'text=x');
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('Prompt "translate" needs "language"');
  });

  it('complete completes prompt arguments and template variables (with context)', async () => {
    const [prompt, template] = await Promise.all([
      mcpkit('complete', '--json', url, 'translate', 'language=Ge'),
      mcpkit('complete', url, 'demo://items/{category}/{id}', 'id=', 'category=cheese'),
    ]);
    expect(json(prompt)).toMatchObject({ completion: { values: ['German'], total: 1, hasMore: false } });
    expect(json(prompt).completion).toEqual({ values: ['German'], total: 1, hasMore: false });
    expect(template.stdout).toBe('brie\ncomte\nfeta\n');
  });

  it('info shows the server, revision and capabilities; --json the initialize result', async () => {
    const [human, exact, modern] = await Promise.all([
      mcpkit('info', '--era', '2025', url),
      mcpkit('info', '--json', '--era', '2025', url),
      mcpkit('info', url),
    ]);
    expect(human.stdout).toMatch(/^Server\s+mcpkit-demo 0\.1\.0 \(mcpkit demo server\)$/m);
    expect(human.stdout).toMatch(/^Protocol\s+2025-11-25$/m);
    expect(human.stdout).toMatch(/^Era\s+2025 \(initialize session\)$/m);
    expect(human.stdout).toContain('tasks (');
    expect(json(exact)).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'mcpkit-demo' } });
    expect(json(exact).instructions).toContain('one small example of every MCP 2025-11-25 feature');
    // The default era: 2026-07-28, with tasks as an extension beside MCP Apps (the tally app).
    expect(modern.stdout).toMatch(/^Protocol\s+2026-07-28$/m);
    expect(modern.stdout).toMatch(/^Era\s+2026 \(per-request metadata, no session\)$/m);
    expect(modern.stdout).toContain('extensions (io.modelcontextprotocol/ui, io.modelcontextprotocol/tasks)');
  });

  it('ping measures a round trip', async () => {
    const [human, exact] = await Promise.all([mcpkit('ping', url), mcpkit('ping', '--json', url)]);
    expect(human.stdout).toMatch(/^pong from mcpkit-demo in [\d.]+ ms\n$/);
    expect(json(exact)).toEqual({ latencyMs: expect.any(Number) });
  });

  it('--header reaches the server', async () => {
    const run = await mcpkit('ping', recorderUrl, '--header', 'X-Api-Key: s3cret', '-H', 'X-Team:blue');
    expect(run.code, run.stderr).toBe(0);
    expect(
      seenHeaders.some((headers) => headers['x-api-key'] === 's3cret' && headers['x-team'] === 'blue'),
    ).toBe(true);
  });

  it('serve --stateless --json-response serves plain JSON without sessions', async () => {
    const server = start(['serve', '--stateless', '--json-response', '--port', '0']);
    try {
      const served = await statelessUrl(server);
      // --era 2025: a 2025 client of a server without sessions (2026-07-28 has none anyway).
      const [echo, info] = await Promise.all([
        mcpkit('call', '--json', '--era', '2025', served, 'echo', 'text=stateless'),
        mcpkit('info', '--json', '--era', '2025', served),
      ]);
      expect(json(echo)).toEqual({ content: [{ type: 'text', text: 'stateless' }] });
      // No sessions, so no tasks: a task could never be reached again.
      expect(json(info).capabilities.tasks).toBeUndefined();
    } finally {
      server.child.kill('SIGINT');
      expect((await server.done).code).toBe(0);
    }
  });

  it('stateless mode blames the stateless server, not the client, for sampling, elicitation and roots', async () => {
    const server = start(['serve', '--stateless', '--json-response', '--port', '0']);
    try {
      const served = await statelessUrl(server);
      // --era 2025: a stateless 2025 server cannot ask; under 2026-07-28 it asks in input rounds
      // (tests/era-2026-default-client.test.ts).
      const runs = await Promise.all([
        mcpkit('call', '--era', '2025', served, 'summarize', 'text=Long text'),
        mcpkit('call', '--era', '2025', served, 'book_table'),
        mcpkit('call', '--era', '2025', served, 'list_roots', '--root', 'docs'),
      ]);
      for (const run of runs) {
        expect(run.code).toBe(4);
        expect(run.stdout + run.stderr).toContain('stateless mode, so it cannot send requests to the client');
        expect(run.stdout + run.stderr).not.toContain('did not declare');
      }
    } finally {
      server.child.kill('SIGINT');
      expect((await server.done).code).toBe(0);
    }
  });

  it('falls back to the legacy HTTP+SSE transport', async () => {
    const run = await mcpkit('call', '--json', '--verbose', legacyUrl, 'echo', 'text=old');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ content: [{ type: 'text', text: 'old' }] });
  });

  it('exits 5 on --timeout, telling the server to cancel', async () => {
    const run = await mcpkit(
      'call',
      url,
      'slow_count',
      'steps=100',
      'delayMs=100',
      // Long enough to connect on a loaded machine, far shorter than the call.
      '--timeout',
      '2500ms',
      '--verbose',
    );
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toContain('Error: Timed out after 2.5 s (--timeout).');
    expect(run.stderr).toMatch(
      /→ \{"jsonrpc":"2\.0","method":"notifications\/cancelled","params":\{"requestId":\d+,"reason":"Timed out after 2\.5 s"\}\}/,
    );
  });

  it('Ctrl-C sends notifications/cancelled and exits 130', async () => {
    const run = start(['call', url, 'slow_count', 'steps=100', 'delayMs=50']);
    await run.stderrIncludes('step 2 of 100');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain('Interrupted; the server was asked to cancel.');
    await demo.stderrIncludes('slow_count was cancelled at step');
  });
});

describe.concurrent('mcpkit against the demo server over stdio', { timeout: 60_000 }, () => {
  it('serve --stdio writes nothing but JSON-RPC to stdout', async () => {
    const child = spawn(process.execPath, [...CLI, 'serve', '--stdio'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'slow_count', arguments: { steps: 2, delayMs: 10 } },
    });
    while (!stdout.includes('"id":2')) await new Promise((resolve) => setTimeout(resolve, 20));
    child.stdin.end();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toContain('[mcpkit demo] serving one client on stdio');
  });

  it('call echo text=hi -- COMMAND', async () => {
    const run = await mcpkit('call', 'echo', 'text=hi', ...DEMO_STDIO);
    expect(run).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('list --json gives the same listing as over HTTP', async () => {
    const [stdio, http] = await Promise.all([
      mcpkit('list', '--json', ...DEMO_STDIO),
      mcpkit('list', '--json', url),
    ]);
    expect(json(stdio)).toEqual(json(http));
  });

  it('Ctrl-C cancels a stdio call: the server hears notifications/cancelled', async () => {
    const run = start(['call', 'slow_count', 'steps=100', 'delayMs=50', '--verbose', ...DEMO_STDIO]);
    await run.stderrIncludes('step 2 of 100');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(
      /→ \{"jsonrpc":"2\.0","method":"notifications\/cancelled","params":\{"requestId":\d+,"reason":"Interrupted by the user \(Ctrl-C\)"\}\}/,
    );
    expect(result.stderr).toContain('[mcpkit demo] slow_count was cancelled at step');
  });

  // `script` is util-linux (Debian's essential bsdutils), so it is on every machine this runs on.
  it('the progress bar vanishes after a log line: on a terminal it is drawn again below each one', async () => {
    const command = [process.execPath, ...CLI, 'call', 'slow_count', 'steps=3', 'delayMs=300', ...DEMO_STDIO]
      .map((word) => `'${word}'`)
      .join(' ');
    const frames = terminalFrames(await runInTerminalRaw(command, ''));
    for (const step of [1, 2, 3]) {
      const logged = frames.indexOf(`[info slow_count] step ${step} of 3`);
      expect(logged, frames.join('\n')).toBeGreaterThanOrEqual(0);
      // What stays on screen after the log line, until the next redraw: the bar, at this step.
      expect(frames[logged + 1], frames.join('\n')).toMatch(
        new RegExp(`^\\[[█░]{24}\\] +\\d+% ${step}/3 step ${step} of 3 \\d+\\.\\ds$`),
      );
    }
    // The result replaces the bar: the last line is the result alone.
    expect(frames.filter((frame) => frame !== '').at(-1)).toBe('Counted to 3.');
  });

  it(`VS Code variables: \${input:ID} is asked on a terminal with its description, a password without echo`, async () => {
    await mkdir(path.join(scratch, 'ws', '.vscode'), { recursive: true });
    const file = path.join(scratch, 'ws', '.vscode', 'mcp.json');
    const server = {
      command: process.execPath,
      args: ['-e', 'console.error("length=" + process.argv[1].length); process.exit(9)', `\${input:token}`],
    };
    const inputs = [{ type: 'promptString', id: 'token', description: 'Your API token', password: true }];
    await writeFile(file, JSON.stringify({ inputs, servers: { tools: server } }));
    const command = [process.execPath, ...CLI, 'list', '--config', file].map((word) => `'${word}'`).join(' ');
    const screen = await runInTerminalRaw(command, 's3cret-value\n', 'Your API token: ');
    expect(screen).toContain('Your API token: ');
    expect(screen).toContain('last stderr output: length=12');
    expect(screen).not.toContain('s3cret');
  });

  it.skipIf(!HAS_SCRIPT)('on a terminal: a progress bar, and elicitation asked field by field', async () => {
    const command = [process.execPath, ...CLI, 'call', 'book_table', ...DEMO_STDIO]
      .map((word) => `'${word}'`)
      .join(' ');
    const answers = 'Ada\n3\n2025-12-01\n2\n1,3\n\ny\n';
    const booked = await runInTerminal(command, answers);
    expect(booked).toContain('The server asks: Booking a table at Chez mcpkit.');
    expect(booked).toContain('Guests (whole number, 1 to 12) [2]:');
    expect(booked).toContain(
      'Booked Chez mcpkit for Ada, 3 guest(s) on 2025-12-01, terrace, dietary needs: vegetarian, gluten-free. Reminder: yes.',
    );
    const counted = await runInTerminal(
      [process.execPath, ...CLI, 'call', 'slow_count', 'steps=3', 'delayMs=100', ...DEMO_STDIO]
        .map((word) => `'${word}'`)
        .join(' '),
      '',
    );
    expect(counted).toMatch(/\[█{8}░{16}\] {2}33% 1\/3 step 1 of 3/);
    expect(counted).toContain('Counted to 3.');
  });
});

/**
 * What a terminal shows on the cursor's line each time it is about to be redrawn (`\r`), after a
 * newline, or at the end: the frames a person sees. Understands `\r`, `\n` and erase-line
 * (`ESC [ K`), the only controls the CLI writes with NO_COLOR.
 */
function terminalFrames(output: string): string[] {
  const frames: string[] = [];
  let line = '';
  let column = 0;
  for (let index = 0; index < output.length; index++) {
    const char = output[index]!;
    if (char === '\r' && output[index + 1] === '\n') {
      // The terminal's own newline translation (onlcr): the \n below ends the line.
    } else if (char === '\r') {
      if (line !== '') frames.push(line);
      column = 0;
    } else if (char === '\n') {
      frames.push(line);
      line = '';
      column = 0;
    } else if (output.startsWith('\u001b[K', index)) {
      line = line.slice(0, column);
      index += 2;
    } else {
      line = line.slice(0, column) + char + line.slice(column + 1);
      column++;
    }
  }
  if (line !== '') frames.push(line);
  return frames;
}

/** Runs a shell command in a pseudo-terminal (util-linux `script`), typing `input`; the raw bytes. */
function runInTerminalRaw(command: string, input: string, typeAfter?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, COLUMNS: '120' },
    });
    let output = '';
    let typed = false;
    // Text typed ahead is echoed by the terminal itself; typed after a prompt, only as the program wants.
    const type = () => {
      if (typed || (typeAfter !== undefined && !output.includes(typeAfter))) return;
      typed = true;
      child.stdin.end(input);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      type();
    });
    child.on('error', reject);
    child.on('close', () => resolve(output));
    type();
  });
}

/** Runs a shell command in a pseudo-terminal (util-linux `script`), typing `input`; no `\r`. */
async function runInTerminal(command: string, input: string): Promise<string> {
  return (await runInTerminalRaw(command, input)).replaceAll('\r', '');
}

describe.concurrent('bad input gets a clear error and the right exit code', { timeout: 60_000 }, () => {
  it('usage errors exit 2: no URI for read, unknown verb, unknown option, option of another verb', async () => {
    const [read, verb, option, misplaced] = await Promise.all([
      mcpkit('read', '--json', '--', 'node', 'server.js'),
      mcpkit('lsit', url),
      mcpkit('list', '--jsn', url),
      mcpkit('list', '--port', '3', url),
    ]);
    expect(read).toMatchObject({ code: 2, stdout: '' });
    expect(read.stderr).toBe('Error: "read" needs a URI\nUsage: mcpkit read TARGET URI\n');
    expect(verb.stderr).toContain('Did you mean "list"?');
    expect(option.stderr).toContain('Unknown option "--jsn"');
    expect(misplaced.stderr).toContain('--port does not apply to "list"');
    for (const run of [verb, option, misplaced]) expect(run.code, run.stderr).toBe(2);
  });

  it('a bad URL is a usage error with a suggestion', async () => {
    const [hostOnly, scheme, broken] = await Promise.all([
      mcpkit('list', '127.0.0.1:3000/mcp'),
      mcpkit('list', 'ftp://example.com/mcp'),
      mcpkit('list', 'http://'),
    ]);
    expect(hostOnly).toMatchObject({ code: 2 });
    expect(hostOnly.stderr).toContain('Did you mean http://127.0.0.1:3000/mcp?');
    expect(scheme.stderr).toContain('is not an http or https URL');
    expect(broken.stderr).toContain('is not a valid URL');
    expect(broken.code, broken.stderr).toBe(2);
  });

  it('an unreachable server exits 3 and says what to try', async () => {
    const port = await closedPort();
    const run = await mcpkit('list', `http://127.0.0.1:${port}/mcp`);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toBe(
      `Error: Could not connect to http://127.0.0.1:${port}/mcp: connection refused.\nTry: Is the server running? Start the demo server with: npx mcpkit serve\n`,
    );
  });

  it('a wrong path on a live server exits 3 with a hint', async () => {
    const run = await mcpkit('list', url.replace('/mcp', '/nope'));
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('HTTP 404');
    expect(run.stderr).toContain('the demo server serves /mcp');
  });

  it('a stdio command that dies, or does not exist, exits 3', async () => {
    const [dies, missing] = await Promise.all([
      mcpkit('list', '--', process.execPath, '-e', 'console.error("missing API_KEY"); process.exit(7)'),
      mcpkit('list', '--', 'mcpkit-no-such-command'),
    ]);
    expect(dies.code, dies.stderr).toBe(3);
    expect(dies.stderr).toContain('exited with code 7; last stderr output: missing API_KEY');
    expect(missing.code, missing.stderr).toBe(3);
    expect(missing.stderr).toContain(
      'Could not start the MCP server process "mcpkit-no-such-command": ENOENT',
    );
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it('a server that breaks the protocol exits 3', async () => {
    // A stdio server that answers the handshake properly, then breaks the rules of tools/call:
    // "bare" returns no content list; "typed" returns structuredContent against its outputSchema.
    const tools = [
      { name: 'bare', inputSchema: { type: 'object' } },
      {
        name: 'typed',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      },
    ];
    const answers = {
      initialize: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'bad', version: '1' },
      },
      'tools/list': { tools },
      bare: { nothing: true },
      typed: { content: [{ type: 'text', text: 'n is "many"' }], structuredContent: { n: 'many' } },
    };
    const server = `const answers=${JSON.stringify(answers)};let b='';process.stdin.setEncoding('utf8').on('data',d=>{b+=d;let i;while((i=b.indexOf('\\n'))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);if(m.id===undefined)continue;const result=answers[m.method]??answers[m.params.name];process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result})+'\\n')}})`;
    // --era 2025: the script answers the 2025 handshake only (its reply to server/discover has
    // neither result nor error).
    const [bare, typed] = await Promise.all([
      mcpkit('call', '--era', '2025', 'bare', '--', process.execPath, '-e', server),
      mcpkit('call', '--era', '2025', 'typed', '--', process.execPath, '-e', server),
    ]);
    expect(bare.code, bare.stderr).toBe(3);
    expect(bare.stderr).toContain('Protocol error: the server\'s answer to tools/call has no "content" list');
    expect(typed.code, typed.stderr).toBe(3);
    expect(typed.stdout).toBe('n is "many"\n');
    expect(typed.stderr).toContain(
      'Protocol error: tool "typed" declares an outputSchema, but its structuredContent does not match it (/n:',
    );
  });

  it('a tool that is not there exits 2 and names the ones that are', async () => {
    const run = await mcpkit('call', url, 'ecko', 'text=hi');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('Error: The server has no tool "ecko"');
    expect(run.stderr).toContain('Did you mean "echo"?');
  });

  it('bad arguments exit 2 before anything is called', async () => {
    const [type, missing, unknown, badJson] = await Promise.all([
      mcpkit('call', url, 'add', 'a=two', 'b=1'),
      mcpkit('call', url, 'echo'),
      mcpkit('call', url, 'echo', 'text=hi', 'loud=true'),
      mcpkit('call', url, 'echo', '--args', '{text:'),
    ]);
    expect(type.stderr).toContain('Argument "a" expects a number, got "two"');
    expect(type.stderr).toContain(`Usage: mcpkit call ${url} add a=<number> b=<number>`);
    expect(missing.stderr).toContain('missing required property "text"');
    expect(unknown.stderr).toContain('Tool "echo" has no argument "loud"');
    expect(badJson.stderr).toContain('--args is not valid JSON');
    for (const run of [type, missing, unknown, badJson]) expect(run.code, run.stderr).toBe(2);
  });

  it('an unknown resource exits 2', async () => {
    const run = await mcpkit('read', url, 'demo://items/fruit/durian');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('No item durian in category fruit');
  });

  it('a malformed config file exits 2, with where the JSON breaks', async () => {
    const file = path.join(scratch, 'broken.json');
    // Comments and trailing commas are accepted (JSONC, as VS Code reads it); this is not JSON.
    await writeFile(file, '{\n  "mcpServers": {\n    "demo": { "command": "node" ]\n  }\n}\n');
    const run = await mcpkit('list', '--config', file);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${file} is not valid JSON`);
    expect(run.stderr).toContain('(line 3, column 33)');
  });

  it('config files: url and command entries, --server, and the errors around them', async () => {
    const file = path.join(scratch, 'mcp.json');
    const [command, ...args] = DEMO_STDIO.slice(1);
    await writeFile(
      file,
      JSON.stringify({
        // startBudget: the listing below expects both servers, however slowly the stdio one starts.
        mcpServers: {
          http: { url, headers: { 'X-Demo': '1' } },
          stdio: { command, args, cwd: ROOT, startBudget: 120 },
        },
      }),
    );
    const [overHttp, overStdio, none, unknown, wrongOption] = await Promise.all([
      mcpkit('call', '--json', '--config', file, '--server', 'http', 'echo', 'text=via config'),
      mcpkit('call', '--config', file, '--server', 'stdio', 'add', 'a=1', 'b=2'),
      mcpkit('list', '--config', file),
      mcpkit('list', '--config', file, '--server', 'nope'),
      mcpkit('list', '--config', file, '--server', 'http', '-e', 'A=1'),
    ]);
    expect(json(overHttp).content[0].text).toBe('via config');
    expect(overStdio).toMatchObject({ code: 0, stdout: '3\n' });
    // Without --server, every server of the file: the namespaced catalogue and each server's state.
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('http__echo');
    expect(none.stdout).toContain('stdio__echo');
    expect(none.stdout).toMatch(/Servers\n\s+http\s+ready\n\s+stdio\s+ready/);
    expect(unknown.stderr).toContain('has no server named "nope"');
    expect(wrongOption.stderr).toContain('is an HTTP server; -e and --cwd apply to stdio servers');
    for (const run of [unknown, wrongOption]) expect(run.code, run.stderr).toBe(2);
  });

  it('help and version', async () => {
    const [bare, help, verbHelp, version] = await Promise.all([
      mcpkit(),
      mcpkit('--help'),
      mcpkit('call', '--help'),
      mcpkit('--version'),
    ]);
    expect(bare).toMatchObject({ code: 0 });
    expect(help.stdout).toBe(bare.stdout);
    expect(help.stdout).toContain('Usage: mcpkit VERB [OPTIONS] [TARGET] [VERB-ARGS…] [-- COMMAND…]');
    expect(help.stdout).toMatch(
      /Exit codes:\n {2}0 {4}success\n {2}1 .*\n {2}2 {4}usage error.*\n {2}3 .*\n {2}4 .*isError.*\n {2}5 {4}timeout.*\n {2}6 {4}replay: .*\n {2}130/,
    );
    expect(verbHelp.stdout).toContain('Usage: mcpkit call TARGET TOOL [key=value…] [--args JSON] [--task]');
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('serve reports a busy port with exit 3', async () => {
    const port = new URL(url).port;
    const run = await mcpkit('serve', '--port', port);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
  });
});

describe('mcpkit before the packages are built', () => {
  it('after npm ci --ignore-scripts (no dist/), the bin says to run npm run build instead of a raw ERR_MODULE_NOT_FOUND', async () => {
    // The real bin script, in a package folder that has no dist/ yet.
    const unbuilt = path.join(scratch, 'unbuilt');
    await mkdir(path.join(unbuilt, 'bin'), { recursive: true });
    await copyFile(path.join(ROOT, 'packages/cli/bin/mcpkit.js'), path.join(unbuilt, 'bin/mcpkit.js'));
    const run = spawnSync(
      process.execPath,
      [path.join(unbuilt, 'bin/mcpkit.js'), 'list', 'http://127.0.0.1:1/mcp'],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^Error: mcpkit is not built: Cannot find module '.*dist.main\.js'/);
    expect(run.stderr).toContain('npm run build');
    expect(run.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
