/**
 * Regression: a 2026-07-28 client whose `subscriptions/listen` stream dropped (a proxy timeout, a
 * restarted node) never heard another `list_changed`. A drop without the server's closing response
 * is now reopened with backoff, and reported once; the server's graceful end is final.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';

let served: ServedHandler;
let server: McpServer;
let client: McpClient;
let registered = 0;
const errors: Error[] = [];

beforeEach(async () => {
  server = new McpServer({ name: 'listen-reopen', version: '1.0.0' });
  server.tool('first', { description: 'Always there' }, () => 'ok');
  served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
  errors.length = 0;
  client = new McpClient(
    { name: 'listener', version: '1.0.0' },
    { protocolEra: '2026', onError: (error) => errors.push(error) },
  );
});

afterEach(async () => {
  await client.close();
  await served.close();
});

/** Registers tools until the client hears a change: the first may land before the stream is open. */
async function changeUntilHeard(heard: () => number): Promise<void> {
  const before = heard();
  await eventually(() => {
    server.tool(`late-${++registered}`, { description: 'Registered while listening' }, () => 'late');
    return heard() > before;
  }, 'a list_changed on the listen stream');
}

describe('2026-07-28 listen stream', () => {
  it('is opened again after the connection carrying it drops, and the drop is reported once', async () => {
    await client.connect(new StreamableHttpClientTransport(served.url));
    let changes = 0;
    client.onListChanged('tools', () => changes++);
    await changeUntilHeard(() => changes);

    // Cut every connection, the listen stream's included, with no closing response.
    served.server.closeAllConnections();
    await eventually(() => errors.length > 0, 'the drop to be reported');
    await changeUntilHeard(() => changes);
    expect(errors).toHaveLength(1);
    // Not resumed with a GET (405 under 2026-07-28): the stream is reopened as a new request.
    expect(errors[0]?.message).toMatch(/cannot be resumed/);
    // And the call path still works beside the reopened stream.
    await expect(client.callTool('first')).resolves.toMatchObject({ content: [{ text: 'ok' }] });
  });
});
