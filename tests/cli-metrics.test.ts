/**
 * `mcpkit serve --http --metrics-port N`: the demo server as a real process serves Prometheus
 * metrics on their own loopback port, and the counts a real parser reads match the calls made.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../packages/cli/src/args.js';
import { histogramCount, sample, scrape } from './support/prometheusText.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = ['--import', './conformance/register-ts.mjs', 'packages/cli/src/main.ts'];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
});

/** Starts `mcpkit serve` and resolves with the MCP URL (stdout) and the metrics URL (stderr). */
function serve(args: readonly string[]): Promise<{ mcp: string; metrics: string }> {
  const child = spawn(process.execPath, [...CLI, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const check = () => {
      const mcp = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      const metrics = /Prometheus metrics on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (mcp && metrics) resolve({ mcp, metrics });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      check();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      check();
    });
    child.once('exit', (code) => reject(new Error(`mcpkit serve exited early (${code}): ${stderr}`)));
  });
}

describe('mcpkit serve --metrics-port', () => {
  it('serves /metrics on 127.0.0.1 with counts that match the calls made', async () => {
    const { mcp, metrics } = await serve(['--http', '--port', '0', '--metrics-port', '0']);
    expect(new URL(metrics)).toMatchObject({ hostname: '127.0.0.1', pathname: '/metrics' });
    // '2025': the series under test count sessions and stored SSE events, which 2026-07-28 has not.
    const client = new McpClient({ name: 'cli-metrics', version: '1.0.0' }, { protocolEra: '2025' });
    await client.connect(new StreamableHttpClientTransport(mcp));
    for (let i = 0; i < 4; i++) await client.callTool('echo', { text: `hi ${i}` });
    await client.callTool('add', { a: 1, b: 2 });

    const families = await scrape(metrics);
    const echo = { mcp_method_name: 'tools/call', gen_ai_tool_name: 'echo', network_transport: 'tcp' };
    expect(histogramCount(families, 'mcp_server_operation_duration_seconds', echo)).toBe(4);
    expect(
      histogramCount(families, 'mcp_server_operation_duration_seconds', { gen_ai_tool_name: 'add' }),
    ).toBe(1);
    expect(
      Number(
        sample(families, 'mcpkit_server_requests_total', { mcp_method_name: 'tools/call', outcome: 'ok' })
          ?.value,
      ),
    ).toBe(5);
    expect(Number(sample(families, 'mcpkit_server_sessions_open', { network_transport: 'tcp' })?.value)).toBe(
      1,
    );
    // The handlers are watched: SSE streams open now (the client's GET stream, if it holds one),
    // and the events the default in-memory store keeps of the 5 calls answered over SSE (a
    // priming position and the result each, besides initialize's).
    expect(Number(sample(families, 'mcpkit_server_sse_streams_open')?.value)).toBeLessThanOrEqual(1);
    expect(Number(sample(families, 'mcpkit_server_event_store_events')?.value)).toBeGreaterThanOrEqual(10);
    await client.close();
  });

  it('refuses a metrics port that is not a port', () => {
    expect(() => parseCommandLine(['serve', '--metrics-port', 'x'])).toThrow(
      /--metrics-port must be a number/,
    );
    expect(parseCommandLine(['serve', '--stdio', '--metrics-port', '9464'])).toMatchObject({
      serve: { transport: 'stdio', metricsPort: 9464 },
    });
  });
});
