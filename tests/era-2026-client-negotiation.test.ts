/**
 * How McpClient finds a server's era (2026-07-28 basic/versioning.mdx "Backward Compatibility")
 * and follows input-required rounds (basic/patterns/mrtr.mdx), against real peers:
 *
 * - the official v1.32 SDK server (2025-11-25 only) over stdio: the probe is refused, the client
 *   falls back to `initialize`; pinned to 2026 it fails with a clear error;
 * - scripted servers on a raw mcpkit `Connection` for what no released server does on demand: one
 *   that never answers before `initialize`, modern ones answering the probe with `-32022`, and
 *   one that keeps asking for input.
 */
import { createServer } from 'node:http';
import { Client, McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type IncomingRequest, LocalError, McpError, UnsupportedProtocolVersionError } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from './support/cleanups.js';
import { listen } from './support/listen.js';
import { scriptedPeer } from './support/scriptedPeer.js';
import { fixtureCommand } from './support/tsFixture.js';

const INFO = { name: 'negotiation-test', version: '1.0.0' };
const cleanups = cleanupsAfterEach();

function sdkV1Stdio(): StdioClientTransport {
  return new StdioClientTransport(fixtureCommand('sdk-server.ts'));
}

/** A server on a raw connection: `answer` gets every request, its return value is the result. */
const scripted = (answer: (request: IncomingRequest) => unknown) => scriptedPeer(answer, cleanups);

const INITIALIZE_RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'legacy', version: '1' },
};
const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern', version: '1' } },
};

describe('a 2025-only server (official SDK v1.32, stdio)', () => {
  it('refuses the probe, so the client initializes and speaks 2025-11-25', async () => {
    const client = new McpClient(INFO, { protocolEra: 'auto' });
    cleanups.push(() => client.close());
    await client.connect(sdkV1Stdio());
    expect(client.era).toBe('2025');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.tools()).length).toBeGreaterThan(0);
  });

  it('fails clearly when the client is pinned to 2026', async () => {
    const client = new McpClient(INFO, { protocolEra: '2026' });
    const failure = await client.connect(sdkV1Stdio()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LocalError);
    expect((failure as Error).message).toMatch(
      /does not speak 2026-07-28, which protocolEra "2026" requires/,
    );
  });
});

describe('era probe outcomes', () => {
  it('a legacy server that never answers before initialize: the probe times out, the client initializes', async () => {
    const { transport, seen } = await scripted((request) =>
      request.method === 'initialize' ? INITIALIZE_RESULT : new Promise(() => {}),
    );
    const client = new Client(INFO, { protocolEra: 'auto', eraProbeTimeout: 200 });
    await client.connect(transport);
    expect(client.era).toBe('2025');
    expect(seen.map((request) => request.method)).toEqual(['server/discover', 'initialize']);
  });

  it('a modern server answering -32022 that names a 2025 revision we share: initialize, no retry of the probe', async () => {
    const { transport, seen } = await scripted((request) => {
      if (request.method === 'initialize') return INITIALIZE_RESULT;
      throw new McpError(-32022, 'Unsupported protocol version', {
        supported: ['2025-11-25'],
        requested: '2026-07-28',
      });
    });
    const client = new Client(INFO, { protocolEra: 'auto' });
    await client.connect(transport);
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(seen.map((request) => request.method)).toEqual(['server/discover', 'initialize']);
  });

  it('a modern server sharing no revision: UnsupportedProtocolVersionError, never initialize', async () => {
    const { transport, seen } = await scripted(() => {
      throw new McpError(-32022, 'Unsupported protocol version', { supported: ['2099-01-01'] });
    });
    const failure = await new Client(INFO, { protocolEra: 'auto' })
      .connect(transport)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(seen.map((request) => request.method)).toEqual(['server/discover']);
  });

  // The alpha suite's request-metadata mock answers the first request with -32022 although it named
  // 2026-07-28, which the error's own `supported` list holds. The spec's server MUST answer -32022
  // only for a version it does not implement; the client tolerates the contradiction by retrying
  // once with the listed version, and no more.
  it('alpha contradiction: -32022 listing the version just asked for is retried once, not forever', async () => {
    let refusals = 0;
    const { transport, seen } = await scripted(() => {
      refusals++;
      throw new McpError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'] });
    });
    const failure = await new Client(INFO, { protocolEra: 'auto' })
      .connect(transport)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(refusals).toBe(2);
    expect(seen.map((request) => request.meta?.['io.modelcontextprotocol/protocolVersion'])).toEqual([
      '2026-07-28',
      '2026-07-28',
    ]);
  });

  // Suite 0.1.16's initialize and sse-retry mocks answer any request, server/discover included,
  // with a result: only a DiscoverResult (supportedVersions naming a modern revision) is modern.
  it('a legacy server answering server/discover with something else is still a legacy server', async () => {
    const { transport, seen } = await scripted(() => INITIALIZE_RESULT);
    const client = new Client(INFO, { protocolEra: 'auto' });
    await client.connect(transport);
    expect(client.era).toBe('2025');
    expect(seen.map((request) => request.method)).toEqual(['server/discover', 'initialize']);
  });

  it('protocolEra 2025 sends no probe at all', async () => {
    const { transport, seen } = await scripted(() => INITIALIZE_RESULT);
    const client = new Client(INFO, { protocolEra: '2025' });
    await client.connect(transport);
    expect(seen.map((request) => request.method)).toEqual(['initialize']);
  });
});

describe('a modern server', () => {
  it('gets the envelope on every request, no initialize, and 2026-removed methods are refused locally', async () => {
    const { transport, seen } = await scripted((request) =>
      request.method === 'server/discover' ? DISCOVER_RESULT : { resultType: 'complete', tools: [] },
    );
    const client = new McpClient(INFO, { protocolEra: 'auto', capabilities: { experimental: { x: {} } } });
    const result = await client.connect(transport);
    expect(result.serverInfo).toEqual({ name: 'modern', version: '1' });
    expect(client.era).toBe('2026');
    await client.setLoggingLevel('debug');
    await client.listTools();
    await client.ping(); // server/discover stands in for the removed ping
    await expect(client.request('resources/subscribe', { uri: 'test://x' })).rejects.toThrow(
      /"resources\/subscribe" does not exist in protocol revision 2026-07-28: subscriptions\/listen/,
    );
    await client.subscribeResource('test://x'); // which the listen stream's filter carries
    expect(seen.map((request) => request.method)).toEqual([
      'server/discover',
      'tools/list',
      'server/discover',
      'subscriptions/listen',
    ]);
    expect(seen[3]?.params?.notifications).toEqual({
      toolsListChanged: false,
      promptsListChanged: false,
      resourcesListChanged: false,
      resourceSubscriptions: ['test://x'],
    });
    expect(seen[1]?.params?._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      // The tasks extension is declared on every request: the client follows any task (SEP-2663).
      'io.modelcontextprotocol/clientCapabilities': {
        experimental: { x: {} },
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
      'io.modelcontextprotocol/clientInfo': INFO,
      'io.modelcontextprotocol/logLevel': 'debug',
      progressToken: expect.any(Number), // the engine's own, kept beside the envelope
    });
    await client.close();
  });

  it('follows input-required rounds: new ids, requestState echoed byte for byte, only this round’s answers', async () => {
    const state = ' opaque state: {"not":"json"} \u00e9 ';
    const { transport, seen } = await scripted((request) => {
      if (request.method === 'server/discover') return DISCOVER_RESULT;
      const round = seen.filter((r) => r.method === 'tools/call').length;
      if (round === 1) {
        return {
          resultType: 'input_required',
          inputRequests: {
            who: {
              method: 'elicitation/create',
              params: {
                message: 'Name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' } } },
              },
            },
          },
          requestState: state,
        };
      }
      if (round === 2) {
        return {
          resultType: 'input_required',
          inputRequests: { where: { method: 'roots/list' } },
        };
      }
      return { content: [{ type: 'text', text: 'done' }] }; // no resultType: complete
    });
    const client = new McpClient(INFO, {
      protocolEra: 'auto',
      elicitation: { form: () => ({ action: 'accept', content: {} }) },
      roots: [{ uri: 'file:///here' }],
    });
    await client.connect(transport);
    const result = await client.callTool('ask', { x: 1 });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    const calls = seen.filter((request) => request.method === 'tools/call');
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(calls.map((call) => call.params?.name)).toEqual(['ask', 'ask', 'ask']);
    expect(calls[0]?.params).not.toHaveProperty('inputResponses');
    expect(calls[1]?.params?.requestState).toBe(state);
    // The form's schema default filled in (SEP-1034), as in the 2025 era.
    expect(calls[1]?.params?.inputResponses).toEqual({ who: { action: 'accept', content: { name: 'Ada' } } });
    expect(calls[2]?.params).not.toHaveProperty('requestState');
    expect(calls[2]?.params?.inputResponses).toEqual({ where: { roots: [{ uri: 'file:///here' }] } });
    await client.close();
  });

  it('stops a server that keeps asking after maxInputRounds, and refuses input it has no handler for', async () => {
    const { transport } = await scripted((request) => {
      if (request.method === 'server/discover') return DISCOVER_RESULT;
      if (request.params?.name === 'sample') {
        return {
          resultType: 'input_required',
          inputRequests: { s: { method: 'sampling/createMessage', params: {} } },
        };
      }
      return { resultType: 'input_required', requestState: 'again' };
    });
    const client = new McpClient(INFO, { protocolEra: 'auto', maxInputRounds: 3 });
    await client.connect(transport);
    await expect(client.callTool('loop')).rejects.toThrow(/still asked for input after 3 rounds/);
    await expect(client.callTool('sample')).rejects.toThrow(
      /"sampling\/createMessage" input, which this client has no handler for/,
    );
    await client.close();
  });
});

describe('a modern HTTP server that checks Mcp-Param headers', () => {
  it('HeaderMismatch on a call to a tool not listed yet: the client lists tools, then retries with the header', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const message = JSON.parse(body) as { id: number; method: string; params: Record<string, any> };
        seen.push(message.method);
        const reply = (status: number, payload: Record<string, unknown>) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...payload }));
        };
        if (message.method === 'server/discover') return reply(200, { result: DISCOVER_RESULT });
        if (message.method === 'tools/list') {
          const region = { type: 'string', 'x-mcp-header': 'Region' };
          const tools = [{ name: 'geo', inputSchema: { type: 'object', properties: { region } } }];
          return reply(200, {
            result: { resultType: 'complete', ttlMs: 60_000, cacheScope: 'public', tools },
          });
        }
        if (request.headers['mcp-param-region'] !== message.params.arguments.region) {
          return reply(400, { error: { code: -32020, message: 'Header mismatch: Mcp-Param-Region' } });
        }
        return reply(200, { result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } });
      });
    });
    const { origin, close } = await listen(server);
    cleanups.push(close);
    const client = new McpClient(INFO, { protocolEra: 'auto' });
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpClientTransport(`${origin}/mcp`));
    const result = await client.callTool('geo', { region: 'eu-west' });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(seen).toEqual(['server/discover', 'tools/call', 'tools/list', 'tools/call']);
  });
});
