/**
 * `server.broadcast` with its filter as data (a `BroadcastScope`) on one node: the scope picks the
 * sessions exactly as the equivalent function would (the cluster relays scopes; see
 * tests/cluster-broadcast.test.ts), and a function filter still works as before.
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { Server } from '@mcpkit/server';
import { expect, it } from 'vitest';
import { eventually } from './support/eventually.js';

async function connectLogClient(server: Server, name: string, level?: 'warning') {
  const client = new McpClient({ name, version: '1' }, { protocolEra: '2025' });
  const heard: string[] = [];
  client.onLog((log) => {
    heard.push(String(log.data));
  });
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  await client.connect(clientSide);
  if (level) await client.setLoggingLevel(level);
  return heard;
}

it('sends a scoped broadcast to the sessions its scope names, as data or as a function', async () => {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { logging: {} } });
  server.setRequestHandler('logging/setLevel', (params, ctx) => {
    ctx.session.logLevel = params.level;
    return {};
  });
  const quiet = await connectLogClient(server, 'quiet', 'warning');
  const chatty = await connectLogClient(server, 'chatty');

  const message = (data: string) => ({ level: 'info', data });
  server.broadcast('notifications/message', message('info scope'), { logLevel: 'info' });
  server.broadcast('notifications/message', message('error scope'), { logLevel: 'error' });
  server.broadcast(
    'notifications/message',
    message('function'),
    (session) => session.clientInfo?.name === 'quiet',
  );
  server.broadcast('notifications/message', message('last'));
  await eventually(() => quiet.includes('last') && chatty.includes('last'), 'the last message');
  expect(quiet).toEqual(['error scope', 'function', 'last']);
  expect(chatty).toEqual(['info scope', 'error scope', 'last']);
});
