/**
 * The Node HTTP client path on undici (`@mcpkit/node/http-client`): proxies from the environment
 * (`HTTP_PROXY`, `NO_PROXY`) through a real local forward proxy, and the pool size option. The
 * transport behaviours themselves run on both paths in http-client-resilience.test.ts.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect as netConnect } from 'node:net';
import { McpClient } from '@mcpkit/client';
import { createUndiciFetch, StreamableHttpClientTransport } from '@mcpkit/node/http-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startMisbehavingHttpServer } from './fixtures/misbehavingHttp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** A small HTTP proxy (CONNECT tunnels and absolute-URI forwarding) that records every target. */
async function startProxy() {
  const targets: string[] = [];
  const proxy: Server = createServer((req, res) => {
    targets.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => closeServer(proxy));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, targets };
}

/** Sets proxy variables for one test, restoring them afterwards. */
function setEnv(values: Record<string, string | undefined>) {
  const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
  Object.assign(process.env, values);
  cleanups.push(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
}

async function callThrough(url: string, fetch: ReturnType<typeof createUndiciFetch>) {
  const client = new McpClient({ name: 'proxied', version: '1.0.0' });
  cleanups.push(() => client.close());
  await client.connect(new StreamableHttpClientTransport(url, { fetch, openGetStream: false }));
  return client.callTool('echo', { via: 'proxy' });
}

describe('proxies from the environment', () => {
  it('HTTP_PROXY sends every request through the proxy', async () => {
    const server = await startMisbehavingHttpServer('polite');
    cleanups.push(() => server.close());
    const proxy = await startProxy();
    setEnv({ HTTP_PROXY: proxy.url });
    const result = await callThrough(server.url, createUndiciFetch());
    expect(result.isError).toBeFalsy();
    const host = new URL(server.url).host;
    expect(proxy.targets.length).toBeGreaterThan(0);
    expect(proxy.targets.every((target) => target === host || target.startsWith(`http://${host}/`))).toBe(
      true,
    );
  });

  it('NO_PROXY exempts the hosts it names', async () => {
    const server = await startMisbehavingHttpServer('polite');
    cleanups.push(() => server.close());
    const proxy = await startProxy();
    setEnv({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    const result = await callThrough(server.url, createUndiciFetch());
    expect(result.isError).toBeFalsy();
    expect(proxy.targets).toEqual([]);
  });

  it('proxyFromEnv: false ignores the variables', async () => {
    const server = await startMisbehavingHttpServer('polite');
    cleanups.push(() => server.close());
    const proxy = await startProxy();
    setEnv({ HTTP_PROXY: proxy.url });
    await callThrough(server.url, createUndiciFetch({ proxyFromEnv: false }));
    expect(proxy.targets).toEqual([]);
  });
});

describe('pool size', () => {
  it('connections caps the sockets open to one origin at once', async () => {
    const server = await startMisbehavingHttpServer('polite');
    cleanups.push(() => server.close());
    let open = 0;
    let mostOpen = 0;
    const counter = createServer((req, res) => {
      const forward = httpRequest(server.url, { method: req.method, headers: req.headers }, (answer) => {
        // Keep the client's socket alive whatever the upstream hop said.
        const { connection: _hop, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    counter.on('connection', (socket) => {
      mostOpen = Math.max(mostOpen, ++open);
      socket.on('close', () => open--);
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => closeServer(counter));
    const url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}/mcp`;
    const client = new McpClient({ name: 'pooled', version: '1.0.0' });
    cleanups.push(() => client.close());
    const fetch = createUndiciFetch({ connections: 2, proxyFromEnv: false });
    await client.connect(new StreamableHttpClientTransport(url, { fetch, openGetStream: false }));
    await Promise.all(Array.from({ length: 16 }, (_, i) => client.callTool('echo', { i })));
    expect(mostOpen).toBeGreaterThan(0);
    expect(mostOpen).toBeLessThanOrEqual(2);
  });
});
