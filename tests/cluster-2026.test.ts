/**
 * Revision 2026-07-28 clients (the client's default era) through the cluster: three nodes behind
 * nginx round-robin with Redis. A 2026 request has no session, so any node answers it whole; the
 * answer stream must not depend on another node.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { describe, expect, it } from 'vitest';
import { useCluster } from './support/cluster.js';
import { expectCountedProgress, SUMMARY, summarySampling } from './support/clusterClient.js';

const cluster = useCluster({ durable: true });

describe('2026-07-28 through three nodes behind nginx', () => {
  it('answers calls, with progress over SSE and a question to the client, on any node', async () => {
    const client = new McpClient({ name: 'cluster-2026', version: '1.0.0' }, { sampling: summarySampling });
    await client.connect(new StreamableHttpClientTransport(cluster.balancer.url));
    expect(client.era).toBe('2026');
    for (let i = 0; i < 3; i++) {
      const echoed = await client.callTool('echo', { text: `call ${i}` });
      expect(JSON.stringify(echoed.content)).toContain(`call ${i}`);
    }
    await expectCountedProgress(client);
    const summary = await client.callTool('summarize', { text: 'Redis keeps the sessions.' });
    expect(JSON.stringify(summary.content)).toContain(SUMMARY);
    await client.close();
  });
});
