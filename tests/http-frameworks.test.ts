/**
 * The README's mounts, in the real frameworks: Express 5 (with and without a body parser), Hono 4
 * on @hono/node-server, and Fastify 5 (which always reads the body before the route runs). Each
 * mount serves a full session to mcpkit's own client: handshake, a tool call with progress, the
 * GET stream, and DELETE on close.
 */
import type { Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as honoServe } from '@hono/node-server';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { toNodeListener } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '@mcpkit/server/http';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer as closeNode } from './support/listen.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function handler(): StreamableHttpHandler {
  const server = new McpServer({ name: 'mounted', version: '1.0.0' });
  const inputSchema = {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  } as const;
  server.tool('shout', { description: 'Upper-cases its input', inputSchema }, async (args, ctx) => {
    await ctx.progress(1, 1, 'shouting');
    return args.text.toUpperCase();
  });
  const created = createStreamableHttpHandler(server);
  cleanups.push(() => created.close());
  return created;
}

function listening(server: NodeServer, path = '/mcp'): Promise<string> {
  return new Promise((resolve) => {
    const done = (): void => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    if (server.listening) done();
    else server.once('listening', done);
  });
}

/** A session through mcpkit's client: a tool call (with a progress notification) and a clean close. */
async function callsATool(url: string): Promise<void> {
  const client = new McpClient({ name: 'framework-test', version: '1.0.0' }, { onError: () => {} });
  await client.connect(new StreamableHttpClientTransport(url));
  const progress: number[] = [];
  const result = await client.callTool(
    'shout',
    { text: 'hello' },
    { onProgress: (update) => progress.push(update.progress) },
  );
  expect(result.content).toEqual([{ type: 'text', text: 'HELLO' }]);
  expect(progress).toEqual([1]);
  const tools = await client.listTools();
  expect(tools.tools.map((tool) => tool.name)).toEqual(['shout']);
  await client.close();
}

/** {@link callsATool} on a server that a framework started; the server is closed after the test. */
async function callsAToolOn(server: NodeServer): Promise<void> {
  cleanups.push(() => closeNode(server));
  await callsATool(await listening(server));
}

describe('mounting the handler in frameworks, as the README shows', () => {
  it('Express 5 serves a session with no body parser', async () => {
    const app = express();
    app.all('/mcp', toNodeListener(handler()));
    const server = app.listen(0, '127.0.0.1');
    await callsAToolOn(server);
  });

  it('Express 5 serves a session after express.json() has parsed the body', async () => {
    const app = express();
    app.use(express.json());
    app.all('/mcp', toNodeListener(handler()));
    const server = app.listen(0, '127.0.0.1');
    await callsAToolOn(server);
  });

  it('Hono 4 on @hono/node-server serves a session through c.req.raw', async () => {
    const mcp = handler();
    const app = new Hono();
    app.all('/mcp', (c) => mcp(c.req.raw));
    const server = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as NodeServer;
    await callsAToolOn(server);
  });

  it('Fastify 5 serves a session although it has already read the body (was 400 on every POST)', async () => {
    const fastify = Fastify({ forceCloseConnections: true });
    const listener = toNodeListener(handler());
    fastify.all('/mcp', (request, reply) => {
      reply.hijack();
      listener(request.raw, reply.raw, request.body);
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => fastify.close());
    await callsATool(await listening(fastify.server));
  });
});
