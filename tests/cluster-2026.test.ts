/**
 * Revision 2026-07-28 clients (the client's default era) through the cluster: three nodes behind
 * nginx round-robin with Redis. A 2026 request has no session, so any node answers it whole; the
 * answer stream must not depend on another node.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { ProgressUpdate } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { useCluster } from './support/cluster.js';

const cluster = useCluster({ durable: true });

describe('2026-07-28 through three nodes behind nginx', () => {
  it('answers calls, with progress over SSE and a question to the client, on any node', async () => {
    const client = new McpClient(
      { name: 'cluster-2026', version: '1.0.0' },
      {
        sampling: async () => ({
          role: 'assistant',
          content: { type: 'text', text: 'A short summary.' },
          model: 'test-model',
        }),
      },
    );
    await client.connect(new StreamableHttpClientTransport(cluster.balancer.url));
    expect(client.era).toBe('2026');
    for (let i = 0; i < 3; i++) {
      const echoed = await client.callTool('echo', { text: `call ${i}` });
      expect(JSON.stringify(echoed.content)).toContain(`call ${i}`);
    }
    const progress: ProgressUpdate[] = [];
    const counted = await client.callTool(
      'slow_count',
      { steps: 4, delayMs: 20 },
      { onProgress: (update) => progress.push(update) },
    );
    expect(counted.isError).not.toBe(true);
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
    const summary = await client.callTool('summarize', { text: 'Redis keeps the sessions.' });
    expect(JSON.stringify(summary.content)).toContain('A short summary.');
    await client.close();
  });
});
