/**
 * `mcpkit gateway --metrics-port N`: the gateway as a real process (over Streamable HTTP and over
 * stdio) serves Prometheus metrics on their own loopback port, and a real parser reads counts
 * that match the calls made through it by the official SDK client.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../packages/cli/src/args.js';
import { CLI, exited, printedUrl, twoServerConfigForFile } from './support/gatewayProcess.js';
import { histogramCount, sample, scrape } from './support/prometheusText.js';

const configFile = twoServerConfigForFile('mcpkit-gateway-metrics-');

/** The metrics URL the gateway logs on stderr; `lines` collects every stderr line. */
function metricsUrl(stderr: Readable, lines: string[] = []): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const complete = text.split('\n');
      text = complete.pop()!;
      lines.push(...complete);
      for (const line of complete) {
        const match = /Prometheus metrics on (http:\/\/\S+)/.exec(line);
        if (match) resolve(match[1]!);
      }
    });
  });
}

/** Three calls through the gateway: two to the everything server's echo, one to the demo's add. */
async function callThrough(client: Client): Promise<void> {
  for (const message of ['one', 'two']) {
    await client.callTool({ name: 'everything__echo', arguments: { message } });
  }
  await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
}

/** The gateway's downstream counts, as scraped from `url`. */
async function expectCounts(url: string, transport: 'tcp' | 'pipe'): Promise<void> {
  expect(new URL(url)).toMatchObject({ hostname: '127.0.0.1', pathname: '/metrics' });
  const families = await scrape(url);
  const echo = {
    mcp_method_name: 'tools/call',
    gen_ai_tool_name: 'everything__echo',
    network_transport: transport,
  };
  expect(histogramCount(families, 'mcp_server_operation_duration_seconds', echo)).toBe(2);
  expect(histogramCount(families, 'mcp_server_operation_duration_seconds', { gen_ai_tool_name: 'add' })).toBe(
    1,
  );
  const ok = sample(families, 'mcpkit_server_requests_total', {
    mcp_method_name: 'tools/call',
    outcome: 'ok',
  });
  expect(Number(ok?.value)).toBe(3);
  expect(
    Number(sample(families, 'mcpkit_server_sessions_open', { network_transport: transport })?.value),
  ).toBe(1);
}

describe('mcpkit gateway --metrics-port', () => {
  it('serves /metrics for a gateway over Streamable HTTP', async () => {
    const child = spawn(
      process.execPath,
      [...CLI, 'gateway', '--config', configFile.path, '--http', '--port', '0', '--metrics-port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const done = exited(child);
    try {
      const metrics = metricsUrl(child.stderr!);
      const url = await printedUrl(child);
      const client = new Client({ name: 'sdk', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        await callThrough(client);
        await expectCounts(await metrics, 'tcp');
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await done).toBe(0);
  });

  it('serves /metrics for a gateway over stdio, with --log-json events on stderr', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI, 'gateway', '--config', configFile.path, '--stdio', '--metrics-port', '0', '--log-json'],
      stderr: 'pipe',
    });
    const lines: string[] = [];
    const metrics = metricsUrl(transport.stderr as Readable, lines);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(transport);
    try {
      await callThrough(client);
      await expectCounts(await metrics, 'pipe');
    } finally {
      await client.close();
    }
    const events = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'info',
          event: 'mcp.handshake',
          clientName: 'sdk',
          transport: 'pipe',
        }),
        expect.objectContaining({ level: 'info', event: 'mcp.session.opened', role: 'server' }),
      ]),
    );
    expect(events.every((event) => typeof event.time === 'number' && typeof event.msg === 'string')).toBe(
      true,
    );
  });

  it('parses --metrics-port and --log-json', () => {
    expect(
      parseCommandLine(['gateway', '--config', 'mcp.json', '--stdio', '--metrics-port', '9464']),
    ).toMatchObject({
      gateway: { transport: 'stdio', metricsPort: 9464 },
    });
    expect(() =>
      parseCommandLine(['gateway', '--config', 'mcp.json', '--http', '--metrics-port', 'x']),
    ).toThrow(/--metrics-port must be a number/);
  });
});
