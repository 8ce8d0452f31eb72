/**
 * The host's own roots (issue 14 goal H8): each server sees the intersection of the host's roots
 * and its configured ones, and a change of the host's roots is told only to the servers whose view
 * changed. Two real mcpkit servers over Streamable HTTP, each counting the
 * `notifications/roots/list_changed` it receives and reporting the roots it is given.
 */
import type { Root } from '@mcpkit/core';
import { McpHost, type ServerEntry } from '@mcpkit/host';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';

const served: ServedHandler[] = [];
const hosts: McpHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

afterAll(async () => {
  await Promise.all(served.map((server) => server.close()));
});

/** A server whose `roots` tool lists the roots its client gives it, counting roots changes. */
async function rootsServer(name: string) {
  const server = new McpServer({ name, version: '1.0.0' });
  server.tool('roots', { annotations: { readOnlyHint: true, openWorldHint: false } }, async (_args, ctx) =>
    JSON.stringify((await ctx.listRoots()).roots.map((root) => root.uri)),
  );
  const counter = { changes: 0 };
  server.onNotification('notifications/roots/list_changed', () => void counter.changes++);
  const handler = await serve(createStreamableHttpHandler(server), { port: 0, path: '/mcp' });
  served.push(handler);
  const entry: ServerEntry = {
    kind: 'url',
    name,
    url: new URL(handler.url),
    headers: {},
    transport: 'auto',
    disabled: false,
    autoApprove: [],
  };
  return { entry, counter };
}

async function seen(host: McpHost, server: string): Promise<string[]> {
  const result = await host.callTool(`${server}__roots`, {});
  return JSON.parse((result.content[0] as { text: string }).text);
}

const roots = (...uris: string[]): Root[] => uris.map((uri) => ({ uri }));

describe('host roots', () => {
  it('each server sees the intersection of the host roots and its own, and only a changed view is told', async () => {
    const a = await rootsServer('a');
    const b = await rootsServer('b');
    const c = await rootsServer('c');
    const host = new McpHost({
      servers: [a.entry, b.entry, c.entry],
      naming: { mode: 'always' },
      roots: roots('file:///w/a', 'file:///w/shared'),
      policy: {
        a: { roots: roots('file:///w/a', 'file:///w/b', 'file:///elsewhere') },
        b: { roots: roots('file:///w/b') },
        // c configures none: it sees the host's roots.
      },
    });
    hosts.push(host);
    expect(await seen(host, 'a')).toEqual(['file:///w/a']);
    expect(await seen(host, 'b')).toEqual([]);
    expect(await seen(host, 'c')).toEqual(['file:///w/a', 'file:///w/shared']);

    await host.setHostRoots(roots('file:///w/a', 'file:///w/b/src'));
    expect(await seen(host, 'b')).toEqual(['file:///w/b/src']); // the narrower of two nested roots
    expect(await seen(host, 'a')).toEqual(['file:///w/a', 'file:///w/b/src']);
    expect(await seen(host, 'c')).toEqual(['file:///w/a', 'file:///w/b/src']);
    await eventually(() => b.counter.changes === 1 && a.counter.changes === 1 && c.counter.changes === 1);

    await host.setHostRoots(roots('file:///w/a', 'file:///w/b/src', 'file:///w/c'));
    expect(await seen(host, 'c')).toEqual(['file:///w/a', 'file:///w/b/src', 'file:///w/c']);
    await eventually(() => c.counter.changes === 2, 'c told of its new root');
    // a and b see what they saw: they were not told.
    expect([a.counter.changes, b.counter.changes]).toEqual([1, 1]);
    expect(await seen(host, 'a')).toEqual(['file:///w/a', 'file:///w/b/src']);
    expect([a.counter.changes, b.counter.changes, c.counter.changes]).toEqual([1, 1, 2]);
  });
});
