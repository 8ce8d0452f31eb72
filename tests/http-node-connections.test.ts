/**
 * How `@mcpkit/node/http` treats connections that misbehave at the socket level: an upload past
 * the body limit, a client that stops reading its SSE stream, a client that drips its headers.
 * Everything runs through `serve()` on 127.0.0.1 with real sockets.
 */
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';

const run = promisify(execFile);
const servers: ServedHandler[] = [];
const errors: Error[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'connections', version: '1.0.0' });
  server.tool('echo', { description: 'Echoes' }, () => 'ok');
  // Sends far more than a client may leave unread (8 MiB by default) plus what the kernel's socket
  // buffers may hold, in 64 KiB notifications, until the call is cancelled because its client left.
  server.tool('flood', { description: 'Floods its own stream' }, async (_args, ctx) => {
    const data = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 2048 && !ctx.signal.aborted; i++) {
      await ctx.notify('notifications/message', { level: 'info', data });
      if (i % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return 'flooded';
  });
  return server;
}

async function served(
  options: { requestTimeout?: number; headersTimeout?: number } = {},
  handlerOptions = {},
): Promise<ServedHandler> {
  const handler = createStreamableHttpHandler(mcpServer(), handlerOptions);
  const result = await serve(handler, { path: '/mcp', onError: (e) => errors.push(e), ...options });
  servers.push(result);
  return result;
}

/** Connects a raw socket, and tells when the server's end of it closes (rejects after `ms`). */
async function rawSocket(
  server: ServedHandler,
  ms: number,
): Promise<{ socket: Socket; closed: Promise<void> }> {
  const accepted: Socket[] = [];
  const onConnection = (socket: Socket): void => {
    accepted.push(socket);
  };
  server.server.on('connection', onConnection);
  const url = new URL(server.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  while (!accepted.some((other) => other.remotePort === socket.localPort))
    await new Promise((resolve) => setTimeout(resolve, 5));
  server.server.off('connection', onConnection);
  const mine = accepted.find((other) => other.remotePort === socket.localPort)!;
  const closed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the socket open for ${ms} ms`)), ms);
    mine.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return { socket, closed };
}

describe('node adapter: oversized uploads', () => {
  it('a 20 MB body gets 413 through Node fetch every time instead of EPIPE / "fetch failed"', async () => {
    const { url } = await served();
    const script = fileURLToPath(new URL('./fixtures/oversizedUploads.mjs', import.meta.url));
    const { stdout } = await run(process.execPath, [script, url, String(20e6), '30'], { timeout: 100_000 });
    expect(JSON.parse(stdout.trim())).toEqual({ 413: 30 });
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    // Streamed without a Content-Length: refused while reading, the rest still received.
    for (let round = 0; round < 5; round++) {
      const chunk = new TextEncoder().encode('x'.repeat(1 << 20));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 20) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      await response.arrayBuffer();
    }
    // The connection is still good for real work.
    const client = new RawClient(url);
    await client.connect();
    const answer = await client.request('tools/call', { name: 'echo', arguments: {} });
    expect(answer.messages.at(-1)?.result.content[0].text).toBe('ok');
  }, 120_000);
});

describe('node adapter: sockets that hang on', () => {
  it('a client that never reads its SSE stream has its socket closed once the stream gives up', async () => {
    // No event store: the call cannot be resumed, so losing its client cancels the flood.
    const server = await served({}, { eventStore: false });
    const client = new RawClient(server.url);
    await client.connect();
    const url = new URL(server.url);
    const { socket, closed } = await rawSocket(server, 60_000);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'flood', arguments: {} },
    });
    const head = Object.entries(client.headers({ host: url.host, 'content-length': String(body.length) }))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n${body}`);
    socket.pause(); // never read a byte of the answer
    await closed;
    expect(errors.map((error) => error.message)).toContain('The client is not reading the stream');
    socket.destroy();
    // The session itself keeps working.
    const answer = await client.request('tools/call', { name: 'echo', arguments: {} });
    expect(answer.messages.at(-1)?.result.content[0].text).toBe('ok');
  }, 90_000);

  it('a connection that drips its headers is cut within seconds by the default timeouts', async () => {
    const server = await served();
    expect(server.server.headersTimeout).toBeLessThanOrEqual(10_000);
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => {});
    socket.resume();
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const started = Date.now();
    socket.write(`POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n`);
    let n = 0;
    const drip = setInterval(() => socket.write(`x-drip-${n++}: ${n}\r\n`), 300);
    try {
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    } finally {
      clearInterval(drip);
    }
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(15_000);
    expect(n).toBeGreaterThan(3); // it was dripping, not refused at once
  }, 30_000);

  it('requestTimeout bounds receiving a request only: a long SSE response is not cut', async () => {
    const server = await served({ requestTimeout: 1_000, headersTimeout: 500 }, { keepAliveInterval: 200 });
    const client = new RawClient(server.url);
    await client.connect();
    const response = await client.get();
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = Date.now() + 3_500;
    while (Date.now() < until) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    expect(text.split(': keep-alive').length).toBeGreaterThan(5);
  }, 30_000);
});
