/**
 * The CLI across every server of a config file: `mcpkit list --config FILE` and `mcpkit call
 * --config FILE everything__echo` (in process), and `mcpkit gateway` as a real process over stdio
 * and over HTTP, driven by the official SDK client. Upstreams: the demo server over stdio and the
 * reference everything server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';
import { CLI, exited, gatewayStdio, printedUrl, twoServerConfigForFile } from './support/gatewayProcess.js';
import { runCliInProcess } from './support/inProcessCli.js';

const configFile = twoServerConfigForFile('mcpkit-gateway-cli-');

async function listAndCall(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['demo__echo', 'everything__echo']));
  const result = await client.callTool({
    name: 'everything__echo',
    arguments: { message: 'through the gateway' },
  });
  expect(JSON.stringify(result.content)).toContain('through the gateway');
  const demo = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }); // only the demo has it: not prefixed
  expect(JSON.stringify(demo.content)).toContain('5');
}

describe('mcpkit with --config FILE and no --server', () => {
  it('list shows the namespaced catalogue of every server and each server state', async () => {
    const run = await runCliInProcess(['list', '--config', configFile.path]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('demo__echo');
    expect(run.stdout).toContain('everything__echo');
    expect(run.stdout).toMatch(/Servers\n\s+demo\s+ready\n\s+everything\s+ready\n/);
    const json = await runCliInProcess(['list', 'tools', '--json', '--config', configFile.path]);
    expect(JSON.parse(json.stdout).servers).toEqual([
      { server: 'demo', state: 'ready' },
      { server: 'everything', state: 'ready' },
    ]);
  });

  it('call routes a namespaced tool to its server', async () => {
    const run = await runCliInProcess([
      'call',
      '--config',
      configFile.path,
      'everything__echo',
      'message=hi',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Echo: hi');
  });
});

describe('mcpkit gateway as a process, driven by the official SDK client', () => {
  it('serves every server of the file over stdio', async () => {
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    const transport = new StdioClientTransport(gatewayStdio(configFile.path, 'ignore'));
    await client.connect(transport);
    try {
      await listAndCall(client);
    } finally {
      await client.close();
    }
  });

  it('serves every server of the file over Streamable HTTP and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [...CLI, 'gateway', '--config', configFile.path, '--http', '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const done = exited(child);
    try {
      const url = await printedUrl(child);
      const client = new Client({ name: 'sdk', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        await listAndCall(client);
      } finally {
        await client.close();
      }
      const healthz = await fetch(new URL('/healthz', url));
      expect([healthz.status, await healthz.json()]).toEqual([200, { status: 'ok' }]);
      const readyz = await fetch(new URL('/readyz', url));
      const readiness = (await readyz.json()) as { ready: boolean; servers: Array<Record<string, unknown>> };
      expect(readyz.status).toBe(200);
      expect(readiness.ready).toBe(true);
      expect(readiness.servers.map((row) => row.server)).toEqual(['demo', 'everything']);
      for (const row of readiness.servers)
        expect(Object.keys(row).sort()).toEqual(['restarts', 'server', 'state']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await done).toBe(0);
  });

  for (const mode of ['shared', 'per-session'] as const) {
    it(`--upstreams ${mode} --session-idle 500ms: sessions left without DELETE ${mode === 'shared' ? 'share the upstreams' : 'take their upstreams with them when they expire'}`, async () => {
      const child = spawn(
        process.execPath,
        [
          ...CLI,
          'gateway',
          '--config',
          configFile.path,
          '--http',
          '--port',
          '0',
          '--upstreams',
          mode,
          '--session-idle',
          '500ms',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const done = exited(child);
      // The gateway's upstream processes (not the esbuild service its TypeScript loader runs).
      const upstreams = () =>
        execFileSync('ps', ['-o', 'args=', '--ppid', String(child.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => / (serve --)?stdio$/.test(line.trim())).length;
      try {
        const url = await printedUrl(child);
        for (let i = 0; i < 3; i++) {
          const client = new Client({ name: `sdk${i}`, version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          await listAndCall(client);
          expect(upstreams()).toBeGreaterThanOrEqual(2); // this session's (or the shared) upstreams
          await client.close(); // no DELETE, as the SDK does
        }
        if (mode === 'shared') expect(upstreams()).toBe(2);
        else await eventually(() => upstreams() === 0, 'the expired sessions’ upstreams to end');
      } finally {
        child.kill('SIGTERM');
      }
      expect(await done).toBe(0);
    }, 90_000);
  }

  it('refuses a gateway without --config or without a transport, with usage hints', async () => {
    const noConfig = await runCliInProcess(['gateway', '--stdio']);
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toMatch(/"gateway" needs --config FILE/);
    const noTransport = await runCliInProcess(['gateway', '--config', configFile.path]);
    expect(noTransport.stderr).toMatch(/Choose one of --stdio and --http/);
  });
});
