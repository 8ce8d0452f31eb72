/**
 * `mcpkit gateway` as a real process, for what an operator sets and sees about its upstreams:
 * - each upstream's state changes on its stderr (ready and how long it took, failed and why with
 *   the last line of its stderr, restarting after a crash), secrets redacted;
 * - `--start-budget DURATION`: how long the first listing waits for a server still starting;
 * - `--max-total-timeout DURATION`: a call flooding progress ends there;
 * - `--apps`: MCP Apps declared upstream, so `_meta.ui` and `ui://` views pass through.
 * Upstreams: tests/fixtures/host-upstream.mjs (plain JavaScript, over stdio), one that exits
 * without its token, one that starts late, and ext-apps' server-basic-vanillajs from npm.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { APPS_CLIENT_CAPABILITIES } from '@mcpkit/apps';
import { McpClient } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';
import { CLI } from './support/gatewayProcess.js';
import { fixtureCommand } from './support/tsFixture.js';

const UPSTREAM = fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url));
const require = createRequire(import.meta.url);
const APPS_EXAMPLE = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')),
  'index.js',
);

/** Starts after `ms`: a server slower than the default start budget. */
const lateStart = (ms: number) => ({
  command: process.execPath,
  args: ['-e', `setTimeout(() => import(${JSON.stringify(pathToFileURL(UPSTREAM).href)}), ${ms})`],
});

const SERVERS = {
  quiet: { command: process.execPath, args: [UPSTREAM] },
  crasher: { command: process.execPath, args: [UPSTREAM, 'dies-on-call'] },
  // Exits as a server without its token does; its last stderr line quotes a secret.
  gitlab: {
    command: process.execPath,
    args: [
      '-e',
      "process.stderr.write('GITLAB_PERSONAL_ACCESS_TOKEN is not set\\nAuthorization: Bearer sekret-token-1234\\n'); process.exit(1)",
    ],
  },
  late: lateStart(4_000),
};

let dir: string;
const clients: McpClient[] = [];

async function configWith(name: string, mcpServers: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ mcpServers }));
  return file;
}

/** `mcpkit gateway --stdio` over `config` with `flags`, connected; `log()` is its stderr so far. */
async function gateway(
  config: string,
  flags: string[],
  capabilities?: Record<string, unknown>,
): Promise<{ client: McpClient; log: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, 'gateway', '--config', config, '--stdio', ...flags],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new McpClient({ name: 'operator', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return { client, log: () => stderr };
}

const gatewayLine = (log: string, pattern: RegExp) =>
  log.split('\n').find((line) => line.startsWith('[mcpkit gateway] ') && pattern.test(line));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-gateway-upstreams-'));
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('mcpkit gateway logs its upstreams’ state changes', () => {
  it('ready with its start time, failed with its exit and last stderr line (redacted), restarting after a crash', async () => {
    const config = await configWith('states', SERVERS);
    const { client, log } = await gateway(config, ['--start-budget', '30s']);
    // --start-budget 30s: the first listing waits for the late server (4 s, past the default 3 s).
    const names = (await client.tools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['quiet__echo', 'crasher__echo', 'late__echo']));
    const died = await client.callTool('crasher__echo', { text: 'hi' });
    expect(died.isError).toBe(true);

    await eventually(
      () => gatewayLine(log(), /gitlab failed/) !== undefined,
      'the failure of gitlab',
      60_000,
    );
    await eventually(() => gatewayLine(log(), /crasher restarting/) !== undefined, 'the crash of crasher');
    expect(gatewayLine(log(), /^\[mcpkit gateway\] quiet ready/)).toMatch(/ quiet ready \(\d+\.\d s\)$/);
    expect(gatewayLine(log(), / late ready/)).toMatch(/ late ready \((\d+)\.\d s\)$/);
    expect(Number(/late ready \((\d+)/.exec(log())![1])).toBeGreaterThanOrEqual(4);
    const failed = gatewayLine(log(), /gitlab failed/)!;
    expect(failed).toMatch(/^\[mcpkit gateway\] gitlab failed: could not be started .*exited with code 1/);
    expect(failed).toContain('Authorization: Bearer [redacted]');
    expect(log()).not.toContain('sekret-token-1234');
    expect(gatewayLine(log(), /crasher restarting/)).toMatch(
      /crasher restarting \(crashed: .*exited with code 3.*fatal: lost my database\)$/,
    );
  }, 120_000);

  it('--start-budget 1s: the first listing answers without the server still starting', async () => {
    const config = await configWith('budget', { quiet: SERVERS.quiet, late: SERVERS.late });
    const { client, log } = await gateway(config, ['--start-budget', '1s']);
    // Only quiet's tools, not yet namespaced: late's would collide with them.
    expect((await client.tools()).map((tool) => tool.name).sort()).toEqual(['echo', 'pid', 'sleep']);
    await eventually(() => gatewayLine(log(), / late ready/) !== undefined, 'the late server ready', 30_000);
    const names = (await client.tools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['quiet__echo', 'late__echo']));
  }, 60_000);
});

describe('mcpkit gateway --max-total-timeout', () => {
  it('ends an upstream call that floods progress at the limit, with a tool error saying so', async () => {
    const flood = fixtureCommand('misbehaving-stdio.ts', 'notification-flood');
    const config = await configWith('flood', { flood, quiet: SERVERS.quiet });
    const { client } = await gateway(config, ['--max-total-timeout', '3s']);
    await client.tools();
    let progress = 0;
    const result = await client.callTool('flood__echo', { text: 'x' }, { onProgress: () => void progress++ });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('maximum total time of 3000 ms');
    expect(progress).toBeGreaterThan(100);
    const quiet = await client.callTool('quiet__echo', { text: 'still here' });
    expect((quiet.content[0] as { text: string }).text).toBe('still here');
  }, 60_000);
});

describe('mcpkit gateway --apps', () => {
  it('passes the upstream’s app links and ui:// views through to a client that declares the extension', async () => {
    const config = await configWith('apps', {
      example: { command: process.execPath, args: [APPS_EXAMPLE, '--stdio'] },
    });
    const withApps = await gateway(config, ['--apps'], APPS_CLIENT_CAPABILITIES);
    const tool = (await withApps.client.tools()).find((candidate) => candidate.name === 'get-time');
    expect(tool?._meta?.ui).toEqual({ resourceUri: 'ui://get-time/mcp-app.html' });
    const uris = (await withApps.client.resources()).map((resource) => resource.uri);
    expect(uris).toContain('ui://get-time/mcp-app.html');

    expect(withApps.client.serverCapabilities?.extensions).toMatchObject({
      'io.modelcontextprotocol/ui': {},
    });

    // Without --apps the gateway does not offer the extension.
    const without = await gateway(config, [], APPS_CLIENT_CAPABILITIES);
    const extensions = (without.client.serverCapabilities?.extensions ?? {}) as Record<string, unknown>;
    expect(extensions['io.modelcontextprotocol/ui']).toBeUndefined();
  }, 60_000);
});
