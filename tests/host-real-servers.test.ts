/**
 * The host and the gateway against servers nobody here wrote: a pinned set of popular MCP servers
 * from npm (scripts/install-real-servers.sh installs them into .cache/real-servers; nothing of
 * theirs is committed), in one `mcpServers` file as a user would write it, with two that cannot
 * start here (GitLab's exits without its token; one names a command that is not installed) and the
 * filesystem server twice, so names collide.
 *
 * `mcpkit gateway` runs as a real process and the official SDK clients, v1 and v2, each as its own
 * process (tests/fixtures/realServersClient.mjs), list the whole catalogue and make a safe call on
 * four servers; `/readyz` reports the two failed servers with their reasons. Then the same through
 * `McpHost` directly. It is the closest thing to a user's machine that CI can have (issue 29).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { McpHost } from '@mcpkit/host';
import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLI, exited, printedUrl } from './support/gatewayProcess.js';
import { repoRoot } from './support/officialSchema.js';

const run = promisify(execFile);
const SLOW = 240_000;
const modules = path.join(repoRoot, '.cache/real-servers/node_modules');
const bin = (name: string): string => path.join(modules, '.bin', name);

/** The servers that start here, and one tool each that proves its tools reached the catalogue. */
const READY: Record<string, string> = {
  everything: 'echo',
  files: 'files__read_text_file',
  docs: 'docs__read_text_file',
  memory: 'read_graph',
  thinking: 'sequentialthinking',
  github: 'search_repositories',
  postgres: 'query',
  playwright: 'browser_navigate',
  devtools: 'navigate_page',
  context7: 'resolve-library-id',
  mongodb: 'list-databases',
  notion: 'API-post-search',
  tavily: 'tavily_search',
  circleci: 'run_pipeline',
};
const FAILED = ['gitlab', 'missing'];

let dir = '';
let config = '';
let filesRoot = '';
let docsRoot = '';

/** The `mcpServers` file: what a user copies from each server's README, with local paths. */
function mcpServers(): Record<string, unknown> {
  const quiet = {
    DO_NOT_TRACK: '1',
    MDB_MCP_TELEMETRY: 'disabled',
    CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
  };
  return {
    everything: { command: bin('mcp-server-everything'), args: ['stdio'] },
    files: { command: bin('mcp-server-filesystem'), args: [filesRoot] },
    docs: { command: bin('mcp-server-filesystem'), args: [docsRoot] },
    memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
    thinking: { command: bin('mcp-server-sequential-thinking') },
    github: { command: bin('mcp-server-github') },
    gitlab: { command: bin('mcp-server-gitlab') }, // exits: no GITLAB_PERSONAL_ACCESS_TOKEN
    postgres: { command: bin('mcp-server-postgres'), args: ['postgresql://127.0.0.1:9/none'] },
    playwright: { command: bin('playwright-mcp'), args: ['--headless'] },
    devtools: { command: bin('chrome-devtools-mcp'), args: ['--no-usage-statistics'], env: quiet },
    context7: { command: bin('context7-mcp'), env: quiet },
    mongodb: { command: bin('mongodb-mcp-server'), env: quiet },
    notion: { command: bin('notion-mcp-server') },
    tavily: { command: bin('tavily-mcp') },
    circleci: { command: bin('mcp-server-circleci') },
    missing: { command: 'mcp-server-that-is-not-installed' },
  };
}

/** The safe calls: one on each of four servers, and the two filesystem servers told apart. */
const CALLS = [
  { name: 'echo', arguments: { message: 'from a real server' } },
  { name: 'read_graph', arguments: {} },
  {
    name: 'sequentialthinking',
    arguments: { thought: 'One step', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
  },
  { name: 'files__list_allowed_directories', arguments: {} },
  { name: 'docs__list_allowed_directories', arguments: {} },
];

type CallResults = Record<string, { isError: boolean; text: string }>;

function expectSafeCalls(results: CallResults): void {
  for (const { name } of CALLS) expect(results[name]?.isError, `${name}: ${results[name]?.text}`).toBe(false);
  expect(results.echo!.text).toContain('from a real server');
  expect(JSON.parse(results.read_graph!.text)).toMatchObject({ entities: [], relations: [] });
  expect(results.sequentialthinking!.text).toContain('"thoughtNumber": 1');
  expect(results.files__list_allowed_directories!.text).toContain(filesRoot);
  expect(results.files__list_allowed_directories!.text).not.toContain(docsRoot);
  expect(results.docs__list_allowed_directories!.text).toContain(docsRoot);
}

function expectWholeCatalogue(tools: readonly string[]): void {
  expect(new Set(tools).size).toBe(tools.length); // unique names
  for (const [server, tool] of Object.entries(READY)) expect(tools, `a tool of ${server}`).toContain(tool);
  expect(tools.length).toBeGreaterThan(150);
  // The two filesystem servers collide on every name: both are namespaced, neither is lost.
  expect(tools.filter((name) => name.startsWith('files__')).length).toBe(
    tools.filter((name) => name.startsWith('docs__')).length,
  );
}

beforeAll(async () => {
  await run('bash', [path.join(repoRoot, 'scripts/install-real-servers.sh')], { timeout: 600_000 });
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-real-servers-'));
  filesRoot = path.join(dir, 'files');
  docsRoot = path.join(dir, 'docs');
  await mkdir(filesRoot);
  await mkdir(docsRoot);
  config = path.join(dir, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: mcpServers() }, null, 2));
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Readiness {
  ready: boolean;
  servers: Array<{ server: string; state: string; lastError?: string }>;
}

async function readiness(url: string): Promise<Readiness> {
  const response = await fetch(new URL('/readyz', url));
  return (await response.json()) as Readiness;
}

/** One official SDK client, as its own process, against the gateway at `url`. */
async function sdkClient(
  flavour: 'v1' | 'v2',
  url: string,
): Promise<{ tools: string[]; results: CallResults }> {
  const script = path.join(repoRoot, 'tests/fixtures/realServersClient.mjs');
  const child = execFile(process.execPath, [script, flavour, url], { cwd: repoRoot, timeout: 120_000 });
  child.stdin!.end(JSON.stringify(CALLS));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const code = await exited(child);
  if (code !== 0) throw new Error(`SDK ${flavour} client exited ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { tools: string[]; results: CallResults };
}

describe('real npm servers behind mcpkit gateway, driven by the official SDK clients', () => {
  it(
    'serves the whole catalogue with unique names, routes safe calls, and reports the two that failed',
    async () => {
      const gateway = spawn(
        process.execPath,
        [...CLI, 'gateway', '--config', config, '--http', '--port', '0'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let log = '';
      gateway.stderr!.on('data', (chunk: Buffer) => {
        log += chunk;
      });
      const done = exited(gateway);
      try {
        const url = await printedUrl(gateway);
        // A first client starts the upstreams; the catalogue answers within the start budget (3 s)
        // with what is ready, so wait until every server has settled before asking for all of it.
        await sdkClient('v1', url);
        await vi.waitFor(
          async () => {
            const states = (await readiness(url)).servers.map((row) => row.state);
            expect(states.filter((state) => state === 'starting' || state === 'stopped')).toEqual([]);
          },
          { timeout: 120_000, interval: 250 },
        );
        for (const flavour of ['v1', 'v2'] as const) {
          const seen = await sdkClient(flavour, url);
          expectWholeCatalogue(seen.tools);
          expectSafeCalls(seen.results);
        }
        // Every server has settled: the ones that can start are ready, the two that cannot are
        // failed with a reason, and the gateway says it is not ready because of them.
        const settled = await vi.waitFor(
          async () => {
            const state = await readiness(url);
            const states = Object.fromEntries(state.servers.map((row) => [row.server, row.state]));
            for (const server of Object.keys(READY)) expect(states[server], server).toBe('ready');
            for (const server of FAILED) expect(states[server], server).toBe('failed');
            return state;
          },
          { timeout: 60_000, interval: 250 },
        );
        // /readyz carries states, not error texts (they can name paths and hosts): 503 with the two.
        expect(settled.ready).toBe(false);
        expect((await fetch(new URL('/readyz', url))).status).toBe(503);
        expect(gateway.exitCode).toBeNull();
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- gateway stderr ---\n${log.slice(-4000)}`);
      } finally {
        gateway.kill('SIGTERM');
        await done;
      }
    },
    SLOW,
  );
});

describe('real npm servers in McpHost directly', () => {
  it(
    'lists the same catalogue, routes the same calls, and reports the two that failed',
    async () => {
      const host = new McpHost({
        servers: await loadHostConfig(config),
        connector: nodeConnector(),
        hooks: { toolCall: () => 'once' },
        eager: true, // start() starts every server and waits for each to be ready or failed
      });
      try {
        await host.start();
        // Listings answer within the start budget; the whole catalogue once every server settled.
        await vi.waitFor(
          () =>
            expect(
              host.status().filter((row) => row.state === 'starting' || row.state === 'stopped'),
            ).toEqual([]),
          { timeout: 120_000, interval: 250 },
        );
        const tools = (await host.tools()).map((tool) => tool.name);
        expectWholeCatalogue(tools);
        const results: CallResults = {};
        for (const { name, arguments: args } of CALLS) {
          const result = await host.callTool(name, args);
          const text = result.content.map((item) => ('text' in item ? item.text : '')).join('\n');
          results[name] = { isError: result.isError === true, text };
        }
        expectSafeCalls(results);
        const status = Object.fromEntries(host.status().map((row) => [row.server, row]));
        for (const server of Object.keys(READY)) expect(status[server]?.state, server).toBe('ready');
        await vi.waitFor(
          () => {
            const now = Object.fromEntries(host.status().map((row) => [row.server, row]));
            for (const server of FAILED) expect(now[server]?.state, server).toBe('failed');
          },
          { timeout: 60_000, interval: 250 },
        );
        const now = Object.fromEntries(host.status().map((row) => [row.server, row]));
        expect(now.missing?.lastError).toMatch(/not found|ENOENT|no such/i);
        expect(now.gitlab?.lastError).toMatch(/exited|closed/i);
      } finally {
        await host.close();
      }
    },
    SLOW,
  );
});
