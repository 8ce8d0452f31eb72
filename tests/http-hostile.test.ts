/**
 * Hostile input against the Streamable HTTP endpoint. Every case checks the status, the JSON-RPC
 * error body (no id, no internals) and that the server still serves the next good request.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { Server } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCEPT_BOTH,
  type Json,
  RawClient,
  readAnswer,
} from '../packages/server/src/http/fixtures/rawHttpClient.mjs';

const LIMIT = 64 * 1024;

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request through node:http, which (unlike fetch) lets tests forge Host and stream bodies. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers, agent: options.agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function errorOf(reply: Reply): Json {
  expect(reply.headers['content-type']).toBe('application/json');
  const body = JSON.parse(reply.body) as Json;
  expect(body.jsonrpc).toBe('2.0');
  expect(body.error.message).not.toMatch(/ at |\.ts:|\.js:|stack/i);
  return body;
}

let served: ServedHandler;
let strict: ServedHandler;
let server: Server;
const errors: Error[] = [];

beforeAll(async () => {
  server = new Server(
    { name: 'hostile', version: '1.0.0' },
    { capabilities: { tools: {} }, onError: (e) => errors.push(e) },
  );
  server.setRequestHandler('tools/call', async (params) => {
    const args = (params.arguments ?? {}) as Json;
    if (args.wait) await new Promise((resolve) => setTimeout(resolve, Number(args.wait)));
    return { content: [{ type: 'text', text: `echo:${String(args.n)}` }] };
  });
  const options: StreamableHttpHandlerOptions = { maxBodyBytes: LIMIT };
  served = await serve(createStreamableHttpHandler(server, options), { path: '/mcp' });
  strict = await serve(createStreamableHttpHandler(server, { ...options, strictProtocolVersion: true }), {
    path: '/mcp',
  });
});

afterAll(async () => {
  await served.close();
  await strict.close();
});

/** A fresh initialized session, and a check that it (still) answers a good request. */
async function session(
  url = served.url,
  protocolVersion?: string,
): Promise<RawClient & { works(): Promise<void> }> {
  const client = new RawClient(url, protocolVersion ? { protocolVersion } : {}) as RawClient & {
    works(): Promise<void>;
  };
  await client.connect();
  client.works = async () => {
    const answer = await client.request('tools/call', { name: 'echo', arguments: { n: 'ok' } });
    expect(answer.status).toBe(200);
    expect(answer.messages.at(-1)!.result.content[0].text).toBe('echo:ok');
  };
  return client;
}

function headersOf(client: RawClient, extra: Record<string, string> = {}): Record<string, string> {
  return client.headers(extra);
}

describe('hostile input: bodies', () => {
  it('malformed JSON: 400 with -32700 and no id', async () => {
    const client = await session();
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'not json', '', '\u0000\u0001']) {
      const reply = await send(client.url, { headers: headersOf(client), body });
      expect(reply.status).toBe(400);
      const error = errorOf(reply);
      expect(error.error.code).toBe(-32700);
      expect(error).not.toHaveProperty('id');
    }
    // Bytes that are not UTF-8 are a parse error too.
    const invalidUtf8 = await fetch(client.url, {
      method: 'POST',
      headers: headersOf(client),
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(invalidUtf8.status).toBe(400);
    expect((await invalidUtf8.json()).error.code).toBe(-32700);
    await client.works();
  });

  it('valid JSON that is not a JSON-RPC message: 400 with -32600 (and the id when readable)', async () => {
    const client = await session();
    const cases: Array<[unknown, number | undefined]> = [
      [{ jsonrpc: '1.0', id: 4, method: 'tools/list' }, 4],
      [{ jsonrpc: '2.0', id: null, method: 'tools/list' }, undefined],
      [{ jsonrpc: '2.0', id: 5, method: 7 }, 5],
      [42, undefined],
      [[], undefined],
      [[{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }], undefined],
    ];
    for (const [body, id] of cases) {
      const reply = await send(client.url, { headers: headersOf(client), body: JSON.stringify(body) });
      expect(reply.status).toBe(400);
      const error = errorOf(reply);
      expect(error.error.code).toBe(-32600);
      expect(error.id).toBe(id);
    }
    await client.works();
  });

  it('wrong Content-Type: 415', async () => {
    const client = await session();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      const reply = await send(client.url, {
        headers: headersOf(client, { 'content-type': type }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(reply.status).toBe(415);
      expect(errorOf(reply).error.code).toBe(-32600);
    }
    const missing = headersOf(client);
    delete missing['content-type'];
    expect((await send(client.url, { headers: missing, body: '{}' })).status).toBe(415);
    // Parameters are fine.
    const withCharset = await send(client.url, {
      headers: headersOf(client, { 'content-type': 'application/json; charset=utf-8' }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'cs', method: 'ping' }),
    });
    expect(withCharset.status).toBe(200);
    await client.works();
  });

  it('wrong Accept: 406 on POST (needs both types) and on GET (needs text/event-stream)', async () => {
    const client = await session();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const accept of ['application/json', 'text/event-stream', 'text/html']) {
      const reply = await send(client.url, { headers: headersOf(client, { accept }), body });
      expect(reply.status).toBe(406);
      expect(errorOf(reply).error.code).toBe(-32600);
    }
    const noAccept = headersOf(client);
    delete noAccept.accept;
    expect((await send(client.url, { headers: noAccept, body })).status).toBe(406);
    const get = await send(client.url, {
      method: 'GET',
      headers: headersOf(client, { accept: 'application/json' }),
    });
    expect(get.status).toBe(406);
    // Wildcards are accepted.
    const wildcard = await send(client.url, {
      headers: headersOf(client, { accept: '*/*' }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'w', method: 'ping' }),
    });
    expect(wildcard.status).toBe(200);
    await client.works();
  });

  it('a body over the limit: 413, by Content-Length or while streaming, without reading it all', async () => {
    const client = await session();
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { n: 'x'.repeat(LIMIT) } },
    });
    const declared = await send(client.url, { headers: headersOf(client), body: big });
    expect(declared.status).toBe(413);
    expect(errorOf(declared).error.code).toBe(-32600);

    // Chunked, no Content-Length, and far more than the limit on offer: the server answers 413
    // after reading little more than the limit.
    let offered = 0;
    const reply = await new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(client.url, { method: 'POST', headers: headersOf(client) }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', () => {}); // the server may close the connection on the rest of the upload
      const chunk = 'x'.repeat(16 * 1024);
      const pump = (): void => {
        while (offered < 64 * 1024 * 1024) {
          offered += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      req.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
      pump();
      setTimeout(() => reject(new Error('no answer to an oversized upload')), 10_000).unref();
    });
    expect(reply.status).toBe(413);
    expect(offered).toBeLessThan(64 * 1024 * 1024);
    await client.works();
  });
});

describe('hostile input: sessions and headers', () => {
  it('unknown session: 404; missing session: 400', async () => {
    const client = await session();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'x', 'a'.repeat(5000)]) {
      const unknown = await send(client.url, { headers: headersOf(client, { 'mcp-session-id': id }), body });
      expect(unknown.status).toBe(404);
      expect(errorOf(unknown).error.code).toBe(-32600);
    }
    const missing = headersOf(client);
    delete missing['mcp-session-id'];
    for (const payload of [body, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })]) {
      const reply = await send(client.url, { headers: missing, body: payload });
      expect(reply.status).toBe(400);
      expect(errorOf(reply).error.code).toBe(-32600);
    }
    for (const method of ['GET', 'DELETE']) {
      expect(
        (await send(client.url, { method, headers: { ...missing, accept: 'text/event-stream' } })).status,
      ).toBe(400);
      expect(
        (
          await send(client.url, {
            method,
            headers: headersOf(client, { 'mcp-session-id': 'nope', accept: 'text/event-stream' }),
          })
        ).status,
      ).toBe(404);
    }
    await client.works();
  });

  it('bad Host or Origin: 403 with an id-less JSON-RPC error; loopback names pass', async () => {
    const port = new URL(served.url).port;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'rebind', version: '1' },
      },
    });
    const base = { accept: ACCEPT_BOTH, 'content-type': 'application/json' };
    const rejected: Array<Record<string, string>> = [
      { host: 'evil.example.com', origin: 'http://evil.example.com' },
      { host: `evil.example.com:${port}` },
      { host: `localhost.evil.com:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'http://evil.example.com' },
      { host: `127.0.0.1:${port}`, origin: 'null' },
      { host: `127.0.0.1:${port}`, origin: `file://127.0.0.1` },
      { host: 'localhost:notaport' },
    ];
    for (const headers of rejected) {
      const reply = await send(served.url, { headers: { ...base, ...headers }, body: initialize });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      const error = errorOf(reply);
      expect(error).not.toHaveProperty('id');
    }
    const accepted: Array<Record<string, string>> = [
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { host: `[::1]:${port}`, origin: `https://[::1]:${port}` },
      { host: 'LOCALHOST' },
    ];
    for (const headers of accepted) {
      const reply = await send(served.url, { headers: { ...base, ...headers }, body: initialize });
      expect(reply.status, JSON.stringify(headers)).toBe(200);
    }
    const client = await session();
    await client.works();
  });

  it('protocol version header: unsupported gets 400; a different supported one is accepted unless strict', async () => {
    const client = await session();
    const body = () => JSON.stringify({ jsonrpc: '2.0', id: client.newId(), method: 'ping' });
    for (const version of ['2099-01-01', 'garbage', '']) {
      const reply = await send(client.url, {
        headers: headersOf(client, { 'mcp-protocol-version': version }),
        body: body(),
      });
      expect(reply.status, version).toBe(400);
      expect(errorOf(reply).error.code).toBe(-32600);
    }
    // Real clients send 2025-03-26 on later sessions (the conformance suite does): accepted.
    expect(
      (
        await send(client.url, {
          headers: headersOf(client, { 'mcp-protocol-version': '2025-03-26' }),
          body: body(),
        })
      ).status,
    ).toBe(200);
    const noHeader = headersOf(client);
    delete noHeader['mcp-protocol-version'];
    expect((await send(client.url, { headers: noHeader, body: body() })).status).toBe(200);

    const strictClient = await session(strict.url);
    const mismatched = await send(strictClient.url, {
      headers: headersOf(strictClient, { 'mcp-protocol-version': '2025-06-18' }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
    });
    expect(mismatched.status).toBe(400);
    expect(errorOf(mismatched).error.message).toContain('does not match');
    await strictClient.works();
    await client.works();
  });

  it('GET with a bogus Last-Event-ID: 400, and the session keeps working', async () => {
    const client = await session();
    const first = await client.request('tools/call', { name: 'echo', arguments: { n: 1 } });
    const realId = first.events[0]!.id!;
    const prefix = realId.slice(0, realId.indexOf('/'));
    for (const id of [
      'nope',
      'x'.repeat(1000),
      `${prefix}/999999`,
      `${prefix}/-1`,
      `${prefix}/01`,
      'ffffffffffffffff-1/0',
      '/',
      'a b',
    ]) {
      const reply = await send(client.url, {
        method: 'GET',
        headers: headersOf(client, { accept: 'text/event-stream', 'last-event-id': id }),
      });
      expect(reply.status, id).toBe(400);
      expect(errorOf(reply).error.code).toBe(-32600);
    }
    await client.works();
  });

  it('a request id already in flight: 400; other methods: 405', async () => {
    const client = await session();
    const slow = client.post({
      jsonrpc: '2.0',
      id: 'dup',
      method: 'tools/call',
      params: { name: 'echo', arguments: { n: 1, wait: 100 } },
    });
    const first = await slow;
    const duplicate = await send(client.url, {
      headers: headersOf(client),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'dup', method: 'ping' }),
    });
    expect(duplicate.status).toBe(400);
    expect(errorOf(duplicate)).toMatchObject({ id: 'dup', error: { code: -32600 } });
    expect((await readAnswer(first)).messages.at(-1)!.result.content[0].text).toBe('echo:1');
    for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
      const reply = await send(client.url, { method, headers: headersOf(client) });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, POST, DELETE');
    }
    await client.works();
  });
});

describe('hostile input: load', () => {
  it('a storm of 1,000 concurrent POSTs is answered, each with its own result', async () => {
    const client = await session();
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    try {
      const replies = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          send(client.url, {
            agent,
            headers: headersOf(client),
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: `storm-${i}`,
              method: 'tools/call',
              params: { name: 'echo', arguments: { n: i } },
            }),
          }),
        ),
      );
      replies.forEach((reply, i) => {
        expect(reply.status).toBe(200);
        const data = reply.body
          .split('\n')
          .filter((line) => line.startsWith('data: ') && line.length > 6)
          .map((line) => JSON.parse(line.slice(6)) as Json);
        expect(data).toEqual([
          { jsonrpc: '2.0', id: `storm-${i}`, result: { content: [{ type: 'text', text: `echo:${i}` }] } },
        ]);
      });
    } finally {
      agent.destroy();
    }
    await client.works();
    expect(errors).toEqual([]);
  });
});
