/**
 * `protocolVersions` says which revisions a server speaks, 2026-07-28 included: a server that
 * leaves it out serves `initialize` clients only. A 2026-07-28 request (over HTTP or stdio) gets
 * `-32022` naming the revisions the server does speak, and mcpkit's client, in its default
 * 'auto' era, falls back to `initialize` on its own.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { createInMemoryPair } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { MODERN, modernRequest, postModern } from './support/modernWire.js';

const LEGACY_ONLY = ['2025-11-25', '2025-06-18'] as const;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => {});
});

function legacyOnly(): McpServer {
  const server = new McpServer({ name: 'legacy-only', version: '1.0.0' }, { protocolVersions: LEGACY_ONLY });
  server.tool('ping_me', {}, () => 'pong');
  return server;
}

async function servedOver(server: McpServer): Promise<string> {
  const served: ServedHandler = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
  cleanups.push(() => served.close());
  return served.url;
}

describe('a server that lists no 2026-07-28 revision', () => {
  it('answers a 2026-07-28 POST 400 + -32022 naming the revisions it speaks, before any handler', async () => {
    const url = await servedOver(legacyOnly());
    for (const method of ['server/discover', 'tools/list']) {
      const answer = await postModern(url, modernRequest(1, method));
      expect(answer.status).toBe(400);
      expect(answer.body?.error).toMatchObject({
        code: -32022,
        data: { requested: MODERN, supported: [...LEGACY_ONLY] },
      });
    }
  });

  it('answers a 2026-07-28 request on stdio-like transports with -32022 too', async () => {
    const server = legacyOnly();
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    cleanups.push(() => server.close());
    const answers: unknown[] = [];
    await clientSide.start({
      message: (value) => answers.push(value),
      parseError: () => {},
      error: () => {},
      closed: () => {},
    });
    await clientSide.send(modernRequest(7, 'tools/list') as never);
    await expect.poll(() => answers.length).toBe(1);
    expect(answers[0]).toMatchObject({
      id: 7,
      error: { code: -32022, data: { supported: [...LEGACY_ONLY] } },
    });
  });

  it('is reached by the default client through initialize, over HTTP and in memory', async () => {
    const url = await servedOver(legacyOnly());
    const overHttp = new McpClient({ name: 'auto', version: '1.0.0' });
    cleanups.push(() => overHttp.close());
    await overHttp.connect(new StreamableHttpClientTransport(url));
    expect(overHttp.era).toBe('2025');
    expect(overHttp.protocolVersion).toBe('2025-11-25');
    expect(await overHttp.callTool('ping_me')).toMatchObject({ content: [{ text: 'pong' }] });

    const server = legacyOnly();
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    cleanups.push(() => server.close());
    const inMemory = new McpClient({ name: 'auto', version: '1.0.0' });
    cleanups.push(() => inMemory.close());
    await inMemory.connect(clientSide);
    expect(inMemory.era).toBe('2025');
  });

  it('refuses a list without any initialize revision at construction', () => {
    expect(() => new McpServer({ name: 'x', version: '1' }, { protocolVersions: [MODERN] })).toThrow(
      /initialize/,
    );
  });
});

it('a server listing 2026-07-28 serves it, and server/discover lists only what it serves', async () => {
  const server = new McpServer(
    { name: 'both', version: '1.0.0' },
    { protocolVersions: [MODERN, '2025-11-25'] },
  );
  expect(server.modernVersions).toEqual([MODERN]);
  expect(server.protocolVersions).toEqual(['2025-11-25']);
  const url = await servedOver(server);
  const answer = await postModern(url, modernRequest(1, 'server/discover'));
  expect(answer.status).toBe(200);
  expect(answer.body?.result).toMatchObject({ supportedVersions: [MODERN] });
});
