/**
 * The official MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`, a devDependency) against
 * `mcpkit gateway` as a real process, over Streamable HTTP and over stdio: it lists the tools of
 * two upstreams (the demo server and the reference everything server, both stdio) and calls each.
 *
 * The Inspector CLI is run from its own `build` directory: it finds its package.json by a path
 * relative to the working directory (`../package.json`), so from anywhere else it fails before
 * connecting ("Cannot find module …/@modelcontextprotocol/package.json").
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, exited, printedUrl, twoServerConfigForFile } from './support/gatewayProcess.js';
import { repoRoot } from './support/officialSchema.js';

const run = promisify(execFile);
/** Each Inspector run is a new session, so the gateway starts both upstreams again: slow on 2 cores. */
const SLOW = 150_000;
const INSPECTOR_DIR = path.join(repoRoot, 'node_modules/@modelcontextprotocol/inspector-cli/build');
const GATEWAY = [...CLI, 'gateway'];

const configFile = twoServerConfigForFile('mcpkit-gateway-inspector-');

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

describe('the official Inspector CLI against mcpkit gateway', () => {
  it(
    'lists and calls the tools of two upstreams over Streamable HTTP',
    async () => {
      const child = spawn(
        process.execPath,
        [...GATEWAY, '--config', configFile.path, '--http', '--port', '0'],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      const done = exited(child);
      try {
        const url = await printedUrl(child);
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
      await listAndCall([process.execPath], ['--', ...GATEWAY, '--config', configFile.path, '--stdio']);
    },
    SLOW,
  );
});
