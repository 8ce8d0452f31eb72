/**
 * The 2026-07-28 HTTP rules on one McpServer: headers agree with the body or 400 + -32020, an
 * unknown version 400 + -32022, a malformed envelope 400 + -32602, unknown or removed methods
 * 404 + -32601, GET/DELETE 405, a missing client capability 400 + -32021, logs only at a
 * requested level, and subscriptions/listen streams without a session.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, promptSupport, resourceSupport, text } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODERN, modernHeaders, modernRequest, postModern } from './support/modernWire.js';

let served: ServedHandler;
let url: string;
let server: McpServer;

beforeEach(async () => {
  server = new McpServer(
    { name: 'http-2026', version: '1.0.0' },
    { resources: resourceSupport, prompts: promptSupport },
  );
  server.tool(
    'query',
    {
      description: 'Runs a query in a region',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          limits: { type: 'object', properties: { rows: { type: 'integer', 'x-mcp-header': 'Rows' } } },
          query: { type: 'string' },
        },
        required: ['region', 'query'],
      },
    },
    (args) => text(`${String(args.query)} @ ${String(args.region)}`),
  );
  server.tool('chatty', { description: 'Logs, then answers' }, (_args, ctx) => {
    ctx.log.debug('a debug line');
    ctx.log.warning('a warning');
    return 'done';
  });
  server.tool('ask', { description: 'Needs sampling' }, async (_args, ctx) => {
    await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return 'asked';
  });
  server.resource('test://a', { mimeType: 'text/plain' }, () => 'A');
  served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
  url = served.url;
});

afterEach(async () => {
  await served.close();
});

const call = (id: number, name: string, args: Record<string, unknown>, meta = {}) =>
  modernRequest(id, 'tools/call', { name, arguments: args }, meta);

describe('2026-07-28 over HTTP: header rules', () => {
  it('serves a call whose headers agree, Mcp-Param values included (Base64 decoded)', async () => {
    const ok = await postModern(url, call(1, 'query', { region: 'us-west1', query: 'q' }), {
      'mcp-param-region': 'us-west1',
    });
    expect(ok.status).toBe(200);
    expect(ok.body?.result.content[0].text).toBe('q @ us-west1');
    const encoded = `=?base64?${Buffer.from('Zürich').toString('base64')}?=`;
    const utf8 = await postModern(url, call(2, 'query', { region: 'Zürich', query: 'q' }), {
      'mcp-param-region': encoded,
    });
    expect(utf8.status).toBe(200);
    // A nested property reached through `properties` only, compared as an integer.
    const nested = await postModern(
      url,
      call(3, 'query', { region: 'eu', query: 'q', limits: { rows: 42 } }),
      {
        'mcp-param-region': 'eu',
        'mcp-param-rows': '42.0',
      },
    );
    expect(nested.status).toBe(200);
  });

  it.each([
    ['MCP-Protocol-Version missing', { 'mcp-protocol-version': null }],
    ['Mcp-Method missing', { 'mcp-method': null }],
    ['Mcp-Method differs', { 'mcp-method': 'tools/list' }],
    ['Mcp-Name missing', { 'mcp-name': null }],
    ['Mcp-Name differs', { 'mcp-name': 'other' }],
    ['Mcp-Param-Region missing', {}],
    ['Mcp-Param-Region differs', { 'mcp-param-region': 'eu-west1' }],
    ['Mcp-Param-Region bad Base64 padding', { 'mcp-param-region': '=?base64?dXMtd2VzdDE?=' }],
    ['Mcp-Param-Region bad Base64 alphabet', { 'mcp-param-region': '=?base64?dXMt!!!d2VzdDE=?=' }],
    ['Mcp-Param-Rows for an absent value', { 'mcp-param-region': 'us-west1', 'mcp-param-rows': '1' }],
  ])('%s: 400 + -32020, and the tool does not run', async (_case, headers) => {
    const answer = await postModern(url, call(7, 'query', { region: 'us-west1', query: 'q' }), headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ id: 7, error: { code: -32020 } });
  });

  it('treats a value without the full Base64 wrapper as literal', async () => {
    const literal = '=?base64?SGVsbG8=';
    const answer = await postModern(url, call(8, 'query', { region: literal, query: 'q' }), {
      'mcp-param-region': literal,
    });
    expect(answer.status).toBe(200);
  });

  it('400 + -32020 when the header version differs from the envelope, even an unknown one', async () => {
    const message = modernRequest(
      9,
      'tools/list',
      {},
      { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    );
    const answer = await postModern(url, message, { 'mcp-protocol-version': MODERN });
    expect(answer.status).toBe(400);
    expect(answer.body?.error.code).toBe(-32020);
  });

  it('400 + -32022 with the supported list for an unsupported version', async () => {
    const message = modernRequest(
      10,
      'tools/list',
      {},
      { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    );
    const answer = await postModern(url, message);
    expect(answer.status).toBe(400);
    expect(answer.body?.error).toMatchObject({
      code: -32022,
      data: { requested: '2099-01-01', supported: [MODERN] },
    });
  });

  it('400 + -32602 for a malformed envelope', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 11,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
    };
    const answer = await postModern(url, message);
    expect(answer.status).toBe(400);
    expect(answer.body?.error.code).toBe(-32602);
  });

  it('404 + -32601 for a removed or unknown method; 405 for GET and DELETE', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'no/such']) {
      const answer = await postModern(url, modernRequest(12, method));
      expect(answer.status, method).toBe(404);
      expect(answer.body?.error.code, method).toBe(-32601);
    }
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, {
        method,
        headers: { 'mcp-protocol-version': MODERN, accept: 'text/event-stream' },
      });
      await response.arrayBuffer();
      expect(response.status, method).toBe(405);
    }
  });
});

describe('2026-07-28 over HTTP: what handlers see', () => {
  it('a missing client capability is 400 + -32021 with the capability as ClientCapabilities', async () => {
    const answer = await postModern(url, call(20, 'ask', {}));
    expect(answer.status).toBe(400);
    expect(answer.body?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it('sends no log without a requested level, and logs at or above a requested one', async () => {
    const quiet = call(21, 'chatty', {});
    const silent = await fetch(url, {
      method: 'POST',
      headers: modernHeaders(quiet),
      body: JSON.stringify(quiet),
    });
    expect(await silent.text()).not.toContain('notifications/message');
    const message = call(22, 'chatty', {}, { 'io.modelcontextprotocol/logLevel': 'warning' });
    const loud = await fetch(url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
    });
    const body = await loud.text();
    expect(body).toContain('a warning');
    expect(body).not.toContain('a debug line');
  });

  it('an unknown resource is -32602 under 2026-07-28', async () => {
    const answer = await postModern(url, modernRequest(23, 'resources/read', { uri: 'test://none' }));
    expect(answer.body?.error.code).toBe(-32602);
  });
});

describe('2026-07-28 over HTTP: subscriptions/listen', () => {
  it('acknowledges first, then delivers only what the filter asked for, tagged with the subscription id', async () => {
    const listen = modernRequest('sub-1', 'subscriptions/listen', {
      notifications: { toolsListChanged: true, promptsListChanged: true },
    });
    const controller = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      headers: modernHeaders(listen),
      body: JSON.stringify(listen),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const frames: any[] = [];
    let buffered = '';
    const next = async () => {
      while (true) {
        const line = buffered.split('\n').find((l) => l.startsWith('data:'));
        if (line) {
          const end = buffered.indexOf(line) + line.length;
          buffered = buffered.slice(end + 1);
          const frame = JSON.parse(line.slice(5));
          frames.push(frame);
          return frame;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffered += decoder.decode(value, { stream: true });
      }
    };
    const ack = await next();
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
      },
    });
    // The server has no prompts that can change, so promptsListChanged is not honored.
    expect(ack.params.notifications.promptsListChanged).toBeUndefined();
    server.resource('test://b', { mimeType: 'text/plain' }, () => 'B'); // resources: not asked for
    server.tool('late', { description: 'Registered while listening' }, () => 'late');
    const changed = await next();
    expect(changed).toMatchObject({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    expect(frames.some((frame) => frame.method === 'notifications/resources/list_changed')).toBe(false);
    controller.abort();
  });
});

describe('2026-07-28 and 2025 envelopes side by side', () => {
  it('a POST without the envelope and without a session is still the 2025 path', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(400); // 2025 stateful mode: the session id is required
  });
});

describe('2026-07-28 over HTTP: cancellation', () => {
  it('closing an SSE answer stream cancels its request, though the endpoint keeps events for 2025 resumption', async () => {
    // The stream has event ids (the default event store), but a 2026 request has no session to
    // resume it with: the lost stream is the cancellation (streamable-http.mdx, "Cancellation").
    const waiting = new McpServer({ name: 'cancel-2026', version: '1.0.0' });
    let aborted = false;
    waiting.tool('wait', {}, async (_args, ctx) => {
      await ctx.progress(1, 2, 'started');
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      aborted = true;
      return 'stopped';
    });
    const endpoint = await serve(createStreamableHttpHandler(waiting), { path: '/mcp' });
    const client = new McpClient({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHttpClientTransport(endpoint.url));
      expect(client.era).toBe('2026');
      const controller = new AbortController();
      const started = new Promise<void>((resolve) => {
        client
          .callTool('wait', {}, { signal: controller.signal, onProgress: () => resolve() })
          .catch(() => {});
      });
      await started;
      controller.abort(new Error('the user pressed Ctrl-C'));
      await expect.poll(() => aborted).toBe(true);
    } finally {
      await client.close();
      await endpoint.close();
    }
  });
});

describe('2026-07-28 over HTTP: other endpoint modes', () => {
  it('a 2026 request with an Mcp-Session-Id is still checked and served statelessly (the id is ignored)', async () => {
    const message = call(30, 'query', { region: 'us-west1', query: 'q' });
    const missingParam = await postModern(url, message, { 'mcp-session-id': 'whatever' });
    expect(missingParam.status).toBe(400);
    expect(missingParam.body?.error.code).toBe(-32020);
    const ok = await postModern(url, message, {
      'mcp-session-id': 'whatever',
      'mcp-param-region': 'us-west1',
    });
    expect(ok.status).toBe(200);
    expect(ok.response.headers.get('mcp-session-id')).toBeNull();
  });

  it('a stateless endpoint serves 2026 requests by the same rules', async () => {
    const stateless = await serve(createStreamableHttpHandler(server, { stateless: true }), { path: '/mcp' });
    try {
      const ok = await postModern(stateless.url, modernRequest(31, 'tools/list'));
      expect(ok.status).toBe(200);
      expect(ok.body?.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      const removed = await postModern(stateless.url, modernRequest(32, 'ping'));
      expect(removed.status).toBe(404);
      const mismatch = await postModern(stateless.url, modernRequest(33, 'tools/list'), {
        'mcp-method': 'tools/call',
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body?.error.code).toBe(-32020);
    } finally {
      await stateless.close();
    }
  });
});

describe('x-mcp-header annotations are checked when a tool is registered', () => {
  const register =
    (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    () =>
      new McpServer({ name: 'x', version: '1' }).tool(
        't',
        { description: 'd', inputSchema: { type: 'object', properties, ...extra } },
        () => 'ok',
      );

  it('accepts tokens on string, integer and boolean parameters reached through properties', () => {
    expect(
      register({
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'object', properties: { c: { type: 'integer', 'x-mcp-header': 'Rows.Max' } } },
        'x-mcp-header': { type: 'boolean' }, // a parameter of that name is no annotation
      }),
    ).not.toThrow();
  });

  it.each([
    ['an empty value', { a: { type: 'string', 'x-mcp-header': '' } }, {}],
    ['a value with a space', { a: { type: 'string', 'x-mcp-header': 'My Region' } }, {}],
    ['a number parameter', { a: { type: 'number', 'x-mcp-header': 'N' } }, {}],
    [
      'the same name twice, other case',
      { a: { type: 'string', 'x-mcp-header': 'R' }, b: { type: 'string', 'x-mcp-header': 'r' } },
      {},
    ],
    [
      'an annotation under items',
      { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } },
      {},
    ],
    [
      'an annotation under anyOf',
      {},
      { anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
    ],
  ])('refuses %s', (_case, properties, extra) => {
    expect(register(properties, extra)).toThrow(/x-mcp-header/);
  });
});
