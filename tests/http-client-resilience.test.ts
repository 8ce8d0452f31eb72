/**
 * The Streamable HTTP client against tiny hand-written servers that misbehave on purpose: dropped
 * and resumed streams (sdk#2499), `retry:` timing, backoff, auth, custom headers and fetch, HTTP
 * errors, and the fallback to the legacy transport. Every test runs twice: on the global `fetch`
 * (`@mcpkit/client/http`) and on undici (`@mcpkit/node/http-client`, the default on Node).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Client } from '@mcpkit/client';
import * as fetchPath from '@mcpkit/client/http';
import {
  type AuthProvider,
  HttpTransportError,
  type StreamableHttpClientTransportOptions,
} from '@mcpkit/client/http';
import { ConnectionClosedError, McpError } from '@mcpkit/core';
import * as undiciPath from '@mcpkit/node/http-client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from './support/eventually.js';
import { listen } from './support/listen.js';

/** The two client HTTP paths; each describe block below runs on both. */
const PATHS = [
  ['fetch', fetchPath],
  ['undici', undiciPath],
] as const;
/** The path the running block uses. */
let http: typeof fetchPath | typeof undiciPath = fetchPath;

interface Exchange {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { id?: number | string; method?: string; params?: Record<string, unknown> } | undefined;
  /** When the request arrived (performance.now()). */
  readonly at: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Exchange['body']) => void | Promise<void>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Records the wait of every reconnection the client schedules (the `setTimeout` of
 * sseStreams.ts; timers still run for real): backoff is asserted on the values asked for, which
 * load cannot change, instead of upper bounds on measured gaps.
 */
function recordReconnectionWaits(): number[] {
  const waits: number[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
    if (new Error().stack?.includes('sseStreams')) waits.push(ms ?? 0);
    return real(callback, ms);
  }) as typeof setTimeout);
  return waits;
}

async function startServer(handle: Handler) {
  const seen: Exchange[] = [];
  const http = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    seen.push({ method: req.method ?? '', headers: req.headers, body, at: performance.now() });
    await handle(req, res, body);
  });
  const { origin, close } = await listen(http);
  cleanups.push(close);
  return {
    origin,
    url: `${origin}/mcp`,
    seen,
    posts: (method: string) => seen.filter((exchange) => exchange.body?.method === method),
    gets: () => seen.filter((exchange) => exchange.method === 'GET'),
    /** GETs that resume a stream (they carry Last-Event-ID). */
    resumes: () =>
      seen.filter((exchange) => exchange.method === 'GET' && exchange.headers['last-event-id'] !== undefined),
  };
}

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
}

const result = (id: unknown, value: Record<string, unknown>) => ({ jsonrpc: '2.0', id, result: value });

/**
 * Answers what every test server needs: `initialize` (with session `s1`), notifications (202) and
 * the standalone GET (405). True when it answered.
 */
function basics(req: IncomingMessage, res: ServerResponse, body: Exchange['body'], session = 's1'): boolean {
  if (body?.method === 'initialize') {
    const answer = result(body.id, {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'hand-written', version: '1.0.0' },
    });
    json(res, 200, answer, { 'mcp-session-id': session });
    return true;
  }
  if (body !== undefined && body.id === undefined) {
    res.writeHead(202).end();
    return true;
  }
  if (req.method === 'GET' && !req.headers['last-event-id']) {
    res.writeHead(405).end();
    return true;
  }
  if (req.method === 'DELETE') {
    res.writeHead(200).end();
    return true;
  }
  return false;
}

/**
 * Answers what {@link basics} answers, and a tools/call with `event` on an SSE stream that then
 * ends, the start of every resumption case. True when it answered.
 */
function primedCall(
  req: IncomingMessage,
  res: ServerResponse,
  body: Exchange['body'],
  event: string,
): boolean {
  if (basics(req, res, body)) return true;
  if (body?.method !== 'tools/call') return false;
  openSse(res);
  res.end(event);
  return true;
}

/** Answers `initialize` with a new session each time (`s1`, `s2`, …): true when it answered. */
function renewingSessions() {
  let sessions = 0;
  return (req: IncomingMessage, res: ServerResponse, body: Exchange['body']): boolean => {
    if (body?.method !== 'initialize') return false;
    sessions++;
    return basics(req, res, body, `s${sessions}`);
  };
}

async function connect(url: string, options: StreamableHttpClientTransportOptions = {}) {
  const errors: Error[] = [];
  // '2025': resumption with Last-Event-ID, session re-initialization and the exact requests a
  // session makes (GET stream, DELETE) are the 2025 transport's behaviour.
  const client = new Client(
    { name: 'resilience', version: '1.0.0' },
    { protocolEra: '2025', onError: (error) => errors.push(error) },
  );
  cleanups.push(() => client.close());
  const transport = new http.StreamableHttpClientTransport(url, options);
  await client.connect(transport);
  return { client, transport, errors };
}

/**
 * Calls a tool and aborts the call as soon as the server has it (aborting before the request went
 * out would leave nothing to cancel), then waits for the cancellation to arrive. Returns how many
 * resumes the server had seen at the abort.
 */
async function cancelOnArrival(server: Awaited<ReturnType<typeof startServer>>, client: Client) {
  const controller = new AbortController();
  const call = client.request('tools/call', { name: 'work', arguments: {} }, { signal: controller.signal });
  await eventually(() => server.posts('tools/call').length === 1, 'the call to arrive');
  controller.abort('changed my mind');
  const resumedBefore = server.resumes().length;
  await expect(call).rejects.toThrow();
  await eventually(() => server.posts('notifications/cancelled').length === 1, 'the cancellation');
  return resumedBefore;
}

const callTool = (client: Client, name = 'work') => client.request('tools/call', { name, arguments: {} });
const toolResult = (text: string) => ({ content: [{ type: 'text', text }] });

describe.each(PATHS)('over %s', (_name, path) => {
  beforeAll(() => {
    http = path;
  });

  describe('resumption', () => {
    it.each([
      ['the connection is destroyed', (res: ServerResponse) => res.socket?.destroy()],
      ['the server ends the response', (res: ServerResponse) => res.end()],
    ])(
      'regression: sdk#2499 resumption token re-sent when a resumed stream drops before any id-bearing event (%s)',
      async (_how, drop) => {
        const server = await startServer((req, res, body) => {
          // A priming event, then a polling close.
          if (primedCall(req, res, body, 'id: e1\nretry: 20\ndata: \n\n')) return;
          const resumes = server.resumes().length;
          openSse(res);
          if (resumes === 1) {
            // A notification without an id, then the stream drops: the cursor must stay at e1.
            res.write(
              `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n\n`,
            );
            setTimeout(() => drop(res), 10);
            return;
          }
          res.end(`id: e2\ndata: ${JSON.stringify(result(2, toolResult('resumed')))}\n\n`);
        });
        const { client } = await connect(server.url);
        const logs: unknown[] = [];
        client.onNotification('notifications/message', (params) => logs.push(params.data));
        await expect(callTool(client)).resolves.toEqual(toolResult('resumed'));
        expect(server.resumes().map((get) => get.headers['last-event-id'])).toEqual(['e1', 'e1']);
        expect(logs).toEqual(['x']);
      },
    );

    it('waits the retry: time the server set before resuming, and sends Last-Event-ID', async () => {
      let closedAt = 0;
      const server = await startServer((req, res, body) => {
        if (basics(req, res, body)) return;
        if (body?.method === 'tools/call') {
          openSse(res);
          res.write('id: p1\nretry: 500\ndata: \n\n');
          setTimeout(() => {
            closedAt = performance.now();
            res.end();
          }, 50);
          return;
        }
        openSse(res);
        res.end(`id: p2\ndata: ${JSON.stringify(result(2, toolResult('late')))}\n\n`);
      });
      // The server's retry: must win over the client's initial delay (made a minute here).
      const { client } = await connect(server.url, { initialReconnectionDelay: 60_000 });
      const waits = recordReconnectionWaits();
      await expect(callTool(client)).resolves.toEqual(toolResult('late'));
      const [resume] = server.resumes();
      expect(resume?.headers['last-event-id']).toBe('p1');
      expect(waits).toEqual([500]);
      // Really waited (a lower bound, which load cannot break; timers round to the ms).
      expect(resume!.at - closedAt).toBeGreaterThanOrEqual(450);
    });

    it('uses initialReconnectionDelay when the server sent no retry:, and backs off after failed attempts', async () => {
      const server = await startServer((req, res, body) => {
        if (primedCall(req, res, body, 'id: a1\ndata: \n\n')) return;
        if (server.resumes().length <= 2) {
          res.writeHead(503).end();
          return;
        }
        openSse(res);
        res.end(`id: a2\ndata: ${JSON.stringify(result(2, toolResult('third time')))}\n\n`);
      });
      const { client } = await connect(server.url, {
        initialReconnectionDelay: 100,
        reconnectionDelayGrowFactor: 2,
      });
      const waits = recordReconnectionWaits();
      const posted = performance.now();
      await expect(callTool(client)).resolves.toEqual(toolResult('third time'));
      expect(waits).toEqual([100, 200, 400]); // 100 × 2ⁿ, counted from the first failure
      const times = [posted, ...server.resumes().map((get) => get.at)];
      const gaps = times.slice(1).map((time, index) => time - times[index]!);
      expect(gaps).toHaveLength(3);
      expect(gaps[0]).toBeGreaterThanOrEqual(95);
      expect(gaps[1]).toBeGreaterThanOrEqual(195); // 100 × 2
      expect(gaps[2]).toBeGreaterThanOrEqual(395); // 100 × 2²: lower bounds only, load cannot break them
      expect(server.resumes().every((get) => get.headers['last-event-id'] === 'a1')).toBe(true);
    });

    it('fails the request with a clear error after maxRetries failed attempts, instead of hanging', async () => {
      const server = await startServer((req, res, body) => {
        if (primedCall(req, res, body, 'id: b1\nretry: 10\ndata: \n\n')) return;
        res.writeHead(503).end();
      });
      const { client } = await connect(server.url, { maxRetries: 2 });
      const failure = await callTool(client).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(McpError);
      expect((failure as Error).message).toMatch(
        /answer stream of "tools\/call" was lost.*2 reconnection attempt/,
      );
      expect(server.resumes()).toHaveLength(2);
    });

    it('fails the request when its stream ends before the answer without any event id', async () => {
      const server = await startServer((req, res, body) => {
        if (basics(req, res, body)) return;
        openSse(res);
        res.end(': nothing to resume from\n\n');
      });
      const { client } = await connect(server.url);
      await expect(callTool(client)).rejects.toThrow(/no event id to resume from/);
      expect(server.resumes()).toHaveLength(0);
    });

    it('does not resume a non-resumable failure (404 on the resume GET)', async () => {
      const server = await startServer((req, res, body) => {
        if (primedCall(req, res, body, 'id: c1\nretry: 10\ndata: \n\n')) return;
        json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' } });
      });
      const { client } = await connect(server.url);
      await expect(callTool(client)).rejects.toThrow(/HTTP 404.*Session not found/);
      expect(server.resumes()).toHaveLength(1);
    });

    it('stops resuming once the client cancels the request', async () => {
      const server = await startServer((req, res, body) => {
        if (primedCall(req, res, body, 'id: d1\nretry: 150\ndata: \n\n')) return;
        openSse(res); // never answers
      });
      const { client } = await connect(server.url);
      // A resume the retry timer started before the abort (a loaded machine) is not the point.
      const resumedBefore = await cancelOnArrival(server, client);
      await sleep(250); // longer than the stream's retry: a resume would have come by now
      expect(server.posts('notifications/cancelled')).toHaveLength(1);
      expect(server.resumes()).toHaveLength(resumedBefore);
    });

    it('regression: never resumes the answer of a request cancelled while its POST awaited the response', async () => {
      let answerCall: (() => void) | undefined;
      const server = await startServer((req, res, body) => {
        if (body?.method === 'notifications/cancelled') {
          res.writeHead(202).end();
          answerCall?.(); // the call's answer starts only once the cancellation arrived
          return;
        }
        if (basics(req, res, body)) return;
        if (body?.method === 'tools/call') {
          answerCall = () => {
            openSse(res);
            res.end('id: c1\nretry: 10\ndata: \n\n');
          };
          return;
        }
        openSse(res); // a resume: never answers
      });
      const { client, errors } = await connect(server.url);
      await cancelOnArrival(server, client);
      await sleep(200); // twenty times the stream's retry: a resume would have come by now
      expect(server.resumes()).toHaveLength(0);
      expect(errors).toEqual([]);
    });

    it('reconnects the standalone GET stream with the last event id after the server closes it', async () => {
      const server = await startServer((req, res, body) => {
        if (body?.method === 'initialize' || (body !== undefined && body.id === undefined)) {
          basics(req, res, body);
          return;
        }
        if (req.method === 'GET') {
          openSse(res);
          const n = server.gets().length;
          const note = {
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: n },
          };
          if (n === 1) res.end(`id: g1\nretry: 30\ndata: ${JSON.stringify(note)}\n\n`);
          else res.write(`id: g${n}\ndata: ${JSON.stringify(note)}\n\n`);
          return;
        }
        res.writeHead(200).end();
      });
      const { client } = await connect(server.url);
      const logs: unknown[] = [];
      const second = new Promise<void>((resolve) =>
        client.onNotification('notifications/message', (params) => {
          logs.push(params.data);
          if (logs.length === 2) resolve();
        }),
      );
      await second;
      expect(logs).toEqual([1, 2]);
      expect(server.gets().map((get) => get.headers['last-event-id'])).toEqual([undefined, 'g1']);
    });

    it.each([404, 405])(
      'treats %i on the standalone GET as "no stream": no retry, no error',
      async (status) => {
        const server = await startServer((req, res, body) => {
          if (req.method === 'GET') res.writeHead(status).end();
          else basics(req, res, body);
        });
        const { errors } = await connect(server.url, { initialReconnectionDelay: 10 });
        await eventually(() => server.gets().length === 1, 'the standalone GET');
        await sleep(100); // ten times the reconnection delay: a retry would have come by now
        expect(server.gets()).toHaveLength(1);
        expect(errors).toEqual([]);
      },
    );
  });

  describe('sessions', () => {
    it('fails clearly when the session keeps expiring: one re-initialization per failure, no loop', async () => {
      const initialize = renewingSessions();
      const server = await startServer((req, res, body) => {
        if (initialize(req, res, body)) return;
        if (body?.method === 'tools/call') {
          json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' } });
          return;
        }
        basics(req, res, body);
      });
      const { client, transport } = await connect(server.url, { openGetStream: false });
      const failure = await callTool(client).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpTransportError);
      expect((failure as HttpTransportError).status).toBe(404);
      expect(server.posts('initialize')).toHaveLength(2);
      expect(server.posts('tools/call').map((post) => post.headers['mcp-session-id'])).toEqual(['s1', 's2']);
      expect(transport.sessionId).toBe('s2');
    });

    it('fails clearly when re-initializing the expired session fails', async () => {
      let initializes = 0;
      const server = await startServer((req, res, body) => {
        if (body?.method === 'initialize' && ++initializes > 1) {
          res.writeHead(503).end();
          return;
        }
        if (body?.method === 'tools/call') {
          json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' } });
          return;
        }
        basics(req, res, body);
      });
      const { client } = await connect(server.url, { openGetStream: false });
      await expect(callTool(client)).rejects.toThrow(
        /session expired \(HTTP 404\) and re-initializing failed: .*HTTP 503/,
      );
      expect(server.posts('tools/call')).toHaveLength(1);
    });

    it('re-initializes once for concurrent requests that hit the same expired session', async () => {
      const initialize = renewingSessions();
      const server = await startServer((req, res, body) => {
        if (initialize(req, res, body)) return;
        if (body?.method === 'tools/call') {
          if (req.headers['mcp-session-id'] === 's1')
            json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'gone' } });
          else json(res, 200, result(body.id, toolResult(`ok ${body.id}`)));
          return;
        }
        basics(req, res, body);
      });
      const { client } = await connect(server.url, { openGetStream: false });
      const answers = await Promise.all([callTool(client), callTool(client), callTool(client)]);
      expect(answers).toEqual([toolResult('ok 2'), toolResult('ok 3'), toolResult('ok 4')]);
      expect(server.posts('initialize')).toHaveLength(2);
      expect(server.posts('notifications/initialized')).toHaveLength(2);
    });

    it('aborts streams in flight and ends the session with DELETE on close', async () => {
      let streamClosed!: () => void;
      const aborted = new Promise<void>((resolve) => {
        streamClosed = resolve;
      });
      const server = await startServer((req, res, body) => {
        if (basics(req, res, body)) return;
        openSse(res); // an answer that never comes
        res.on('close', () => streamClosed());
      });
      const { client } = await connect(server.url);
      const call = callTool(client);
      await sleep(30);
      await client.close();
      await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
      await aborted;
      const deletion = server.seen.find((exchange) => exchange.method === 'DELETE');
      expect(deletion?.headers['mcp-session-id']).toBe('s1');
    });
  });

  describe('headers, fetch and auth', () => {
    it('sends custom headers (a function is evaluated per request) through a custom fetch', async () => {
      const server = await startServer((req, res, body) => {
        if (basics(req, res, body)) return;
        json(res, 200, result(body?.id, toolResult('ok')));
      });
      let evaluations = 0;
      const fetched: string[] = [];
      const { client } = await connect(server.url, {
        headers: () => ({ 'x-request-number': String(++evaluations), accept: 'text/html' }),
        fetch: (url, init) => {
          fetched.push(init.method ?? 'GET');
          return fetch(url, init);
        },
      });
      await callTool(client);
      expect(fetched).toEqual(['POST', 'POST', 'GET', 'POST']);
      expect(server.seen.map((exchange) => exchange.headers['x-request-number'])).toEqual([
        '1',
        '2',
        '3',
        '4',
      ]);
      // Protocol headers win over user headers.
      expect(server.seen[0]?.headers.accept).toBe('application/json, text/event-stream');
    });

    it('asks the auth provider for headers on every request and retries once after a 401 it handled', async () => {
      let token = 'expired';
      const server = await startServer((req, res, body) => {
        if (req.headers.authorization !== 'Bearer fresh') {
          res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
          return;
        }
        if (basics(req, res, body)) return;
        json(res, 200, result(body?.id, toolResult('authorized')));
      });
      const challenges: string[] = [];
      const authProvider: AuthProvider = {
        headers: () => ({ authorization: `Bearer ${token}` }),
        async onUnauthorized(response) {
          challenges.push(response.headers.get('www-authenticate') ?? '');
          token = 'fresh';
          return true;
        },
      };
      const { client } = await connect(server.url, { authProvider });
      await expect(callTool(client)).resolves.toEqual(toolResult('authorized'));
      expect(challenges).toEqual(['Bearer error="invalid_token"']);
      expect(server.seen.map((exchange) => exchange.headers.authorization)).toEqual([
        'Bearer expired',
        'Bearer fresh',
        'Bearer fresh',
        'Bearer fresh',
        'Bearer fresh',
      ]);
    });

    it('fails with 401 when the auth provider declines, or after a single retry', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(401).end();
      });
      const declining: AuthProvider = { headers: () => ({}), onUnauthorized: async () => false };
      const declined = await connect(server.url, { authProvider: declining }).catch(
        (error: unknown) => error,
      );
      expect(declined).toBeInstanceOf(HttpTransportError);
      expect((declined as HttpTransportError).status).toBe(401);

      let retries = 0;
      const hopeful: AuthProvider = { headers: () => ({}), onUnauthorized: async () => ++retries > 0 };
      await expect(connect(server.url, { authProvider: hopeful })).rejects.toThrow(/HTTP 401/);
      expect(retries).toBe(1);
    });
  });

  describe('HTTP errors', () => {
    it('delivers a JSON-RPC error body that answers the request as that error', async () => {
      const server = await startServer((req, res, body) => {
        if (basics(req, res, body)) return;
        json(res, 400, {
          jsonrpc: '2.0',
          id: body?.id,
          error: { code: -32602, message: 'Unknown tool: work' },
        });
      });
      const { client } = await connect(server.url);
      const failure = await callTool(client).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(McpError);
      expect(failure).toMatchObject({ code: -32602, message: 'Unknown tool: work' });
    });

    it('rejects other HTTP failures with the status in the message', async () => {
      const server = await startServer((req, res, body) => {
        if (basics(req, res, body)) return;
        res.writeHead(500, { 'content-type': 'text/html' }).end('<html>stack trace here</html>');
      });
      const { client } = await connect(server.url);
      const failure = await callTool(client).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpTransportError);
      expect((failure as Error).message).toMatch(
        /POST http:\/\/127\.0\.0\.1:\d+\/mcp \(tools\/call\) failed: HTTP 500/,
      );
      expect((failure as Error).message).not.toContain('stack trace');
    });

    it('rejects connect when the initialize POST cannot reach the server', async () => {
      const server = await startServer(() => {});
      const url = server.url;
      await cleanups.pop()!(); // the port is closed now
      const client = new Client({ name: 'offline', version: '1.0.0' });
      const failure = await client
        .connect(new http.StreamableHttpClientTransport(url))
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpTransportError);
      expect((failure as Error).message).toMatch(/POST .* failed: (fetch failed|connect ECONNREFUSED)/);
    });

    it('refuses redirects to another origin', async () => {
      const other = await startServer((_req, res) => {
        res.writeHead(500).end();
      });
      const server = await startServer((_req, res) => {
        res.writeHead(307, { location: `${other.url}` }).end();
      });
      await expect(connect(server.url)).rejects.toThrow(/another origin/);
      expect(other.seen).toHaveLength(0);
    });
  });

  describe('fallback to the legacy HTTP+SSE transport', () => {
    /** A legacy server on /mcp: GET opens the stream, POST /messages takes messages. */
    async function startLegacy(postStatus: number, endpoint = '/messages?session=1') {
      let stream: ServerResponse | undefined;
      const server = await startServer((req, res, body) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (req.method === 'GET' && path === '/mcp') {
          openSse(res);
          res.write(`event: endpoint\ndata: ${endpoint}\n\n`);
          stream = res;
          return;
        }
        if (req.method === 'POST' && path === '/messages') {
          res.writeHead(202).end('Accepted');
          if (body?.method === 'initialize') {
            const answer = result(body.id, {
              protocolVersion: '2024-11-05',
              capabilities: { tools: {} },
              serverInfo: { name: 'legacy', version: '0.1.0' },
            });
            stream?.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
          } else if (body?.method === 'tools/call') {
            stream?.write(
              `event: message\ndata: ${JSON.stringify(result(body.id, toolResult('old but gold')))}\n\n`,
            );
          }
          return;
        }
        res.writeHead(postStatus).end();
      });
      return server;
    }

    it.each([400, 404, 405])('falls back when the initialize POST is answered %i', async (status) => {
      const server = await startLegacy(status);
      const client = new Client({ name: 'fallback', version: '1.0.0' });
      cleanups.push(() => client.close());
      const transport = await http.connectHttp(client, server.url);
      expect(transport.kind).toBe('sse');
      expect(client.protocolVersion).toBe('2024-11-05');
      await expect(callTool(client)).resolves.toEqual(toolResult('old but gold'));
    });

    it.each([401, 403, 500])('does not fall back on %i', async (status) => {
      const server = await startLegacy(status);
      const client = new Client({ name: 'fallback', version: '1.0.0' });
      const failure = await http.connectHttp(client, server.url).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpTransportError);
      expect((failure as HttpTransportError).status).toBe(status);
      expect(server.gets()).toHaveLength(0);
    });

    it('refuses an endpoint on another origin', async () => {
      const server = await startLegacy(405, 'http://evil.example/messages');
      const client = new Client({ name: 'fallback', version: '1.0.0' });
      const transport = new http.HttpClientTransport(server.url);
      await expect(client.connect(transport)).rejects.toThrow(/another origin \(http:\/\/evil\.example\)/);
    });
  });
});
