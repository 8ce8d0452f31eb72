/**
 * A server that floods progress during a call: each progress notification resets the call's
 * timeout, so only the host's `maxTotalTimeout` ends the call (and, through a gateway, the
 * caller's wait). The misbehaving server's `notification-flood` mode over stdio, beside a quiet
 * upstream that keeps answering; the limits are short so it runs in seconds.
 */
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair, RequestTimeoutError } from '@mcpkit/core';
import type { ServerEntry } from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from './support/tsFixture.js';

const QUIET = fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url));
const base = { env: {}, disabled: false, autoApprove: ['*'] };
/** Without progress, a call fails after this. */
const TIMEOUT_MS = 2_000;
/** However much progress arrives, a call ends after this. */
const MAX_TOTAL_MS = 4_000;

const flood = fixtureCommand('misbehaving-stdio.ts', 'notification-flood');
const servers: ServerEntry[] = [
  { ...base, kind: 'stdio', name: 'quiet', command: process.execPath, args: [QUIET] },
  { ...base, kind: 'stdio', name: 'flood', ...flood, timeoutMs: TIMEOUT_MS },
];

let gateway: McpGateway;
let client: McpClient;

beforeAll(async () => {
  gateway = createGateway({
    host: { servers, connector: nodeConnector(), maxTotalTimeout: MAX_TOTAL_MS },
    upstreams: 'shared',
  });
  const [clientSide, gatewaySide] = createInMemoryPair();
  gateway.connect(gatewaySide);
  client = new McpClient({ name: 'downstream', version: '1.0.0' });
  await client.connect(clientSide);
  // Both started before the clock matters (the TypeScript fixture takes a while to load).
  for (const { name } of servers) await gateway.hosts()[0]!.client(name);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

describe('a progress flood ends at the host’s maxTotalTimeout', () => {
  it('through McpHost: the call outlives its timeout while progress comes, then fails with maxTotalTimeout', async () => {
    const host = gateway.hosts()[0]!;
    let progress = 0;
    const started = Date.now();
    const call = host.callTool('flood__echo', { text: 'x' }, { onProgress: () => void progress++ });
    const quiet = await host.callTool('quiet__echo', { text: 'still here' });
    expect((quiet.content[0] as { text: string }).text).toBe('still here');
    const error = await call.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).reason).toBe('maxTotalTimeout');
    expect((error as Error).message).toContain(`maximum total time of ${MAX_TOTAL_MS} ms`);
    expect(progress).toBeGreaterThan(100);
    expect(elapsed).toBeGreaterThanOrEqual(MAX_TOTAL_MS - 50);
    expect(elapsed).toBeLessThan(MAX_TOTAL_MS + 5_000);
  }, 30_000);

  it('through the gateway: the caller, who set no limit of its own, gets an error when the host’s limit ends the upstream call', async () => {
    let progress = 0;
    const started = Date.now();
    const result = await client.callTool('flood__echo', { text: 'x' }, { onProgress: () => void progress++ });
    const elapsed = Date.now() - started;
    // A tool error the model reads, saying which limit ended it.
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe(
      `The server "flood" did not finish: Request "tools/call" exceeded its maximum total time of ${MAX_TOTAL_MS} ms`,
    );
    expect(progress).toBeGreaterThan(100);
    expect(elapsed).toBeGreaterThanOrEqual(MAX_TOTAL_MS - 50);
    expect(elapsed).toBeLessThan(MAX_TOTAL_MS + 5_000);
    const quiet = await client.callTool('quiet__echo', { text: 'still here' });
    expect((quiet.content[0] as { text: string }).text).toBe('still here');
  }, 30_000);
});
