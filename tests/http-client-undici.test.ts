/**
 * The Node HTTP client path on undici (`@mcpkit/node/http-client`): proxies from the environment
 * (`HTTP_PROXY`, `NO_PROXY`) through a real local forward proxy, the pool size option, and a
 * custom CA against an HTTPS mcpkit server whose certificate `openssl` issues at test time. The
 * transport behaviours themselves run on both paths in http-client-resilience.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClient } from '@mcpkit/client';
import { toNodeListener } from '@mcpkit/node/http';
import { createUndiciFetch, StreamableHttpClientTransport } from '@mcpkit/node/http-client';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMisbehavingHttpServer } from './fixtures/misbehavingHttp.js';
import { closeServer, listen } from './support/listen.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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

/**
 * A throwaway CA and a server certificate for 127.0.0.1 signed by it, made with the `openssl`
 * command-line tool (part of Debian's base image) so no key material lives in the repository.
 */
function issueCertificates(): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-ca-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=mcpkit test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(
    'req',
    ...ecKey,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  );
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '1',
    '-extfile',
    file('server.ext'),
  );
  const read = (name: string) => readFileSync(file(name), 'utf8');
  return { ca: read('ca.pem'), key: read('server.key'), cert: read('server.pem') };
}

/** An mcpkit Streamable HTTP server with one `echo` tool, on node:https at 127.0.0.1. */
async function startHttpsMcpServer(key: string, cert: string): Promise<string> {
  const mcp = new McpServer({ name: 'tls-server', version: '1.0.0' });
  mcp.tool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    ({ text }) => `tls:${String(text)}`,
  );
  const handler = createStreamableHttpHandler(mcp);
  const server = createHttpsServer({ key, cert }, toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await handler.close?.();
  });
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** Serves `server` until the test ends; its MCP endpoint URL. */
async function mcpUrlOf(server: Server): Promise<string> {
  const served = await listen(server);
  cleanups.push(served.close);
  return `${served.origin}/mcp`;
}

describe('request headers', () => {
  it('fixed user headers given in mixed case reach the server once, and protocol headers win over them', async () => {
    const server = await startMisbehavingHttpServer('polite');
    cleanups.push(() => server.close());
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const recorder = createServer((req, res) => {
      seen.push(req.headers);
      const forward = httpRequest(server.url, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    const url = await mcpUrlOf(recorder);
    const client = new McpClient({ name: 'headers', version: '1.0.0' });
    cleanups.push(() => client.close());
    const headers = { 'X-Api-Key': 'k1', Accept: 'text/html', 'Content-Type': 'text/plain' };
    const fetch = createUndiciFetch({ proxyFromEnv: false });
    await client.connect(new StreamableHttpClientTransport(url, { fetch, headers, openGetStream: false }));
    await client.callTool('echo', { via: 'headers' });
    const posts = seen.filter((request) => request['content-type'] !== undefined);
    expect(posts.length).toBeGreaterThan(1);
    for (const request of posts) {
      expect(request['x-api-key']).toBe('k1');
      expect(request.accept).toBe('application/json, text/event-stream');
      expect(request['content-type']).toBe('application/json');
    }
  });
});

describe('message limit with a declared length', () => {
  it('a JSON answer whose Content-Length exceeds maxMessageSize is refused, not read whole', async () => {
    const padding = 'x'.repeat(4000);
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const id = (JSON.parse(raw) as { id?: number }).id ?? null;
        const text = JSON.stringify({ jsonrpc: '2.0', id, result: { padding } });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    });
    const url = await mcpUrlOf(server);
    const client = new McpClient({ name: 'limited', version: '1.0.0' });
    cleanups.push(() => client.close());
    const fetch = createUndiciFetch({ proxyFromEnv: false });
    const transport = new StreamableHttpClientTransport(url, {
      fetch,
      maxMessageSize: 1000,
      openGetStream: false,
    });
    await expect(client.connect(transport)).rejects.toThrow(/exceeds 1000 characters/);
  });
});

describe('custom certificate authority', () => {
  it('with ca the transport trusts a server certificate signed by that CA and calls a tool', async () => {
    const { ca, key, cert } = issueCertificates();
    const url = await startHttpsMcpServer(key, cert);
    const client = new McpClient({ name: 'tls-client', version: '1.0.0' });
    cleanups.push(() => client.close());
    const fetch = createUndiciFetch({ ca, proxyFromEnv: false });
    await client.connect(new StreamableHttpClientTransport(url, { fetch, openGetStream: false }));
    const result = await client.callTool('echo', { text: 'over tls' });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'tls:over tls' }]);
  });

  it('without ca the same server is refused with a certificate error', async () => {
    const { key, cert } = issueCertificates();
    const url = await startHttpsMcpServer(key, cert);
    const client = new McpClient({ name: 'tls-client', version: '1.0.0' });
    cleanups.push(() => client.close());
    const fetch = createUndiciFetch({ proxyFromEnv: false });
    const connecting = client.connect(
      new StreamableHttpClientTransport(url, { fetch, openGetStream: false }),
    );
    await expect(connecting).rejects.toThrow(/certificate|UNABLE_TO_VERIFY|self[- ]signed/i);
  });
});

describe('web Responses where user code sees them (the transport reads a lighter answer)', () => {
  async function startPlainServer(handler: RequestListener) {
    const server = createServer(handler);
    const { origin, close } = await listen(server);
    cleanups.push(close);
    return `${origin}/mcp`;
  }

  it('the fetch of createUndiciFetch answers a real Response whose body reads as text', async () => {
    const url = await startPlainServer((_req, res) => {
      res.writeHead(418, 'Teapot', { 'content-type': 'application/json', 'x-extra': 'yes' }).end('{"a":1}');
    });
    const response = await createUndiciFetch({ proxyFromEnv: false })(new URL(url), { method: 'GET' });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(418);
    expect(response.statusText).toBe('Teapot');
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('an auth hook on the undici path gets a real Response with a readable body', async () => {
    let authorized = false;
    const url = await startPlainServer((req, res) => {
      if (req.headers.authorization !== 'Bearer fresh') {
        res
          .writeHead(401, {
            'www-authenticate': 'Bearer error="invalid_token"',
            'content-type': 'application/json',
          })
          .end('{"error":"invalid_token"}');
        return;
      }
      authorized = true;
      res.writeHead(405).end(); // anything after the retry: the point is the hook's view
    });
    let token = 'stale';
    const seen: { isResponse: boolean; challenge: string | null; body: unknown }[] = [];
    const client = new McpClient({ name: 'auth-hook', version: '1.0.0' });
    cleanups.push(() => client.close());
    const transport = new StreamableHttpClientTransport(url, {
      fetch: createUndiciFetch({ proxyFromEnv: false }),
      openGetStream: false,
      authProvider: {
        headers: () => ({ authorization: `Bearer ${token}` }),
        async onUnauthorized(response) {
          seen.push({
            isResponse: response instanceof Response,
            challenge: response.headers.get('www-authenticate'),
            body: await response.json(),
          });
          token = 'fresh';
          return true;
        },
      },
    });
    await client.connect(transport).catch(() => {});
    expect(authorized).toBe(true);
    expect(seen).toEqual([
      { isResponse: true, challenge: 'Bearer error="invalid_token"', body: { error: 'invalid_token' } },
    ]);
  });
});
