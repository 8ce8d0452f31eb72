/**
 * Issue 30: one POST enters `http/streamable.ts` at most twice. How it is counted: every function
 * of the endpoint (its prototype methods and the closures it holds as properties) is wrapped on
 * one instance, and a call counts as an entry when the frame that made it is not in
 * `streamable.ts` (a call from another module, or from the event loop). Calls inside the file, and
 * an async method resuming after an `await`, are not entries. The test itself calling `handle`
 * is the first entry.
 */
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { RawHttpRequest } from '../packages/server/src/http/rawHttp.js';
import { StreamableHttpEndpoint } from '../packages/server/src/http/streamable.js';
import { envelope, MODERN } from './support/modernWire.js';
import { rawPost } from './support/rawPost.js';

const FILE = 'http/streamable.ts';
const _URL_ = 'http://127.0.0.1:3000/mcp';

interface Counted {
  endpoint: StreamableHttpEndpoint;
  entries: string[];
}

/** An endpoint whose every function records the calls that come from outside its file. */
function countedEndpoint(stateless: boolean): Counted {
  const server = new McpServer({ name: 'entries', version: '1.0.0' });
  server.tool('echo', { description: 'Echoes' }, () => 'hi');
  const endpoint = new StreamableHttpEndpoint(server, { stateless, enableJsonResponse: true });
  const entries: string[] = [];
  const target = endpoint as unknown as Record<string, unknown>;
  const names = new Set<string>();
  for (const name of Object.getOwnPropertyNames(StreamableHttpEndpoint.prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(StreamableHttpEndpoint.prototype, name)!;
    if (name !== 'constructor' && typeof descriptor.value === 'function') names.add(name);
  }
  for (const name of Object.keys(target)) if (typeof target[name] === 'function') names.add(name);
  for (const name of names) {
    const fn = target[name] as (...args: unknown[]) => unknown;
    target[name] = function (this: unknown, ...args: unknown[]) {
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (!caller.includes(FILE)) entries.push(name);
      return fn.apply(this, args);
    };
  }
  return { endpoint, entries };
}

const post = rawPost;

const call = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: {} },
});

let open: StreamableHttpEndpoint | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** The entries of the last POST, after its answer and every job it queued. */
async function entriesOf(counted: Counted, request: RawHttpRequest): Promise<string[]> {
  counted.entries.length = 0;
  const reply = await counted.endpoint.handle(request, undefined);
  expect(reply.status).toBe(200);
  expect(String(reply.body)).toContain('"result"');
  await new Promise((resolve) => setTimeout(resolve, 5));
  return [...counted.entries];
}

describe('Streamable HTTP: one POST enters streamable.ts at most twice (issue 30)', () => {
  it('a 2025 POST on a session', async () => {
    const counted = countedEndpoint(false);
    open = counted.endpoint;
    const init = await counted.endpoint.handle(
      post(
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'c', version: '1' },
          },
        },
        {},
      ),
      undefined,
    );
    const sessionId = init.headers['mcp-session-id']!;
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await counted.endpoint.handle(
      post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers),
      undefined,
    );
    const entries = await entriesOf(counted, post(call(1), headers));
    expect(entries.length, entries.join(', ')).toBeLessThanOrEqual(2);
  });

  it('a 2025 stateless POST', async () => {
    const counted = countedEndpoint(true);
    open = counted.endpoint;
    const entries = await entriesOf(counted, post(call(1), { 'mcp-protocol-version': '2025-11-25' }));
    expect(entries.length, entries.join(', ')).toBeLessThanOrEqual(2);
  });

  it('a 2026-07-28 POST', async () => {
    const counted = countedEndpoint(false);
    open = counted.endpoint;
    const body = { ...call(1), params: { ...call(1).params, _meta: envelope() } };
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
    const entries = await entriesOf(counted, post(body, headers));
    expect(entries.length, entries.join(', ')).toBeLessThanOrEqual(2);
  });
});
