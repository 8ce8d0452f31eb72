/**
 * `server.onListen`: a server is told when a 2026-07-28 `subscriptions/listen` request opens,
 * with the resource URIs it listens to, and when it ends (what a gateway needs to subscribe
 * upstream). A real McpClient on 2026-07-28 over Streamable HTTP.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';

describe('server.onListen', () => {
  it('tells the hook what each listen stream listens to, and when it ends', async () => {
    const server = new McpServer({ name: 'listen-hook', version: '1.0.0' }, { resources: resourceSupport });
    for (const name of ['a', 'b', 'c'])
      server.resource(`demo://${name}`, { mimeType: 'text/plain' }, () => name);
    const opened: string[][] = [];
    let ended = 0;
    const stop = server.onListen((uris) => {
      opened.push([...uris]);
      return () => void ended++;
    });
    const served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
    const client = new McpClient({ name: 'listener', version: '1.0.0' }, { protocolEra: '2026' });
    try {
      await client.connect(new StreamableHttpClientTransport(new URL(served.url)));
      await client.subscribeResource('demo://a');
      await eventually(() => opened.some((uris) => uris.includes('demo://a')), 'the hook, told of demo://a');
      // A new filter reopens the stream: the old one ends, the new one names both URIs.
      await client.subscribeResource('demo://b');
      await eventually(() => opened.some((uris) => uris.length === 2), 'the hook, told of both');
      expect(opened.at(-1)!.sort()).toEqual(['demo://a', 'demo://b']);
      await eventually(() => ended === opened.length - 1, 'the replaced stream ended');
      stop();
      await client.unsubscribeResource('demo://a');
      await eventually(() => ended === opened.length, 'the last stream ended');
      await client.subscribeResource('demo://c');
      expect(opened.some((uris) => uris.includes('demo://c'))).toBe(false); // the hook was removed
    } finally {
      await client.close();
      await served.close();
    }
  });
});
