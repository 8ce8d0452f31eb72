/**
 * The client against a server it cannot trust, over Streamable HTTP (issue 20, and issue 10 item
 * 9): the misbehaving fixture (tests/fixtures/misbehavingHttp.ts), the exact error the user sees
 * (it names the limit that ended the call, so no clock is needed: the calls' own 10 s timeout
 * would end them otherwise) and, where memory is at stake, a bounded heap in a small-heap client
 * process.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '@mcpkit/client';
import {
  SseClientTransport,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from '@mcpkit/client/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MisbehavingHttpServer, startMisbehavingHttpServer } from './fixtures/misbehavingHttp.js';
import { expectClosedByLimit, expectPacedUntilTotalTimeout, runClient } from './fixtures/misbehavingRun.js';
import type { MisbehaviorMode } from './fixtures/misbehavingServer.js';

const MiB = 1024 * 1024;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(mode: MisbehaviorMode, size?: number): Promise<MisbehavingHttpServer> {
  const server = await startMisbehavingHttpServer(mode, size);
  cleanups.push(() => server.close());
  return server;
}

async function connect(
  url: string,
  options: StreamableHttpClientTransportOptions = {},
  errors: string[] = [],
) {
  const client = new McpClient(
    { name: 'misbehaving-test', version: '1.0.0' },
    { requestTimeout: 10_000, onError: (error) => errors.push(error.message) },
  );
  cleanups.push(() => client.close());
  await client.connect(new StreamableHttpClientTransport(url, options));
  return client;
}

/** Watches everything the library could print. */
function watchConsole() {
  const spies = [
    vi.spyOn(console, 'error').mockImplementation(() => {}),
    vi.spyOn(console, 'warn').mockImplementation(() => {}),
    vi.spyOn(console, 'log').mockImplementation(() => {}),
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true),
  ];
  return () => spies.flatMap((spy) => spy.mock.calls);
}

describe('what broke (issue 20, issue 10), fixed', () => {
  it('a standalone GET refused with 400 is reported once through onError and treated like 405, printing nothing', async () => {
    const server = await serve('get-400');
    const printed = watchConsole();
    const errors: string[] = [];
    const client = await connect(server.url, {}, errors);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toBe(
      `GET ${server.url} (standalone GET stream) was refused with HTTP 400 (the spec says 405); going on without a standalone stream`,
    );
    const result = await client.callTool('echo', {});
    expect(result.isError).toBeFalsy();
    await new Promise((resolve) => setTimeout(resolve, 300)); // no retry, no second report
    expect(errors).toHaveLength(1);
    expect(printed()).toEqual([]);
  });

  it('closing an McpClient whose server has gone prints nothing and reports the failed DELETE through onError', async () => {
    const server = await serve('polite');
    const printed = watchConsole();
    const errors: string[] = [];
    const client = await connect(server.url, {}, errors);
    await client.callTool('echo', {});
    await server.close();
    await client.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.startsWith(`DELETE ${server.url} failed: fetch failed`)).toBe(true);
    expect(printed()).toEqual([]);
  });

  it('without an onError hook, nothing reaches the console either', async () => {
    const server = await serve('get-400');
    const printed = watchConsole();
    const client = new McpClient({ name: 'quiet', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(server.url));
    await client.callTool('echo', {});
    await server.close();
    await client.close();
    expect(printed()).toEqual([]);
  });

  it('a flood of notifications over SSE is paced with one report, and the call ends at maxTotalTimeout', async () => {
    const server = await serve('notification-flood');
    expectPacedUntilTotalTimeout(await runClient(server.url, { maxTotalTimeout: 800 }), 800);
  });

  it('a server that floods requests and leaves the answers hanging is cut off at maxAnswersInFlight, with bounded memory', async () => {
    const server = await serve('request-flood');
    const run = await runClient(server.url, { maxAnswersInFlight: 32, maxIncomingPerSecond: 1e6 });
    expectClosedByLimit(run, 'The server is not taking our answers: 32 are in flight (maxAnswersInFlight)');
  });
});

describe('the legacy HTTP+SSE transport', () => {
  it('a burst of notifications on the legacy SSE stream is paced with one report, and the call still completes', async () => {
    let stream: ServerResponse | undefined;
    const http = createServer(async (req, res) => {
      if (req.method === 'GET') {
        stream = res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.write('event: endpoint\ndata: /messages\n\n');
      }
      let text = '';
      for await (const chunk of req) text += chunk;
      res.writeHead(202).end();
      const message = JSON.parse(text) as { id?: number; method?: string };
      const send = (value: unknown) => stream?.write(`event: message\ndata: ${JSON.stringify(value)}\n\n`);
      if (message.method === 'initialize') {
        send({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2024-11-05',
            capabilities: { logging: {}, tools: {} },
            serverInfo: { name: 'legacy', version: '1' },
          },
        });
      } else if (message.id !== undefined) {
        for (let i = 0; i < 1000; i++)
          send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
        send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } });
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          http.closeAllConnections();
          http.close(() => resolve());
        }),
    );
    const errors: string[] = [];
    const client = new McpClient(
      { name: 'legacy', version: '1' },
      { onError: (error) => errors.push(error.message) },
    );
    cleanups.push(() => client.close());
    await client.connect(
      new SseClientTransport(`http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`),
    );
    const started = performance.now();
    const result = await client.request('tools/call', { name: 'burst', arguments: {} });
    const elapsed = performance.now() - started;
    expect(result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    // 1000 notifications at 2000 a second: several 100 ms windows of backpressure (a chunk read
    // is finished before pausing, so a window may take more than its share); unpaced it is ~10 ms.
    // Only this lower bound, which load cannot break; a hang is the test's own timeout.
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(errors).toEqual([
      'The peer sends more than 2000 requests and notifications a second (maxIncomingPerSecond); reading from it is slowed down to that rate',
    ]);
  });
});

describe('what holds already (issue 20), kept', () => {
  const paths = [
    ['fetch', false],
    ['undici', true],
  ] as const;

  it.each(paths)(
    'a JSON body over maxMessageSize fails the call at once, with bounded memory (%s)',
    async (_, undici) => {
      const server = await serve('huge-result', 48 * MiB);
      const run = await runClient(server.url, { maxMessageSize: MiB, undici });
      expect(run).toMatchObject({
        ok: false,
        name: 'HttpTransportError',
        message: `POST ${server.url} (tools/call) was answered with a body that broke off or exceeds ${MiB} characters`,
      });
      expect(run.peakHeap - run.baseHeap).toBeLessThan(16 * MiB);
    },
  );

  it.each(paths)(
    'an SSE event that never ends fails the call at maxMessageSize, with bounded memory (%s)',
    async (_, undici) => {
      const server = await serve('endless-message');
      const run = await runClient(server.url, { maxMessageSize: MiB, undici });
      expect(run.ok).toBe(false);
      expect(run.message).toBe(
        `The answer stream of "tools/call" was lost: it broke off (An SSE event exceeded the limit of ${MiB} characters) before the answer, with no event id to resume from`,
      );
      expect(run.peakHeap - run.baseHeap).toBeLessThan(16 * MiB);
    },
  );

  it('a result nested 200,000 levels deep over HTTP neither crashes nor stalls the client', async () => {
    const server = await serve('deep-json');
    const client = await connect(server.url);
    const result = await client.callTool('echo', {});
    expect(result.content).toEqual([{ type: 'text', text: 'deep' }]);
  });

  it('a 307 to another origin is refused and Authorization never reaches that origin', async () => {
    const server = await serve('cross-origin-redirect');
    const client = await connect(server.url, { headers: { authorization: 'Bearer secret-token' } });
    const failure = (await client.callTool('echo', {}).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(
      new RegExp(`^POST ${server.url.replaceAll('.', '\\.')} was redirected \\(HTTP 307\\); .*origin`),
    );
    expect(server.elsewhere).toEqual([]);
  });
});
