/**
 * Issue 29: `mcpkit ping` to a server that accepts the connection and never answers took 71 s: the
 * era probe waited its 10 s, then `initialize` a full request timeout (60 s). The handshake now
 * has one limit for the probe and `initialize` together, and the CLI says it is still waiting.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair, RequestTimeoutError } from '@mcpkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/inProcessCli.js';

describe('one limit for the whole handshake (issue 29)', () => {
  it("the era probe and initialize share connect's timeout, whatever the probe's own wait", async () => {
    const [clientSide] = createInMemoryPair(); // nobody answers on the other side
    const client = new McpClient({ name: 'c', version: '1' }, { eraProbeTimeout: 10_000 });
    const started = Date.now();
    const error = await client.connect(clientSide, { timeout: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    // Named by the handshake's whole limit, not by what was left of it for initialize.
    expect((error as Error).message).toBe(
      'Request "initialize" timed out after 300 ms without a response or progress',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close();
  });

  it('the probe keeps its own shorter wait, and initialize gets what is left', async () => {
    const [clientSide] = createInMemoryPair();
    const client = new McpClient({ name: 'c', version: '1' }, { eraProbeTimeout: 100, requestTimeout: 400 });
    const started = Date.now();
    const error = (await client.connect(clientSide).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe('Request "initialize" timed out after 400 ms without a response or progress');
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close();
  });
});

describe('mcpkit ping to a server that accepts and never answers (issue 29)', () => {
  let silent: Server;
  let url = '';
  beforeAll(async () => {
    silent = createServer(() => {}); // reads each request, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('on a terminal, says it is still waiting, then gives up at the limit with exit 5', async () => {
    const started = Date.now();
    const run = await runCliInProcess(['ping', url, '--timeout', '3s'], { tty: true });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('Still waiting for the server to answer (giving up after 3 s)…');
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it('off a terminal, prints no waiting line', async () => {
    const run = await runCliInProcess(['ping', url, '--timeout', '1s']);
    expect(run.code).toBe(5);
    expect(run.stderr).not.toContain('Still waiting');
  }, 20_000);
});
