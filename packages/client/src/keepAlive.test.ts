import { Connection, createInMemoryPair, type IncomingRequest } from '@mcpkit/core';
import { expect, it } from 'vitest';
import { keepAlive } from './keepAlive.js';
import { McpClient } from './mcpClient.js';

/** A server connection that answers `initialize`, and `ping` only while `answerPings` is true. */
function connect(state: { answerPings: boolean }) {
  const [clientSide, serverSide] = createInMemoryPair();
  const server = new Connection(serverSide, {
    onRequest: (request: IncomingRequest) => {
      if (request.method === 'initialize') {
        return { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } };
      }
      if (request.method === 'ping' && state.answerPings) return {};
      return new Promise(() => {}); // a hung server
    },
    onNotification: () => {},
  });
  return { server, clientSide };
}

it('pings a plain McpClient: alive while the server answers, not alive once it hangs', async () => {
  const state = { answerPings: true };
  const { server, clientSide } = connect(state);
  await server.start();
  // '2025': this server hangs on everything but initialize and ping, so a server/discover probe
  // would wait out its 10 s timeout before falling back to initialize.
  const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
  await client.connect(clientSide);
  const results: boolean[] = [];
  const error = await new Promise<Error | undefined>((resolve) => {
    const stop = keepAlive(client, { intervalMs: 5, timeoutMs: 50 }, (alive, failure) => {
      results.push(alive);
      if (results.length === 2) state.answerPings = false;
      if (!alive) {
        stop();
        resolve(failure);
      }
    });
  });
  expect(results).toEqual([true, true, false]);
  expect(error?.message).toMatch(/"ping" timed out after 50 ms/);
  await client.close();
});
