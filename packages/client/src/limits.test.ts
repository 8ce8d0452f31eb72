import { Connection, createInMemoryPair, RequestTimeoutError } from '@mcpkit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT } from './limits.js';
import { McpClient } from './mcpClient.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the default total time of a call', () => {
  it('progress keeps a call alive for 10 minutes by default, not an hour', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const [clientSide, serverSide] = createInMemoryPair();
    // A server that reports rising progress every 30 s and never answers.
    const server = new Connection(serverSide, {
      onRequest: (request) => {
        if (request.method === 'initialize') {
          return {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 's', version: '1' },
          };
        }
        return new Promise(() => {
          let progress = 0;
          const tick = () => {
            void request.sendProgress({ progress: ++progress });
            setTimeout(tick, 30_000);
          };
          setTimeout(tick, 30_000);
        });
      },
      onNotification: () => {},
    });
    await server.start();
    // A 2025 server that never answers anything but initialize: no era probe to wait out.
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: '2025' });
    await client.connect(clientSide);
    const started = Date.now();
    const call = client
      .request('tools/call', { name: 'slow', arguments: {} })
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT + 60_000);
    const failure = await call;
    expect(failure).toBeInstanceOf(RequestTimeoutError);
    expect((failure as Error).message).toBe(
      'Request "tools/call" exceeded its maximum total time of 600000 ms',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT);
    await client.close();
    await server.close();
  });
});
