import { describe, expect, it } from 'vitest';
import { Server } from '../server.js';
import { createLegacySseHandler } from './legacySse.js';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from './streamable.js';

const PAGE = 'http://127.0.0.1:5173';

function handlerWith(options: StreamableHttpHandlerOptions) {
  const server = new Server({ name: 'cors', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  return createStreamableHttpHandler(server, options);
}

function preflight(origin: string, method = 'POST'): Request {
  return new Request('http://127.0.0.1:3000/mcp', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type, mcp-session-id',
    },
  });
}

function initialize(origin: string): Request {
  return new Request('http://127.0.0.1:3000/mcp', {
    method: 'POST',
    headers: { origin, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
    }),
  });
}

function corsHeaders(response: Response): Record<string, string> {
  const seen: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name.startsWith('access-control-') || name === 'vary') seen[name] = value;
  });
  return seen;
}

describe('CORS off (the default)', () => {
  it('answers OPTIONS 405 and adds no Access-Control header, even for a loopback page', async () => {
    const handler = handlerWith({ enableJsonResponse: true });
    const answer = await handler(preflight(PAGE));
    expect(answer.status).toBe(405);
    expect(corsHeaders(answer)).toEqual({});
    const response = await handler(initialize(PAGE));
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});
    await handler.close();
  });
});

describe('CORS on', () => {
  const options: StreamableHttpHandlerOptions = {
    enableJsonResponse: true,
    cors: { allowedOrigins: [PAGE] },
  };

  it('answers a preflight from an allowed origin with the MCP methods and request headers', async () => {
    const handler = handlerWith(options);
    const answer = await handler(preflight(PAGE));
    expect(answer.status).toBe(204);
    expect(corsHeaders(answer)).toEqual({
      'access-control-allow-origin': PAGE,
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers':
        'mcp-session-id, mcp-protocol-version, last-event-id, authorization, content-type, accept, mcp-method, mcp-name',
      'access-control-max-age': '600',
      vary: 'origin, access-control-request-headers',
    });
    await handler.close();
  });

  it('2026-07-28 preflight (issue 35): allows Mcp-Method and Mcp-Name and echoes the well-formed Mcp-Param-* names asked for', async () => {
    const handler = handlerWith(options);
    const asked = new Request('http://127.0.0.1:3000/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'content-type,mcp-method,mcp-name,mcp-param-region,Mcp-Param-Dry_Run,mcp-param-region,mcp-param-bad name,x-other,mcp-param-',
      },
    });
    const answer = await handler(asked);
    expect(answer.status).toBe(204);
    const allowed = (answer.headers.get('access-control-allow-headers') ?? '').split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['mcp-method', 'mcp-name', 'content-type']));
    expect(allowed.filter((name) => name.startsWith('mcp-param-'))).toEqual([
      'mcp-param-region',
      'mcp-param-dry_run',
    ]);
    expect(allowed).not.toContain('x-other');
    // A flood of names is capped, not echoed whole.
    const many = Array.from({ length: 100 }, (_, i) => `mcp-param-p${i}`).join(', ');
    const flood = await handler(
      new Request('http://127.0.0.1:3000/mcp', {
        method: 'OPTIONS',
        headers: {
          origin: PAGE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': many,
        },
      }),
    );
    const echoed = (flood.headers.get('access-control-allow-headers') ?? '').split(', ');
    expect(echoed.filter((name) => name.startsWith('mcp-param-'))).toHaveLength(32);
    await handler.close();
  });

  it('lets the page read the session id and protocol version of an answer', async () => {
    const handler = handlerWith(options);
    const response = await handler(initialize(PAGE));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    expect(corsHeaders(response)).toEqual({
      'access-control-allow-origin': PAGE,
      'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
      vary: 'origin',
    });
    await handler.close();
  });

  it('grants nothing to a loopback origin that is not listed, and still refuses a foreign one', async () => {
    const handler = handlerWith(options);
    const other = await handler(preflight('http://127.0.0.1:9999'));
    expect(other.status).toBe(204);
    expect(corsHeaders(other)).toEqual({ vary: 'origin, access-control-request-headers' });
    const unlisted = await handler(initialize('http://localhost:9999'));
    expect(unlisted.status).toBe(200);
    expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
    // DNS rebinding protection is unchanged: a foreign Origin is refused before CORS is consulted.
    expect((await handler(preflight('https://evil.example'))).status).toBe(403);
    const refused = await handler(initialize('https://evil.example'));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    await handler.close();
  });

  it('refuses to start with an origin the Origin check would refuse, or one that is not an origin', () => {
    expect(() => handlerWith({ cors: { allowedOrigins: ['https://app.example.com'] } })).toThrow(
      /refused by the Origin check; add it to allowedOrigins/,
    );
    const listed = handlerWith({
      allowedOrigins: ['https://app.example.com'],
      cors: { allowedOrigins: ['https://app.example.com'] },
    });
    void listed.close();
    expect(() => handlerWith({ cors: { allowedOrigins: ['*'] } })).toThrow(/is not an origin/);
    expect(() => handlerWith({ cors: { allowedOrigins: [`${PAGE}/app`] } })).toThrow(/no path/);
    expect(() => handlerWith({ cors: { allowedOrigins: [PAGE], maxAge: -1 } })).toThrow(/maxAge/);
  });

  it('covers the legacy SSE handler too', async () => {
    const server = new Server({ name: 'cors', version: '1' });
    const legacy = createLegacySseHandler(server, { cors: { allowedOrigins: [PAGE], maxAge: 60 } });
    const answer = await legacy(preflight(PAGE, 'GET'));
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(answer.headers.get('access-control-max-age')).toBe('60');
    await legacy.close();
  });
});
