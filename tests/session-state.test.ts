/**
 * The session-state record (issue 11, item 3): a session's state is one plain record that survives
 * JSON, and a fresh server instance restores it with `connect(transport, { state })`, no handshake.
 */
import { McpClient } from '@mcpkit/client';
import {
  createInMemoryPair,
  type InMemoryTransport,
  type JsonRpcMessage,
  type MessageSink,
  type Transport,
} from '@mcpkit/core';
import { McpServer, resourceSupport, type ServerSession, type ServerSessionState } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';

const WATCHED = 'test://watched/1';

/** The same definition code a second process would run. */
function defineServer(): McpServer {
  const server = new McpServer({ name: 'stateful', version: '1.0.0' }, { resources: resourceSupport });
  server.resourceTemplate('test://watched/{n}', { name: 'watched' }, (uri) => `contents of ${uri}`);
  server.tool('touch', { description: 'Changes a resource and logs at two levels' }, () => {
    server.log('info', 'touch at info');
    server.log('error', 'touch at error');
    server.notifyResourceUpdated(WATCHED);
    return 'touched';
  });
  return server;
}

/**
 * The client's end of a link that can be re-plugged to another server, as a connection through a
 * load balancer is when the node behind it changes. Messages pass through real in-memory
 * transports, serialized as on a wire.
 */
class Relink implements Transport {
  private sink: MessageSink | undefined;
  private link: InMemoryTransport | undefined;

  start(sink: MessageSink): void {
    this.sink = sink;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    this.link?.send(message);
  }

  async close(): Promise<void> {
    await this.link?.close();
    this.sink?.closed();
  }

  /** Plugs into a new server-side transport, dropping the old one; returns the server side. */
  async plug(): Promise<InMemoryTransport> {
    const old = this.link;
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    clientSide.start({
      message: (value, extra) => this.sink?.message(value, extra),
      parseError: (error) => this.sink?.parseError(error),
      error: (error) => this.sink?.error(error),
      closed: () => {},
    });
    this.link = clientSide;
    await old?.close();
    return serverSide;
  }
}

describe('session state record', () => {
  it('a session serialized mid-session and restored on a fresh server keeps its subscriptions, log level and tools', async () => {
    const first = defineServer();
    const link = new Relink();
    let session: ServerSession | undefined;
    first.onSessionInitialized((s) => {
      session = s;
    });
    // '2025': a session's state (subscriptions, log level) is what is saved and restored.
    const client = new McpClient({ name: 'resumer', version: '2.0.0' }, { protocolEra: '2025' });
    first.connect(await link.plug());
    await client.connect(link);
    const updates: string[] = [];
    const logs: unknown[] = [];
    client.onResourceUpdated((uri) => updates.push(uri));
    client.onLog((log) => logs.push(log.data));
    await client.subscribeResource(WATCHED);
    await client.setLoggingLevel('warning');

    const saved = JSON.stringify(session?.snapshot());
    const state = JSON.parse(saved) as ServerSessionState;
    expect(state).toMatchObject({
      v: 1,
      clientInfo: { name: 'resumer', version: '2.0.0' },
      logLevel: 'warning',
      subscriptions: [WATCHED],
      initializeParams: { clientInfo: { name: 'resumer' } },
    });
    await first.close();

    // A fresh server instance from the same code, a fresh transport, no handshake.
    const second = defineServer();
    const restored = second.connect(await link.plug(), { state });
    expect(restored.initialized).toBe(true);
    expect(restored.clientInfo).toEqual({ name: 'resumer', version: '2.0.0' });
    expect(restored.key).toBe(state.key);

    const result = await client.callTool('touch');
    expect(result.content).toEqual([{ type: 'text', text: 'touched' }]);
    await eventually(() => updates.length === 1 && logs.length === 1, 'the update and the log message');
    await client.ping();
    expect(updates).toEqual([WATCHED]);
    expect(logs).toEqual(['touch at error']);
    expect(restored.snapshot()).toEqual(state);
    await client.close();
    await second.close();
  });

  it('a corrupt session-state record is refused before a session is built on it', () => {
    const server = defineServer();
    const [, serverSide] = createInMemoryPair();
    const bad = { v: 1, key: 'k', protocolVersion: '1999-01-01' } as unknown as ServerSessionState;
    expect(() => server.connect(serverSide, { state: bad })).toThrow(/protocolVersion/);
  });

  it('a session has no state record before the client initialized', () => {
    const server = defineServer();
    const [, serverSide] = createInMemoryPair();
    expect(server.connect(serverSide).snapshot()).toBeUndefined();
  });
});
