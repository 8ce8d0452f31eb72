import { Client, McpClient } from '@mcpkit/client';
import {
  CapabilityError,
  ConnectionClosedError,
  createInMemoryPair,
  type InitializeResult,
  type ListRootsResult,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import { McpServer, Server } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { eventually as until } from './support/eventually.js';

function pair(server = new Server({ name: 'srv', version: '1.0.0' }, { instructions: 'Be nice' })) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const session = server.connect(serverSide);
  return { server, session, clientSide, serverSide };
}

// The initialize lifecycle of the 2025 era: clients that name no revisions pin '2025' (a client
// given protocolVersions speaks only those, so needs no pin).
const LEGACY = { protocolEra: '2025' } as const;

describe('lifecycle', () => {
  it('initializes, negotiates the latest revision and exchanges pings both ways', async () => {
    const { session, clientSide } = pair();
    const client = new Client({ name: 'cli', version: '0.1.0' }, LEGACY);
    const result = await client.connect(clientSide);
    expect(result.protocolVersion).toBe('2025-11-25');
    expect(result.serverInfo).toEqual({ name: 'srv', version: '1.0.0' });
    expect(client.instructions).toBe('Be nice');
    await client.ping();
    await new Promise((r) => setTimeout(r, 0));
    expect(session.initialized).toBe(true);
    expect(session.clientInfo).toEqual({ name: 'cli', version: '0.1.0' });
    await session.ping();
  });

  it.each(['2025-06-18', '2025-03-26', '2024-11-05'] as const)(
    'negotiates down to %s when the client asks',
    async (version) => {
      const { clientSide, session } = pair();
      const client = new Client({ name: 'old', version: '1' }, { protocolVersions: [version] });
      const result = await client.connect(clientSide);
      expect(result.protocolVersion).toBe(version);
      expect(session.protocolVersion).toBe(version);
    },
  );

  it('answers an unknown version with its own latest, and a client that cannot speak it closes with a clear error', async () => {
    const server = new Server({ name: 'srv', version: '1' }, { protocolVersions: ['2025-11-25'] });
    const { clientSide } = pair(server);
    const client = new Client({ name: 'old', version: '1' }, { protocolVersions: ['2024-11-05'] });
    await expect(client.connect(clientSide)).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
    await expect(client.ping()).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('refuses requests before initialize, but answers ping', async () => {
    const { clientSide } = pair();
    const { Connection } = await import('@mcpkit/core');
    const raw = new Connection(clientSide, { onRequest: () => ({}), onNotification: () => {} });
    raw.start();
    await expect(raw.request('ping')).resolves.toEqual({});
    await expect(raw.request('tools/list')).rejects.toMatchObject({ code: -32600 });
    const init = await raw.request<InitializeResult>('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    expect(init.protocolVersion).toBe('2025-11-25');
    await expect(
      raw.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      }),
    ).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('already initialized') });
    await expect(raw.request('tools/list')).rejects.toMatchObject({ code: -32601 });
  });

  it('rejects a malformed initialize with -32602', async () => {
    const { clientSide } = pair();
    const { Connection } = await import('@mcpkit/core');
    const raw = new Connection(clientSide, { onRequest: () => ({}), onNotification: () => {} });
    raw.start();
    await expect(raw.request('initialize', { protocolVersion: 5, capabilities: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('enforces capabilities: sending fails locally, receiving answers -32601', async () => {
    const server = new Server({ name: 'srv', version: '1' });
    let rootsError: unknown;
    server.setRequestHandler('tools/list', async (_params, ctx) => {
      rootsError = await ctx.listRoots().catch((e) => e);
      return { tools: [] };
    });
    const { clientSide } = pair(server);
    const client = new Client({ name: 'c', version: '1' }, LEGACY);
    await client.connect(clientSide);
    // The server declared no "tools" capability, so the client refuses to send tools/list.
    await expect(client.request('tools/list', {})).rejects.toBeInstanceOf(CapabilityError);
    await expect(client.request('prompts/list', {})).rejects.toThrow(
      /did not declare the "prompts" capability/,
    );
    // Bypassing the client check: the server answers, and its own roots request fails locally.
    await client.connection.request('tools/list', {});
    expect(rootsError).toBeInstanceOf(CapabilityError);
  });

  it('roots/list reaches a client that declared roots', async () => {
    const server = new Server({ name: 'srv', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async (_p, ctx) => {
      const roots = await ctx.listRoots();
      return { tools: [], _meta: { roots: roots.roots.length } };
    });
    const { clientSide } = pair(server);
    const client = new Client(
      { name: 'c', version: '1' },
      { ...LEGACY, capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler(
      'roots/list',
      (): ListRootsResult => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
    );
    await client.connect(clientSide);
    await expect(client.request('tools/list', {})).resolves.toMatchObject({ _meta: { roots: 1 } });
  });

  it('shutdown fails pending requests on both sides with a clear error', async () => {
    const server = new Server({ name: 'srv', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => new Promise(() => {}));
    const { clientSide, session } = pair(server);
    const client = new Client({ name: 'c', version: '1' }, LEGACY);
    await client.connect(clientSide);
    const pending = client.request('tools/list', {});
    await new Promise((r) => setTimeout(r, 0));
    await session.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(client.connected).toBe(false);
    expect(server.sessions.size).toBe(0);
  });
});

describe('server and client mirror each other', () => {
  it('a misspelt option is refused by Server, McpServer, Client and McpClient instead of being ignored in silence', () => {
    const info = { name: 'x', version: '1' };
    const typo = { requestTimout: 5 } as Record<string, unknown>;
    expect(() => new Server(info, typo)).toThrow('Server: unknown option "requestTimout"');
    expect(() => new McpServer(info, { maskErrors: false } as Record<string, unknown>)).toThrow(
      'McpServer: unknown option "maskErrors"',
    );
    expect(() => new Client(info, typo)).toThrow('Client: unknown option "requestTimout"');
    expect(() => new McpServer(info, { maskToolErrors: false, requestTimeout: 5 })).not.toThrow();
    expect(() => new McpClient(info, { samplingTool: true } as Record<string, unknown>)).toThrow(
      'McpClient: unknown option "samplingTool"',
    );
    expect(() => new McpClient(info, { samplingTools: true, maxPages: 8, requestTimeout: 5 })).not.toThrow();
  });

  it('overriding ping throws on the client as it does on the server', () => {
    const client = new Client({ name: 'c', version: '1' }, LEGACY);
    expect(() => client.setRequestHandler('ping', () => ({}))).toThrow(
      /"ping" is answered by the client itself/,
    );
    const server = new Server({ name: 's', version: '1' });
    expect(() => server.setRequestHandler('ping', () => ({}))).toThrow(
      /"ping" is answered by the session itself/,
    );
  });

  it('server notification listeners add with an unsubscribe like the client, and one that throws does not stop the others', async () => {
    const errors: Error[] = [];
    const server = new Server({ name: 's', version: '1' }, { onError: (error) => errors.push(error) });
    const heard: string[] = [];
    server.onNotification('notifications/roots/list_changed', () => {
      throw new Error('listener broke');
    });
    const stop = server.onNotification('notifications/roots/list_changed', () => heard.push('first'));
    server.onNotification('notifications/roots/list_changed', () => heard.push('second'));
    const { clientSide } = pair(server);
    const client = new Client(
      { name: 'c', version: '1' },
      { ...LEGACY, capabilities: { roots: { listChanged: true } } },
    );
    await client.connect(clientSide);
    await client.notify('notifications/roots/list_changed');
    await until(() => heard.length === 2);
    stop();
    await client.notify('notifications/roots/list_changed');
    await until(() => heard.length === 3);
    expect(heard).toEqual(['first', 'second', 'second']);
    expect(errors.map((error) => error.message)).toEqual(['listener broke', 'listener broke']);
  });
});
