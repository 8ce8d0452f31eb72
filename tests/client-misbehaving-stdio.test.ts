/**
 * The client against a server it cannot trust, over stdio (issue 20): each case runs against the
 * misbehaving fixture (tests/fixtures/misbehavingServer.ts) and asserts the exact error the user
 * sees (it names the limit that ended the call, so no clock is needed) and, where memory is at
 * stake, a bounded heap in a client process with a small one (`--max-old-space-size`). Limits are
 * configured small so the set runs in seconds.
 */
import { McpClient, PaginationError } from '@mcpkit/client';
import { Connection, createInMemoryPair, McpError } from '@mcpkit/core';
import { type StdioClientOptions, StdioClientTransport } from '@mcpkit/node/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { expectClosedByLimit, expectPacedUntilTotalTimeout, runClient } from './fixtures/misbehavingRun.js';
import { REPEATED_CURSOR } from './fixtures/misbehavingServer.js';
import { fixtureCommand } from './support/tsFixture.js';

const MiB = 1024 * 1024;
const SERVER_COMMAND = `the stdout of ${JSON.stringify(process.execPath)}`;

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** An McpClient in this process, connected to the stdio fixture in `mode`. */
async function connect(mode: string, options: Partial<StdioClientOptions> = {}, errors: string[] = []) {
  const client = new McpClient(
    { name: 'misbehaving-test', version: '1.0.0' },
    { requestTimeout: 10_000, onError: (error) => errors.push(error.message) },
  );
  clients.push(client);
  await client.connect(
    new StdioClientTransport({ ...fixtureCommand('misbehaving-stdio.ts', mode), ...options }),
  );
  return client;
}

describe('what broke (issue 20), fixed', () => {
  it.each([
    ['an oversized stdio message (48 MiB in one line)', 'huge-result'],
    ['a stdio message that never ends in a newline', 'endless-message'],
  ])(
    '%s fails the pending call at once with an error naming maxMessageBytes, and closes the connection',
    async (_, mode) => {
      const run = await runClient(mode, { maxMessageBytes: MiB }, 48 * MiB);
      expectClosedByLimit(
        run,
        `The server sent a message on ${SERVER_COMMAND} larger than the ${MiB}-byte limit (maxMessageBytes)`,
      );
    },
  );

  it('every pending call fails, not just the one the oversized answer was for', async () => {
    const client = await connect('huge-result', { maxMessageBytes: MiB });
    const calls = [client.callTool('echo', {}), client.callTool('echo', {}), client.ping()];
    const outcomes = await Promise.allSettled(calls);
    // Each fails because the connection closed on the limit, not at its own (10 s) timeout.
    const closed = `The connection closed: The server sent a message on ${SERVER_COMMAND} larger than the ${MiB}-byte limit (maxMessageBytes)`;
    expect(outcomes).toEqual(
      calls.map(() => ({
        status: 'rejected',
        reason: expect.objectContaining({ name: 'ConnectionClosedError', message: closed }),
      })),
    );
  });

  it('a server that floods requests and stops reading is cut off at maxWriteQueueBytes, with bounded memory', async () => {
    const run = await runClient('request-flood', {
      maxWriteQueueBytes: 256 * 1024,
      maxIncomingPerSecond: 1e6,
    });
    expectClosedByLimit(
      run,
      'The peer is not reading: more than 262144 characters wait to be written to it (maxWriteQueueBytes)',
    );
    expect(run.errorCount).toBe(0); // one failure, told to the caller, not once per queued answer
  });

  it('a server that sends more requests than maxIncomingRequests at once gets the excess refused with an error naming the limit', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const client = new McpClient(
      { name: 'bounded', version: '1.0.0' },
      { maxIncomingRequests: 4, sampling: () => new Promise(() => {}) },
    );
    clients.push(client);
    const server = new Connection(serverSide, {
      onRequest: (request) =>
        request.method === 'initialize'
          ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'flood', version: '1' } }
          : {},
      onNotification: () => {},
    });
    await server.start();
    await client.connect(clientSide);
    const params = { messages: [], maxTokens: 1 };
    const sent = Array.from({ length: 6 }, () =>
      server.request('sampling/createMessage', params, { timeout: 2000 }).catch((error: unknown) => error),
    );
    // The excess is refused at once; were it not, the requests' own timeout would end the wait.
    const refused = await Promise.all(sent.slice(4));
    expect(refused).toHaveLength(2);
    for (const error of refused as McpError[]) {
      expect(error).toBeInstanceOf(McpError);
      expect(error.message).toBe(
        'Too many requests in flight: 4 are being handled already (maxIncomingRequests); try again later',
      );
    }
    await server.close();
  });

  it('collecting every page stops on a repeated cursor with an error naming the cursor', async () => {
    const client = await connect('repeating-cursor');
    const failure = await client.tools().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PaginationError);
    expect(failure).toMatchObject({
      method: 'tools/list',
      cursor: REPEATED_CURSOR,
      message: `tools/list: the server sent the cursor "${REPEATED_CURSOR}" a second time; stopped to avoid an endless loop`,
    });
  });

  it('collecting every page stops after maxPages pages with an error naming the next cursor', async () => {
    const client = new McpClient({ name: 't', version: '1' }, { maxPages: 5 });
    clients.push(client);
    await client.connect(new StdioClientTransport(fixtureCommand('misbehaving-stdio.ts', 'endless-cursor')));
    const failure = await client.tools().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PaginationError);
    expect((failure as Error).message).toBe(
      'tools/list: the server still had more after 5 pages (next cursor "page-5"); stopped at the maxPages limit',
    );
  });

  it('a flood of rising progress and logs cannot hold a call past maxTotalTimeout, and is throttled with one report', async () => {
    expectPacedUntilTotalTimeout(await runClient('notification-flood', { maxTotalTimeout: 800 }), 800);
  });

  it('with one server flooding notifications, a second server on the same event loop gets 200 calls answered while the flood goes on, and the flood is paced to maxIncomingPerSecond', async () => {
    const flooding = await connect('notification-flood');
    const quiet = await connect('polite');
    // No latencies here (benchmarks are for `npm run bench`): the flood's share of this process
    // is what the pacing bounds, counted in messages, and the neighbour's progress is counted in
    // answered calls while the flood is seen to continue.
    let seen = 0;
    let first!: () => void;
    const flowing = new Promise<void>((resolve) => (first = resolve));
    const flood = flooding
      .callTool(
        'echo',
        {},
        {
          timeout: 60_000,
          onProgress: () => {
            seen++;
            first();
          },
        },
      )
      .catch((error: unknown) => error);
    await flowing;
    const before = seen;
    const started = Date.now();
    for (let i = 0; i < 200; i++) expect(await quiet.callTool('echo', { i })).toBeDefined();
    const windows = Math.ceil((Date.now() - started) / 100) + 2;
    const during = seen - before;
    // Each progress comes with a log line: two messages against the budget of 2000 a second,
    // counted in windows of 100 ms (200 messages each) however slow this machine is.
    expect(during * 2, `${during} progress notifications in ${windows} windows`).toBeLessThanOrEqual(
      200 * windows,
    );
    // The flood is still running after the neighbour's 200 calls: it was not simply over.
    await expect.poll(() => seen, { timeout: 10_000 }).toBeGreaterThan(before + during);
    await flooding.close();
    expect(await flood).toBeInstanceOf(Error);
  });
});

describe('what holds already (issue 20), kept', () => {
  it('a call the server never answers fails at its timeout with the exact timeout error', async () => {
    const client = await connect('never-answers');
    const started = performance.now();
    const failure = (await client
      .callTool('echo', {}, { timeout: 300 })
      .catch((error: unknown) => error)) as Error;
    expect(failure.name).toBe('RequestTimeoutError');
    expect(failure.message).toBe(
      'Request "tools/call" timed out after 300 ms without a response or progress',
    );
    // Not before its time (timers round to 1 ms); no upper bound: the message says which timeout
    // fired (the client's default is 10 s), and a hang is the test's own timeout.
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
  });

  it('a result nested 200,000 levels deep neither crashes nor stalls the client: the call fails at once naming maxJsonDepth', async () => {
    const run = await runClient('deep-json');
    expectClosedByLimit(
      run,
      `The server sent a message on ${SERVER_COMMAND} nested deeper than the limit of 512 levels (maxJsonDepth)`,
    );
  });

  it('answers with ids never requested, and duplicate answers, are dropped and reported', async () => {
    const errors: string[] = [];
    const client = await connect('unknown-ids', {}, errors);
    const result = await client.callTool('echo', {});
    expect(result.content).toEqual([{ type: 'text', text: 'first' }]);
    await client.ping(); // the duplicate arrived before the ping's answer
    expect(errors).toContain('Dropped a response for unknown request id 999999');
    expect(
      errors.filter((error) => error.startsWith('Dropped a response for unknown request id')),
    ).toHaveLength(2);
  });

  it('__proto__ and constructor.prototype keys in a result pollute nothing and the call succeeds', async () => {
    const client = await connect('prototype-keys');
    const result = await client.callTool('echo', {});
    expect(result.content).toEqual([{ type: 'text', text: 'proto' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
  });
});
