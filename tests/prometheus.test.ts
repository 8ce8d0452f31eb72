/**
 * `@mcpkit/node/metrics`: the observer feeds prom-client, `serveMetrics` serves `/metrics` on a
 * loopback port, and a real Prometheus text parser reads back counts that match the calls made,
 * over stdio pipes (mcpkit client) and Streamable HTTP (the official SDK client).
 */
import { PassThrough } from 'node:stream';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { createPrometheusMetrics, type PrometheusMetrics, serveMetrics } from '@mcpkit/node/metrics';
import { StdioServerTransport } from '@mcpkit/node/stdio';
import { McpServer } from '@mcpkit/server';
import { createLegacySseHandler, createStreamableHttpHandler, InMemoryEventStore } from '@mcpkit/server/http';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Family, histogramBounds, histogramCount, sample, scrape } from './support/prometheusText.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function demoServer(metrics: PrometheusMetrics): McpServer {
  const server = new McpServer({ name: 'metered', version: '1.0.0' }, { observer: metrics.observer });
  server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) =>
    String(args.text),
  );
  server.tool('broken', () => ({ content: [{ type: 'text', text: 'no' }], isError: true }));
  return server;
}

async function metricsUrl(metrics: PrometheusMetrics): Promise<string> {
  const listener = await serveMetrics(metrics, { port: 0 });
  cleanups.push(() => listener.close());
  expect(listener.server.address()).toMatchObject({ address: '127.0.0.1' });
  return `http://127.0.0.1:${listener.port}/metrics`;
}

const value = (families: Family[], name: string, labels: Record<string, string>) =>
  Number(sample(families, name, labels)?.value);
const count = histogramCount;
/** How many messages went `direction`, by the message-size histogram. */
const messages = (families: Family[], direction: 'in' | 'out') =>
  count(families, 'mcpkit_message_size_bytes', { direction });

describe('Prometheus metrics', () => {
  it('counts calls over stdio pipes by method, tool and outcome, with sessions and message sizes', async () => {
    const metrics = createPrometheusMetrics();
    const server = demoServer(metrics);
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    server.connect(new StdioServerTransport({ stdin: toServer, stdout: toClient }));
    // '2025' here and below: the metrics under test count sessions and SSE streams with their stored
    // events, which a 2026-07-28 client (no session, no resumable streams) does not make.
    const client = new McpClient({ name: 'stdio-peer', version: '1.0.0' }, { protocolEra: '2025' });
    await client.connect(new StdioServerTransport({ stdin: toClient, stdout: toServer }));
    const url = await metricsUrl(metrics);

    for (let i = 0; i < 5; i++) await client.callTool('echo', { text: `call ${i}` });
    await client.callTool('broken', {});
    await client.callTool('broken', {});
    await expect(client.request('com.example/nothing', {})).rejects.toThrow(/not found/i);

    let families = await scrape(url);
    const echo = { mcp_method_name: 'tools/call', gen_ai_tool_name: 'echo', network_transport: 'pipe' };
    expect(count(families, 'mcp_server_operation_duration_seconds', echo)).toBe(5);
    expect(families.find((f) => f.name === 'mcp_server_operation_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(histogramBounds(families, 'mcp_server_operation_duration_seconds', echo)).toEqual([
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ]);
    expect(
      count(families, 'mcp_server_operation_duration_seconds', {
        gen_ai_tool_name: 'broken',
        error_type: 'tool_error',
      }),
    ).toBe(2);
    expect(
      count(families, 'mcp_server_operation_duration_seconds', {
        mcp_method_name: 'com.example/nothing',
        error_type: '-32601',
      }),
    ).toBe(1);
    expect(
      value(families, 'mcpkit_server_requests_total', { mcp_method_name: 'tools/call', outcome: 'ok' }),
    ).toBe(5);
    expect(
      value(families, 'mcpkit_server_requests_total', {
        mcp_method_name: 'tools/call',
        outcome: 'tool_error',
      }),
    ).toBe(2);
    expect(value(families, 'mcpkit_server_requests_in_flight', { mcp_method_name: 'tools/call' })).toBe(0);
    expect(value(families, 'mcpkit_server_sessions_open', { network_transport: 'pipe' })).toBe(1);
    // Requests answered: initialize, 7 calls (a plain call sends no tools/list first) and the
    // unknown method; the notifications/initialized line comes in unanswered.
    expect(messages(families, 'out')).toBe(9);
    expect(messages(families, 'in')).toBe(10);

    await client.close();
    toServer.end(); // what the client process exiting does to the server's stdin
    await expect
      .poll(async () =>
        value(await scrape(url), 'mcpkit_server_sessions_open', { network_transport: 'pipe' }),
      )
      .toBe(0);
    families = await scrape(url);
    expect(count(families, 'mcp_server_session_duration_seconds', { network_transport: 'pipe' })).toBe(1);
  });

  it('shows 10 official SDK calls over Streamable HTTP as a count of 10', async () => {
    const metrics = createPrometheusMetrics();
    const served = await serve(createStreamableHttpHandler(demoServer(metrics)), { path: '/mcp' });
    cleanups.push(() => served.close());
    const url = await metricsUrl(metrics);
    const sdk = new SdkClient({ name: 'sdk', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    cleanups.push(() => sdk.close());

    for (let i = 0; i < 10; i++) await sdk.callTool({ name: 'echo', arguments: { text: String(i) } });

    const families = await scrape(url);
    expect(count(families, 'mcp_server_operation_duration_seconds', { mcp_method_name: 'tools/call' })).toBe(
      10,
    );
    expect(
      count(families, 'mcp_server_operation_duration_seconds', {
        mcp_method_name: 'tools/call',
        network_transport: 'tcp',
        mcp_protocol_version: '2025-11-25',
      }),
    ).toBe(10);
    expect(value(families, 'mcpkit_server_sessions_open', { network_transport: 'tcp' })).toBe(1);
    // Streamable HTTP reports the responses it writes and the POST bodies it reads: initialize,
    // notifications/initialized and the 10 calls (the SDK client lists no tools first).
    expect(messages(families, 'out')).toBeGreaterThanOrEqual(10);
    expect(messages(families, 'in')).toBe(12);
  });

  it('reports open SSE streams and the event store size of watched handlers, read when scraped', async () => {
    const metrics = createPrometheusMetrics();
    const server = demoServer(metrics);
    let release: (() => void) | undefined;
    server.tool('wait', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 'released';
    });
    const url = await metricsUrl(metrics);
    // A handler with no event store (the legacy one): no store size to show, rather than a false 0.
    metrics.watch(createLegacySseHandler(server));
    expect(sample(await scrape(url), 'mcpkit_server_event_store_events', {})).toBeUndefined();
    const handler = createStreamableHttpHandler(server, { eventStore: new InMemoryEventStore() });
    const stopWatching = metrics.watch(handler);
    const served = await serve(handler, { path: '/mcp' });
    cleanups.push(() => served.close());
    const streams = async () => value(await scrape(url), 'mcpkit_server_sse_streams_open', {});
    const events = async () => value(await scrape(url), 'mcpkit_server_event_store_events', {});

    const client = new McpClient({ name: 'sse-peer', version: '1.0.0' }, { protocolEra: '2025' });
    await client.connect(new StreamableHttpClientTransport(served.url));
    cleanups.push(() => client.close());
    await client.callTool('echo', { text: 'first' });
    // The GET stream the client may hold open is one of the handler's streams as well.
    const idle = await streams();
    expect(idle).toBe(handler.streamCount);
    const before = await events();
    expect(before).toBeGreaterThan(0);

    // Each call answered over SSE stores two events: the priming position and the result.
    for (let i = 0; i < 3; i++) await client.callTool('echo', { text: String(i) });
    expect(await events()).toBe(before + 6);

    // A call still running holds its POST stream open.
    const pending = client.callTool('wait', {});
    await expect.poll(streams).toBe(idle + 1);
    release!();
    await expect(pending).resolves.toMatchObject({ content: [{ text: 'released' }] });
    await expect.poll(streams).toBe(idle);

    stopWatching();
    const families = await scrape(url);
    expect(value(families, 'mcpkit_server_sse_streams_open', {})).toBe(0);
    expect(value(families, 'mcpkit_server_event_store_events', {})).toBe(0);
  });

  it('answers 404 off /metrics', async () => {
    const url = await metricsUrl(createPrometheusMetrics());
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
  });
});
