/**
 * The `mcpkit` CLI, run in-process (`runCli`), against the reference server
 * `@modelcontextprotocol/server-everything` over stdio: every verb, and each kind of request the
 * server sends back (sampling, elicitation, roots), with the CLI's exit codes.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CliRun, runCliInProcess } from './support/inProcessCli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVERYTHING = [
  '--',
  process.execPath,
  path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  'stdio',
];

type Run = CliRun;

/** Runs `mcpkit ARGS… -- server-everything stdio` to completion (in this process; the server is a real one). */
function mcpkit(...args: string[]): Promise<Run> {
  return runCliInProcess([...args, ...EVERYTHING]);
}

function json(run: Run): any {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe.concurrent('mcpkit against server-everything over stdio', { timeout: 60_000 }, () => {
  it('info and ping', async () => {
    const [info, ping] = await Promise.all([mcpkit('info', '--json'), mcpkit('ping')]);
    expect(json(info)).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'mcp-servers/everything' },
    });
    expect(ping.stdout).toMatch(/^pong from mcp-servers\/everything in [\d.]+ ms\n$/);
  });

  it('list --json lists tools, resources, templates and prompts', async () => {
    const listing = json(await mcpkit('list', '--json'));
    expect(listing.tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum']),
    );
    expect(listing.resources.length).toBeGreaterThan(0);
    expect(listing.resourceTemplates.length).toBeGreaterThan(0);
    expect(listing.prompts.map((prompt: { name: string }) => prompt.name)).toContain('args-prompt');
  });

  it('call coerces numbers by the schema; --json is the exact result', async () => {
    const [sum, echo] = await Promise.all([
      mcpkit('call', 'get-sum', 'a=2', 'b=3.5'),
      mcpkit('call', '--json', 'echo', 'message=hi'),
    ]);
    expect(sum).toMatchObject({ code: 0, stdout: 'The sum of 2 and 3.5 is 5.5.\n' });
    expect(json(echo)).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
  });

  it('read, get and complete', async () => {
    const [read, get, complete] = await Promise.all([
      mcpkit('read', '--json', 'demo://resource/dynamic/text/1'),
      mcpkit('get', 'args-prompt', 'city=Paris'),
      mcpkit('complete', 'completable-prompt', 'department=Eng'),
    ]);
    expect(json(read).contents[0]).toMatchObject({
      uri: 'demo://resource/dynamic/text/1',
      text: expect.any(String),
    });
    expect(get.stdout).toContain("What's weather in Paris?");
    expect(complete.stdout).toBe('Engineering\n');
  });

  it('progress notifications of a long call arrive (shown with --verbose)', async () => {
    const run = await mcpkit(
      'call',
      'trigger-long-running-operation',
      'duration=0.3',
      'steps=3',
      '--verbose',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/← \{"method":"notifications\/progress"/g)?.length).toBe(3);
    expect(run.stdout).toContain('Long running operation completed');
  });

  it('sampling: refused without --sampling-command (exit 4), answered with it', async () => {
    const [refused, answered] = await Promise.all([
      mcpkit('call', 'trigger-sampling-request', 'prompt=Hello'),
      mcpkit(
        'call',
        'trigger-sampling-request',
        'prompt=Hello',
        '--sampling-command',
        'echo Sampled by a shell command',
      ),
    ]);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('Sampling refused');
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain('Sampled by a shell command');
  });

  it('elicitation is declined off a terminal', async () => {
    const run = await mcpkit('call', 'trigger-elicitation-request');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"action": "decline"');
    expect(run.stderr).toContain('declined, because stdin is not an interactive terminal');
  });

  it('--root answers roots/list; -e reaches the server environment', async () => {
    const [roots, env] = await Promise.all([
      mcpkit('call', 'get-roots-list', '--root', '.'),
      mcpkit('call', 'get-env', '-e', 'MCPKIT_CLI_TEST=from-the-cli'),
    ]);
    expect(roots.stdout).toContain(pathToFileURL(ROOT).href.replace(/\/$/, ''));
    expect(env.stdout).toContain('from-the-cli');
  });

  it('runs a task-capable tool as a task', async () => {
    const run = await mcpkit('call', '--json', 'simulate-research-query', 'topic=tides', '--task');
    expect(json(run).content[0].text).toContain('Research Report: tides');
    expect(run.stderr).toMatch(/Task \S+ is completed/);
  });

  it('errors: an unknown tool exits 2, a -32042 answer exits 3 with the URL to open', async () => {
    const [unknown, urlRequired] = await Promise.all([
      mcpkit('call', 'no-such-tool'),
      mcpkit('call', 'trigger-url-elicitation', 'url=https://example.com/login', 'errorPath=true'),
    ]);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('The server has no tool "no-such-tool"');
    expect(urlRequired.code, urlRequired.stderr).toBe(3);
    // The reference server names its own URL in the -32042 error data.
    expect(urlRequired.stderr).toMatch(
      /browser first:\n {2}.+\n {2}https:\/\/\S+\nTry: Open the URL, then run the command again\n$/,
    );
  });
});
