/**
 * The official MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`, a devDependency) against
 * `mcpkit gateway` as a real process, over Streamable HTTP and over stdio: it lists the tools of
 * two upstreams (the demo server and the reference everything server, both stdio) and calls each.
 *
 * The Inspector CLI is run from its own `build` directory: it finds its package.json by a path
 * relative to the working directory (`../package.json`), so from anywhere else it fails before
 * connecting ("Cannot find module …/@modelcontextprotocol/package.json").
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStdio, reference } from './fixtures/hostServers.js';
import { repoRoot } from './support/officialSchema.js';

const run = promisify(execFile);
/** Each Inspector run is a new session, so the gateway starts both upstreams again: slow on 2 cores. */
const SLOW = 150_000;
const INSPECTOR_DIR = path.join(repoRoot, 'node_modules/@modelcontextprotocol/inspector-cli/build');
const GATEWAY = [
  '--import',
  path.join(repoRoot, 'conformance/register-ts.mjs'),
  path.join(repoRoot, 'packages/cli/src/main.ts'),
  'gateway',
];

let dir = '';
let config = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-gateway-inspector-'));
  config = path.join(dir, 'mcp.json');
  const mcpServers: Record<string, unknown> = {};
  for (const entry of [demoStdio('demo'), reference('everything', 'server-everything', ['stdio'])]) {
    if (entry.kind !== 'stdio') throw new Error('stdio entries expected');
    mcpServers[entry.name] = { command: entry.command, args: entry.args };
  }
  await writeFile(config, JSON.stringify({ mcpServers }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the Inspector CLI with `args`; resolves with its JSON answer. */
async function inspector(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['index.js', ...args], {
    cwd: INSPECTOR_DIR,
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The Inspector's calls: list, then call a tool of each upstream, against `target`. */
async function listAndCall(target: string[], rest: string[] = []): Promise<void> {
  const listed = await inspector([...target, '--method', 'tools/list', ...rest]);
  const names = (listed.tools as Array<{ name: string }>).map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['demo__echo', 'everything__echo', 'add']));
  const echoed = await inspector([
    ...target,
    '--method',
    'tools/call',
    '--tool-name',
    'everything__echo',
    '--tool-arg',
    'message=through the gateway',
    ...rest,
  ]);
  expect(JSON.stringify(echoed.content)).toContain('Echo: through the gateway');
  const added = await inspector([
    ...target,
    '--method',
    'tools/call',
    '--tool-name',
    'add',
    '--tool-arg',
    'a=2',
    'b=3',
    ...rest,
  ]);
  expect(JSON.stringify(added.content)).toContain('5');
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('the official Inspector CLI against mcpkit gateway', () => {
  it(
    'lists and calls the tools of two upstreams over Streamable HTTP',
    async () => {
      const child = spawn(process.execPath, [...GATEWAY, '--config', config, '--http', '--port', '0'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const done = exited(child);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let text = '';
          child.stdout!.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            const match = /^(http:\/\/\S+)$/m.exec(text);
            if (match) resolve(match[1]!);
          });
          child.once('exit', (code) => reject(new Error(`mcpkit gateway exited early (${code})`)));
        });
        await listAndCall([url, '--transport', 'http']);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await done).toBe(0);
    },
    SLOW,
  );

  it(
    'lists and calls the tools of two upstreams over stdio, starting the gateway itself',
    async () => {
      // The Inspector's target is a command; arguments that look like options go after `--`.
      await listAndCall([process.execPath], ['--', ...GATEWAY, '--config', config, '--stdio']);
    },
    SLOW,
  );
});
