/**
 * The session-state record of a Streamable HTTP session carries what its transport holds: the
 * event-id prefix (with an event store) and the principal the session is bound to.
 */
import { describe, expect, it } from 'vitest';
import type { ServerSession } from '../kernel/session.js';
import { Server } from '../server.js';
import { InMemoryEventStore } from './delivery/eventStore.js';
import { parseSse } from './fixtures/rawHttpClient.mjs';
import { createStreamableHttpHandler, type StreamableHttpHandler } from './streamable.js';

const ACCEPT = 'application/json, text/event-stream';
const alice = { authInfo: { clientId: 'alice', token: 'secret' } };

function post(handler: StreamableHttpHandler, body: unknown, headers: Record<string, string> = {}) {
  return handler.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { accept: ACCEPT, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
    alice,
  );
}

describe('session state of a Streamable HTTP session', () => {
  it("a Streamable HTTP session's state record holds its event-id prefix and principal, and no token", async () => {
    const server = new Server({ name: 'unit', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    let session: ServerSession | undefined;
    server.onSessionInitialized((s) => {
      session = s;
    });
    const handler = createStreamableHttpHandler(server, { eventStore: new InMemoryEventStore() });
    const init = await post(handler, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'unit', version: '1' } },
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await (await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
    const listed = await post(handler, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
    const eventIds = parseSse(await listed.text()).map((event: { id?: string }) => event.id);

    const state = JSON.parse(JSON.stringify(session!.snapshot()));
    expect(state.key).toBe(sessionId);
    expect(state.principal).toBe('client:alice');
    expect(typeof state.eventIdPrefix).toBe('string');
    expect(eventIds.length).toBeGreaterThan(0);
    for (const id of eventIds) expect(id?.startsWith(state.eventIdPrefix)).toBe(true);
    expect(JSON.stringify(state)).not.toContain('secret');
    await server.close();
  });
});
