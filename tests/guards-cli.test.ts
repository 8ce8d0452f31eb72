/**
 * `mcpkit serve --rate-limit` (issue 21, section 2): the demo server, as a real child process,
 * limits each client, per session over Streamable HTTP and over stdio. Limits here are per minute,
 * so no refill can happen during the test: the outcome does not depend on the machine's speed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { HttpTransportError, StreamableHttpClientTransport } from '@mcpkit/client/http';
import { McpError } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRateLimit } from '../packages/cli/src/args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = ['--import', './conformance/register-ts.mjs', 'packages/cli/src/main.ts'];

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts `mcpkit serve --http --port 0 …` and resolves with the URL it prints. */
function serveHttp(args: string[]): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [...CLI, 'serve', '--http', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('close', (code) => reject(new Error(`mcpkit serve exited with ${code}`)));
  });
}

/** Calls `echo` until refused (at most 10 times); returns how many were served and the refusal. */
async function callUntilRefused(client: McpClient) {
  for (let served = 0; served < 10; served++) {
    try {
      await client.callTool('echo', { text: 'hi' });
    } catch (error) {
      return { served, refusal: error as McpError };
    }
  }
  throw new Error('never refused');
}

describe('mcpkit serve --rate-limit', () => {
  it('parses N/s (burst twice the rate), N/s,burst=B and N/m, and refuses anything else', () => {
    expect(parseRateLimit('20/s')).toEqual({ rate: 20, burst: 40 });
    expect(parseRateLimit('20/s,burst=5')).toEqual({ rate: 20, burst: 5 });
    expect(parseRateLimit('30/m')).toEqual({ rate: 0.5, burst: 1 });
    for (const bad of ['20', '0/s', '20/h', '20/s,burst=0', '-1/s', '20/s,burst=x']) {
      expect(() => parseRateLimit(bad)).toThrow('--rate-limit');
    }
  });

  it('over Streamable HTTP: each session has its own bucket; a refused POST gets 429 with Retry-After', async () => {
    const url = await serveHttp(['--rate-limit', '1/m,burst=3']);
    const first = new McpClient({ name: 'first', version: '1' }, { protocolEra: '2025' });
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false });
    await first.connect(transport);
    cleanups.push(() => first.close());
    const { served, refusal } = await callUntilRefused(first);
    expect(served).toBeGreaterThan(0);
    // Calls one after another: once the bucket is empty the gate refuses the next POST outright.
    expect(refusal).toBeInstanceOf(HttpTransportError);
    expect((refusal as unknown as HttpTransportError).status).toBe(429);

    const second = new McpClient({ name: 'second', version: '1' }, { protocolEra: '2025' });
    await second.connect(new StreamableHttpClientTransport(url, { openGetStream: false }));
    cleanups.push(() => second.close());
    expect((await second.callTool('echo', { text: 'hi' })).isError).toBeFalsy();

    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('over stateless HTTP: each request counts against the peer address', async () => {
    const url = await serveHttp(['--stateless', '--rate-limit', '1/m,burst=2']);
    const client = new McpClient({ name: 'stateless', version: '1' });
    await client.connect(new StreamableHttpClientTransport(url, { openGetStream: false }));
    cleanups.push(() => client.close());
    const { refusal } = await callUntilRefused(client);
    expect((refusal as unknown as HttpTransportError).status).toBe(429);
  });

  it('over stdio: the one session is limited, and the refusal says when to retry', async () => {
    const client = new McpClient({ name: 'stdio', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...CLI, 'serve', '--stdio', '--rate-limit', '1/m,burst=2'],
        cwd: ROOT,
        stderr: 'ignore',
      }),
    );
    cleanups.push(() => client.close());
    const { refusal } = await callUntilRefused(client);
    expect(refusal).toBeInstanceOf(McpError);
    expect(refusal.code).toBe(-32029);
    expect((refusal.data as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
  });
});
