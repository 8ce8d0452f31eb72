import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LoggedMessage, recordSession } from '@mcpkit/console/replay';
import { McpHost } from '@mcpkit/host';
import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoggedTransport } from '../packages/console/src/protocolLog.js';
import { CLI, replayCli } from './support/consoleRun.js';
import { repoRoot } from './support/officialSchema.js';

const SERVER = [...CLI.slice(0, 2), 'tests/fixtures/replay-server.ts'];

/** A config of the replay fixture twice, as `a` and `b`; `b` in the variant given. */
function config(variantOfB: 'before' | 'after') {
  const entry = (variant: string) => ({
    command: process.execPath,
    args: SERVER,
    cwd: repoRoot,
    env: { REPLAY_VARIANT: variant },
    // Run without asking (the host of `--config` has no one to ask).
    autoApprove: ['echo'],
  });
  return { mcpServers: { a: entry('before'), b: entry(variantOfB) } };
}

describe('mcpkit replay --config: a host session, each exchange to its server', { timeout: 120_000 }, () => {
  let dir: string;
  let sameConfig: string;
  let changedConfig: string;
  let sessionFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-replay-host-'));
    sameConfig = path.join(dir, 'same.json');
    changedConfig = path.join(dir, 'changed.json');
    sessionFile = path.join(dir, 'session.json');
    await writeFile(sameConfig, JSON.stringify(config('before')));
    await writeFile(changedConfig, JSON.stringify(config('after')));
    // Recorded as the console records against a host: every server's connection logged with its name.
    const entries: LoggedMessage[] = [];
    const connector = nodeConnector();
    const host = new McpHost({
      servers: await loadHostConfig(sameConfig),
      connector: async (entry) =>
        new LoggedTransport(await connector(entry), (logged) => entries.push(logged), entry.name),
      startBudgetMs: Number.POSITIVE_INFINITY,
    });
    try {
      expect((await host.tools()).map((tool) => tool.name)).toContain('b__echo');
      await host.callTool('a__echo', { text: 'to a' });
      await host.callTool('b__echo', { text: 'to b' });
      await host.readResource('mcp-host://b/replay://readme');
      await host.getPrompt('a__greet', { name: 'Ada' });
    } finally {
      await host.close();
    }
    const session = recordSession(entries, `--config ${sameConfig}`, undefined, true);
    await writeFile(sessionFile, JSON.stringify(session));
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the same servers answer the same: exit 0, each exchange named with its server', async () => {
    const { code, stdout, stderr } = await replayCli([sessionFile, '--config', sameConfig]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^same {5}tools\/call echo on a$/m);
    expect(stdout).toMatch(/^same {5}tools\/call echo on b$/m);
    expect(stdout).toMatch(/^same {5}resources\/read replay:\/\/readme on b$/m);
    expect(stdout).toMatch(/^same {5}prompts\/get greet on a$/m);
    expect(stdout).toMatch(/^All \d+ answers are the same as recorded\.$/m);
  });

  it('a changed server: exit 6, only its exchanges changed, each field named (--json too)', async () => {
    const text = await replayCli([sessionFile, '--config', changedConfig]);
    expect(text.code).toBe(6);
    expect(text.stdout).toMatch(
      /^changed {2}tools\/call echo on b\n {9}~ content\[0\]\.text: "to b" → "to b!"$/m,
    );
    expect(text.stdout).toMatch(/^same {5}tools\/call echo on a$/m);
    const json = await replayCli([sessionFile, '--config', changedConfig, '--json']);
    expect(json.code).toBe(6);
    const report = JSON.parse(json.stdout);
    const changed = report.exchanges
      .filter((exchange: any) => !exchange.same)
      .map((exchange: any) => `${exchange.server} ${exchange.method}`);
    expect(changed).toEqual(['b tools/list', 'b tools/call']);
    expect(report.exchanges.every((exchange: any) => ['a', 'b'].includes(exchange.server))).toBe(true);
  });
});

describe('mcpkit replay --config: nobody to ask (--approve-all; elicitation and sampling refused)', {
  timeout: 120_000,
}, () => {
  let dir: string;
  let configFile: string;
  let sessionFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-replay-asks-'));
    configFile = path.join(dir, 'mcp.json');
    sessionFile = path.join(dir, 'session.json');
    // No autoApprove: every call needs consent, which a replay's host cannot ask for.
    const entry = {
      command: process.execPath,
      args: SERVER,
      cwd: repoRoot,
      env: { REPLAY_VARIANT: 'before', REPLAY_ASKS: '1' },
    };
    await writeFile(configFile, JSON.stringify({ mcpServers: { a: entry, b: entry } }));
    // Recorded with a person there: consent given, the form filled, a model answering.
    const entries: LoggedMessage[] = [];
    const connector = nodeConnector();
    const host = new McpHost({
      servers: await loadHostConfig(configFile),
      connector: async (server) =>
        new LoggedTransport(await connector(server), (logged) => entries.push(logged), server.name),
      startBudgetMs: Number.POSITIVE_INFINITY,
      hooks: {
        toolCall: () => 'once',
        sampling: () => 'once',
        elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
      },
      models: ['test-model'],
      model: ({ model }) => ({ role: 'assistant', model, content: { type: 'text', text: '4' } }),
    });
    try {
      expect((await host.callTool('a__echo', { text: 'to a' })).content).toEqual([
        { type: 'text', text: 'to a' },
      ]);
      expect((await host.callTool('b__ask-name', {})).content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
      expect(JSON.stringify((await host.callTool('b__ask-model', {})).content)).toContain('4');
    } finally {
      await host.close();
    }
    await writeFile(
      sessionFile,
      JSON.stringify(recordSession(entries, `--config ${configFile}`, undefined, true)),
    );
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('without --approve-all a call that needs consent is refused, and the replay says so', async () => {
    const { code, stdout } = await replayCli([sessionFile, '--config', configFile]);
    expect(code).toBe(6);
    expect(stdout).toMatch(/^changed {2}tools\/call echo on a$/m);
    expect(stdout).toContain('needs consent and this host has no one to ask');
  });

  it('--approve-all runs every recorded call; what a server asks fails at once, naming the server', async () => {
    const { code, stdout, stderr } = await replayCli([sessionFile, '--config', configFile, '--approve-all']);
    expect(code).toBe(6);
    expect(stdout).toMatch(/^same {5}tools\/call echo on a$/m);
    expect(stdout).toMatch(/^changed {2}tools\/call ask-name on b$/m);
    expect(stdout).toMatch(/^changed {2}tools\/call ask-model on b$/m);
    expect(stdout).toContain('mcpkit replay cannot answer: server \\"b\\" asked for a form to be filled');
    expect(stderr).toContain(
      'Server "b" asked for a form to be filled ("What is your name?") during the replay; refused: nobody answers a replay.',
    );
    expect(stderr).toContain(
      'Server "b" asked for a model completion (sampling, 1 message(s)) during the replay',
    );
  });

  it('--approve-all against one server (no host, nothing asks for consent) says it does nothing', async () => {
    const { stderr } = await replayCli([
      sessionFile,
      '--config',
      configFile,
      '--server',
      'a',
      '--approve-all',
    ]);
    expect(stderr).toContain(
      '--approve-all applies to a host session replayed with --config FILE of several servers',
    );
  });
});
