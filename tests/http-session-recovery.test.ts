/**
 * A client must not silently lose its session setup when the server forgets the session (issue 11,
 * item 4). A real server process is killed and started again on the same port; the HTTP client
 * transport opens a new session by itself and tells `McpClient`, which subscribes again and sets
 * its log level again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { McpClient } from '@mcpkit/client';
import { HttpClientTransport, StreamableHttpClientTransport } from '@mcpkit/client/http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';
import { repoRoot } from './support/officialSchema.js';

const WATCHED = 'test://watched/1';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the fixture server on `port` (0: a free one); resolves with its URL once it listens. */
function startServer(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      './conformance/register-ts.mjs',
      'tests/fixtures/restartable-server.ts',
      '--port',
      String(port),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      log += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(log);
      if (found) resolve({ child, url: found[1]! });
    });
    child.once('exit', (code) => reject(new Error(`the fixture server exited (${code}):\n${log}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const TRANSPORTS = [
  ['StreamableHttpClientTransport', (url: string) => new StreamableHttpClientTransport(url)],
  ['HttpClientTransport (auto-detecting)', (url: string) => new HttpClientTransport(url)],
] as const;

describe.each(TRANSPORTS)('session recovery over HTTP with %s', (_name, makeTransport) => {
  it('after the server process is killed and restarted, the client re-subscribes and re-applies its log level', async () => {
    const first = await startServer(0);
    const port = Number(new URL(first.url).port);
    // '2025' in this file: what is recovered is a session (subscriptions, log level, its streams).
    const client = new McpClient({ name: 'survivor', version: '1.0.0' }, { protocolEra: '2025' });
    const transport = makeTransport(first.url);
    await client.connect(transport);
    const updates: string[] = [];
    const logs: unknown[] = [];
    let recoveries = 0;
    client.onResourceUpdated((uri) => updates.push(uri));
    client.onLog((log) => logs.push(log.data));
    client.onSessionRecovered(() => recoveries++);
    await client.subscribeResource(WATCHED);
    await client.setLoggingLevel('error');
    await client.callTool('touch', { uri: WATCHED });
    await eventually(() => updates.length === 1 && logs.length === 1, 'the update before the restart');
    const oldSession = transport.sessionId;

    await killed(first.child);
    await startServer(port);

    // The call meets a server that never heard of the session: the transport opens a new one,
    // the client sets it up again, then the call is retried.
    const result = await client.callTool('touch', { uri: WATCHED });
    expect(result.isError).toBeFalsy();
    expect(recoveries).toBe(1);
    expect(transport.sessionId).not.toBe(oldSession);
    await eventually(() => updates.length === 2, 'the update after the restart');
    await client.ping();
    expect(updates).toEqual([WATCHED, WATCHED]);
    // A fresh session logs at every level until told otherwise: only `error` proves the level.
    expect(logs).toEqual([`touched ${WATCHED} (error)`, `touched ${WATCHED} (error)`]);
    await client.close();
  }, 60_000);
});

describe('a plain client over HTTP when the server dies', () => {
  it('a call in flight when the server dies fails with an error that says so; the next call, after the restart, succeeds', async () => {
    const first = await startServer(0);
    const port = Number(new URL(first.url).port);
    const client = new McpClient({ name: 'survivor', version: '1.0.0' }, { protocolEra: '2025' });
    // No stream resumption: the dropped answer stream fails its call at once.
    await client.connect(new StreamableHttpClientTransport(first.url, { maxRetries: 0 }));

    const pending = client.callTool('sleep', { ms: 60_000 }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    await client.ping(); // the call went out before this answer came back
    await killed(first.child);
    const failure = await pending;
    expect(failure?.message).toMatch(/answer stream of "tools\/call" was lost/);

    await startServer(port);
    const result = await client.callTool('touch', { uri: WATCHED });
    expect(result.isError).toBeFalsy();
    expect(client.connected).toBe(true);
    await client.close();
  }, 60_000);
});
