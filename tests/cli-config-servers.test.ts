/**
 * `--config FILE` with several servers (issue 29's smaller items), in this process: a SERVER
 * column and a `server` field per tool; a name two servers offer suggests both namespaced names;
 * an upstream that dies mid-call exits 3 as with `--server` (the README's table), not 4 (a tool's
 * `isError`); a failed server's state shows the end of its stderr; a file with comments and
 * trailing commas is read. The servers are tests/fixtures/host-upstream.mjs (plain JavaScript,
 * tens of milliseconds to start).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/inProcessCli.js';

const UPSTREAM = fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url));
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A config file (JSONC, as VS Code writes it) of `servers`, each `[name, mode]`. Each waits up to
 * 60 s to start (`startBudget`): on a loaded machine the default 3 s could leave one unlisted.
 */
async function config(name: string, servers: Array<[string, string]>): Promise<string> {
  const entries = servers.map(
    ([server, mode]) =>
      `    // ${mode}\n    ${JSON.stringify(server)}: { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(UPSTREAM)}, "${mode}"], "autoApprove": ["*"], "startBudget": 60, },`,
  );
  const file = path.join(dir, name);
  await writeFile(file, `{\n  "mcpServers": {\n${entries.join('\n')}\n  },\n}\n`);
  return file;
}

describe('mcpkit --config FILE with several servers (issue 29)', { timeout: 30_000 }, () => {
  it('list shows a SERVER column, and --json gives each tool its server', async () => {
    const file = await config('two.json', [
      ['a', 'normal'],
      ['b', 'normal'],
    ]);
    const human = await runCliInProcess(['list', 'tools', '--config', file]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^NAME {2,}SERVER {2,}ARGUMENTS {2,}DESCRIPTION$/m);
    expect(human.stdout).toMatch(/^a__echo {2,}a {2,}text\?/m);
    expect(human.stdout).toMatch(/^b__echo {2,}b {2,}text\?/m);
    const json = await runCliInProcess(['list', 'tools', '--config', file, '--json']);
    const tools = JSON.parse(json.stdout).tools as Array<{ name: string; server: string }>;
    expect(tools.map(({ name, server }) => [name, server]).sort()).toEqual([
      ['a__echo', 'a'],
      ['a__pid', 'a'],
      ['a__sleep', 'a'],
      ['b__echo', 'b'],
      ['b__pid', 'b'],
      ['b__sleep', 'b'],
    ]);
  });

  it('call of a name two servers offer suggests both namespaced names', async () => {
    const file = await config('echo.json', [
      ['a', 'normal'],
      ['b', 'normal'],
    ]);
    const run = await runCliInProcess(['call', '--config', file, 'echo', 'text=hi']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Several servers offer it: call "a__echo" or "b__echo"?');
  });

  it('an upstream that dies mid-call exits 3 (connection), naming the server, not its command', async () => {
    const file = await config('dies.json', [
      ['quiet', 'normal'],
      ['dies', 'dies-on-call'],
    ]);
    const run = await runCliInProcess(['call', '--config', file, 'dies__echo', 'text=hi']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('Server "dies" stopped while the request was in flight');
    expect(run.stderr).not.toContain(UPSTREAM);
  });

  it("a failed server's state in list shows the end of its stderr", async () => {
    const file = path.join(dir, 'fails.json');
    const script = path.join(dir, 'exits.mjs');
    await writeFile(
      script,
      "process.stderr.write('starting\\nError: TOKEN is required\\n'); process.exit(1);\n",
    );
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          quiet: { command: process.execPath, args: [UPSTREAM] },
          // Five attempts on a loaded machine can outlast the default 3 s: wait for it to fail.
          fails: { command: process.execPath, args: [script], startBudget: 60 },
        },
      }),
    );
    const run = await runCliInProcess(['list', 'tools', '--config', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}fails +failed \(Server "fails" could not be started .*last stderr output: Error: TOKEN is required\)$/m,
    );
    // Then the end of its stderr, as `--server` shows it.
    expect(run.stdout).toContain('required)\n      starting\n      Error: TOKEN is required\n');
    const json = JSON.parse((await runCliInProcess(['list', 'tools', '--config', file, '--json'])).stdout);
    expect(json.servers.find((s: { server: string }) => s.server === 'fails').stderr).toBe(
      'starting\nError: TOKEN is required\n',
    );
  });
});
