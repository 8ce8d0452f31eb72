/**
 * Regression: a client reconnected (`connect(factory, { reconnect })`) from a server that speaks
 * 2026-07-28 to one that speaks only 2025-11-25 kept the 2026 revision: reopening forgot the old
 * handshake but not the era, so it went on sending the 2026 envelope to a server that had
 * negotiated 2025-11-25 with it.
 */
import { McpClient } from '@mcpkit/client';
import {
  Connection,
  createInMemoryPair,
  ErrorCode,
  type IncomingRequest,
  McpError,
  type Transport,
} from '@mcpkit/core';
import { McpServer } from '@mcpkit/server';
import { afterEach, expect, it } from 'vitest';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => {});
});

/** mcpkit's server: speaks both eras, so an 'auto' client picks 2026-07-28. */
function modernServer(): Transport {
  const server = new McpServer({ name: 'modern', version: '1.0.0' });
  server.tool('who', {}, () => 'modern');
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  cleanups.push(() => server.close());
  return clientSide;
}

/** A 2025-11-25-only peer on a raw connection: no `server/discover`; what each call carried. */
function legacyServer(seen: IncomingRequest[]): Transport {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const connection = new Connection(serverSide, {
    onRequest: (request) => {
      seen.push(request);
      if (request.method === 'initialize') {
        return {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'legacy', version: '1.0.0' },
        };
      }
      if (request.method === 'tools/call') return { content: [{ type: 'text', text: 'legacy' }] };
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    },
    onNotification: () => {},
  });
  void connection.start();
  cleanups.push(() => connection.close());
  return clientSide;
}

it('a reconnected client speaks the revision of the server it reconnected to', async () => {
  const seen: IncomingRequest[] = [];
  const transports: Transport[] = [];
  const factory = () => {
    const transport = transports.length === 0 ? modernServer() : legacyServer(seen);
    transports.push(transport);
    return transport;
  };
  const client = new McpClient({ name: 'reconnecting', version: '1.0.0' });
  cleanups.push(() => client.close());
  await client.connect(factory, { reconnect: { initialDelayMs: 5 } });
  expect(client.era).toBe('2026');
  expect(await client.callTool('who')).toMatchObject({ content: [{ text: 'modern' }] });

  await transports[0]!.close();
  await expect.poll(() => client.connected && transports.length === 2).toBe(true);
  expect(client.era).toBe('2025');
  expect(client.protocolVersion).toBe('2025-11-25');
  expect(await client.callTool('who')).toMatchObject({ content: [{ text: 'legacy' }] });
  const call = seen.find((request) => request.method === 'tools/call');
  expect(call?.params?._meta).not.toHaveProperty(['io.modelcontextprotocol/protocolVersion']);
});
