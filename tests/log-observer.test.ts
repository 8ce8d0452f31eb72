/**
 * Structured logs through the public API: `createLogObserver` on a real server and client over
 * real Streamable HTTP, writing to a pino-shaped recording logger (JSON lines, as pino writes
 * them). A session's life, a failing call, a slow call, and a bearer token that never shows.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { combineObservers, createLogObserver, type Logger, type Observer, redact } from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';

const TOKEN = 'tok-3f9a1c7e-very-secret';
const PASSWORD = 'hunter2-do-not-log';

/** A pino-shaped logger that keeps each line as pino would write it: one JSON object. */
function recordingLogger(): Logger & { lines: string[]; entries(): Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => {
    lines.push(JSON.stringify({ level, ...fields, msg }));
  };
  return {
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function loggedServer(observer: Observer): McpServer {
  const server = new McpServer({ name: 'logged', version: '2.0.0' }, { observer });
  server.tool('echo', { inputSchema: { type: 'object' } }, (args) => JSON.stringify(args).length.toString());
  server.tool('boom', () => {
    throw new Error('database unreachable');
  });
  server.setRequestHandler('com.example/crash', () => {
    throw new Error('disk full at /var/data');
  });
  server.tool('slow', { inputSchema: { type: 'object' } }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 60));
    return 'done';
  });
  return server;
}

async function connectOverHttp(server: McpServer, clientObserver?: Observer): Promise<McpClient> {
  const served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
  cleanups.push(() => served.close());
  // '2025': these tests log a session's life (handshake, session opened and closed); the 2026-07-28
  // client has its own test below.
  const client = new McpClient(
    { name: 'log-peer', version: '1.2.3' },
    { protocolEra: '2025', ...(clientObserver ? { observer: clientObserver } : {}) },
  );
  const headers = { authorization: `Bearer ${TOKEN}`, cookie: `sid=${TOKEN}` };
  await client.connect(new StreamableHttpClientTransport(served.url, { headers }));
  return client;
}

const events = (log: ReturnType<typeof recordingLogger>) => log.entries().map((e) => `${e.level} ${e.event}`);
/** The entries of one event. */
const entriesOf = (log: ReturnType<typeof recordingLogger>, event: string) =>
  log.entries().filter((entry) => entry.event === event);

describe('createLogObserver', () => {
  it("logs a session's life, a failing call and a slow call, never the token or arguments", async () => {
    const serverLog = recordingLogger();
    const clientLog = recordingLogger();
    const server = loggedServer(createLogObserver(serverLog, { slowCallMs: 30 }));
    const client = await connectOverHttp(server, createLogObserver(clientLog, { slowCallMs: 30 }));

    await client.callTool('echo', { password: PASSWORD, note: TOKEN });
    expect((await client.callTool('boom', {})).isError).toBe(true);
    await expect(client.request('com.example/crash', {})).rejects.toThrow(/Internal error/);
    await client.callTool('slow', {});
    await client.close();
    await server.close();

    const handshake = serverLog.entries().find((e) => e.event === 'mcp.handshake');
    expect(handshake).toMatchObject({
      level: 'info',
      role: 'server',
      clientName: 'log-peer',
      clientVersion: '1.2.3',
      transport: 'tcp',
      msg: 'MCP handshake',
    });
    expect(handshake?.protocolVersion).toBe(client.protocolVersion);
    expect(typeof handshake?.sessionId).toBe('string');
    expect(events(serverLog)).toEqual(
      expect.arrayContaining([
        'info mcp.handshake',
        'info mcp.session.opened',
        'debug mcp.request.failed',
        'error mcp.request.failed',
        'error mcp.error',
        'warn mcp.request.slow',
        'info mcp.session.closed',
      ]),
    );
    const failures = entriesOf(serverLog, 'mcp.request.failed');
    expect(failures).toEqual([
      expect.objectContaining({
        level: 'debug',
        method: 'tools/call',
        target: 'boom',
        errorType: 'tool_error',
      }),
      expect.objectContaining({ level: 'error', method: 'com.example/crash', errorCode: -32603 }),
    ]);
    const errors = entriesOf(serverLog, 'mcp.error');
    expect(errors.map((e) => (e.err as { message: string }).message)).toEqual([
      expect.stringContaining('database unreachable'),
      expect.stringContaining('disk full'),
    ]);
    // The 'slow' tool sleeps 60 ms, so it is over the 30 ms line whatever the machine; on a
    // loaded one other calls may be too, hence no count.
    const slow = serverLog.entries().find((e) => e.event === 'mcp.request.slow' && e.target === 'slow');
    expect(slow).toMatchObject({ level: 'warn', method: 'tools/call', slowCallMs: 30 });
    expect(slow?.durationMs).toBeGreaterThanOrEqual(30);

    // The client's side: its own handshake (the server's name), session, failure and slow call.
    expect(clientLog.entries().find((e) => e.event === 'mcp.handshake')).toMatchObject({
      role: 'client',
      serverName: 'logged',
      serverVersion: '2.0.0',
    });
    expect(events(clientLog)).toEqual(
      expect.arrayContaining([
        'info mcp.session.opened',
        'error mcp.request.failed',
        'warn mcp.request.slow',
        'info mcp.session.closed',
      ]),
    );

    const all = [...serverLog.lines, ...clientLog.lines].join('\n');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(PASSWORD);
  });

  it('adds params with logParams, redacted by key, and combines with another observer', async () => {
    const log = recordingLogger();
    let finished = 0;
    const counting: Observer = { requestFinished: () => void finished++ };
    const observer = combineObservers(counting, createLogObserver(log, { slowCallMs: 30, logParams: true }));
    const client = await connectOverHttp(loggedServer(observer!));
    await client.callTool('slow', {
      apiKey: TOKEN,
      nested: { refresh_token: TOKEN, password: PASSWORD },
      city: 'Oslo',
    });
    expect((await client.callTool('boom', {})).isError).toBe(true);
    await client.close();

    // The combination passes the error hook on (else the server would write to the console).
    expect(entriesOf(log, 'mcp.error')).toHaveLength(1);
    const slow = log.entries().find((e) => e.event === 'mcp.request.slow' && e.target === 'slow');
    expect(slow?.params).toMatchObject({
      name: 'slow',
      arguments: {
        apiKey: '[Redacted]',
        nested: { refresh_token: '[Redacted]', password: '[Redacted]' },
        city: 'Oslo',
      },
    });
    expect(log.lines.join('\n')).not.toContain(TOKEN);
    expect(finished).toBeGreaterThanOrEqual(2); // initialize and the call: both observers saw them
  });

  it('logs a 2026-07-28 client once, at its first request, with no handshake or session', async () => {
    const log = recordingLogger();
    const server = loggedServer(createLogObserver(log));
    const served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
    cleanups.push(() => served.close());
    const client = new McpClient({ name: 'modern-peer', version: '3.0.0' }, { protocolEra: '2026' });
    await client.connect(new StreamableHttpClientTransport(served.url));
    for (let i = 0; i < 3; i++) await client.callTool('echo', { i });
    await client.close();

    // One handshake entry for three requests.
    const [seen, ...more] = entriesOf(log, 'mcp.handshake');
    expect(more).toEqual([]);
    expect(seen).toMatchObject({
      clientName: 'modern-peer',
      clientVersion: '3.0.0',
      protocolVersion: '2026-07-28',
    });
    expect(entriesOf(log, 'mcp.session.opened')).toEqual([]);
  });

  it('redacts by key only, through arrays, and stops at depth', () => {
    expect(redact({ Authorization: 'Bearer x', list: [{ Cookie: 'a' }, 1], ok: 'yes' })).toEqual({
      Authorization: '[Redacted]',
      list: [{ Cookie: '[Redacted]' }, 1],
      ok: 'yes',
    });
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 12; i++) deep = { deep };
    expect(JSON.stringify(redact(deep))).toContain('[Truncated]');
    expect(redact({ ssn: '1', name: 'n' }, ['ssn'])).toEqual({ ssn: '[Redacted]', name: 'n' });
  });
});
