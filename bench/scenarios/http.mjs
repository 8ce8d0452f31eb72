/**
 * Streamable HTTP under load from a separate autocannon process, 1 and 50 connections, in three modes:
 * stateful with JSON responses, stateful with SSE responses, and stateless; and revision 2026-07-28
 * (`http-2026`: no session, every request with its `_meta` envelope and `Mcp-*` headers). Before
 * loading, the harness opens a session like a real client and sample-checks one call, so a broken
 * server cannot "win"; every loaded response is checked for the echoed text as well.
 * @module
 */

import {
  echoCallRequest,
  MODERN_ECHO_HEADERS,
  modernEchoCallRequest,
  PROBE_TEXT,
  PROTOCOL_VERSION,
} from '../lib/echo.mjs';
import { BASE_HEADERS, checkedEchoCall, openSession } from '../lib/mcp-http.mjs';
import { runWorker, startServer } from '../lib/proc.mjs';

const MB = 1024 * 1024;

/** The content type each mode must answer a POSTed request with (stateless may use either). */
const EXPECTED_CONTENT_TYPE = { json: 'application/json', sse: 'text/event-stream', stateless: undefined };

const MODE_TITLES = {
  json: 'Streamable HTTP, stateful, JSON responses',
  sse: 'Streamable HTTP, stateful, SSE responses',
  stateless: 'Streamable HTTP, stateless',
};

/**
 * The 1- and 50-connection rows of group `id`.
 * @param {string} id
 * @param {string} name
 */
function connectionRows(id, name) {
  return [1, 50].map((connections) => ({
    id: `${id}-${connections}`,
    label: `HTTP ${name}, ${connections} connection${connections === 1 ? '' : 's'}`,
    unit: 'req/s',
    better: 'higher',
    connections,
  }));
}

/** @param {'json' | 'sse' | 'stateless'} mode */
function httpGroup(mode) {
  const id = `http-${mode}`;
  return {
    id,
    title: MODE_TITLES[mode],
    rows: connectionRows(id, mode),
    rounds: (profile) => profile.rounds.http,
    participates: (impl) => Boolean(impl.files.httpServer),
    measure: (impl, ctx, rows) => measureHttp(impl, ctx, { mode, rows, id }),
  };
}

/**
 * Revision 2026-07-28 on each implementation's `servers/<id>-http2026.mjs`, started in `stateless`
 * mode (mcpkit: the same handler as `http-stateless`, which serves a 2026 request per request in
 * every mode; the sdk column is SDK v2's `createMcpHandler`). Answers must be JSON.
 */
const http2026Group = {
  id: 'http-2026',
  title:
    'Streamable HTTP, revision 2026-07-28, no session (sdk column = @modelcontextprotocol/server 2.4.0 createMcpHandler)',
  rows: connectionRows('http-2026', '2026-07-28'),
  rounds: (profile) => profile.rounds.http,
  participates: (impl) => Boolean(impl.files.http2026Server),
  measure: (impl, ctx, rows) =>
    measureHttp(impl, ctx, {
      mode: 'stateless',
      rows,
      id: 'http-2026',
      script: impl.files.http2026Server,
      modern: true,
    }),
};

/**
 * The headers and the checked probe of a load run: a 2025 session (stateful modes), the 2025
 * stateless path (the version header only), or 2026-07-28 (envelope in the body, `Mcp-*` headers).
 * @param {string} url
 * @param {'json' | 'sse' | 'stateless'} mode
 * @param {boolean} modern
 */
async function requestShape(url, mode, modern) {
  if (modern) {
    return {
      headers: { ...BASE_HEADERS, ...MODERN_ECHO_HEADERS },
      request: modernEchoCallRequest,
      expectContentType: 'application/json',
      expectResultType: 'complete',
    };
  }
  const headers =
    mode === 'stateless'
      ? { ...BASE_HEADERS, 'mcp-protocol-version': PROTOCOL_VERSION }
      : (await openSession(url)).headers;
  return { headers, request: echoCallRequest, expectContentType: EXPECTED_CONTENT_TYPE[mode] };
}

/**
 * Loads one server of `impl` in `mode` with autocannon, once per row (`connections` each); `env`
 * goes to the server process (e.g. a middleware variant). `script` replaces the implementation's
 * HTTP server script; `modern` sends 2026-07-28 requests instead of 2025 ones.
 * @param {any} impl
 * @param {any} ctx
 * @param {{ mode: 'json' | 'sse' | 'stateless', rows: { id: string, connections: number }[], id: string, env?: Record<string, string>, script?: string, modern?: boolean }} spec
 */
export async function measureHttp(impl, ctx, { mode, rows, id, env = {}, script, modern = false }) {
  const server = await startServer({
    script: script ?? impl.files.httpServer,
    env: { ...env, BENCH_HTTP_MODE: mode, BENCH_PORT: '0' },
    cwd: ctx.paths.bench,
    agent: ctx.paths.agent,
    nodeArgs: ctx.nodeArgs(id, impl.id),
  });
  const notes = [];
  const samples = {};
  try {
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const { headers, ...check } = { text: PROBE_TEXT, ...(await requestShape(url, mode, modern)) };
    await checkedEchoCall(url, headers, check);
    // A string id with autocannon's placeholder: every loaded request gets a unique id, as the
    // transports map responses to requests by id.
    const body = JSON.stringify(check.request('[<id>]', PROBE_TEXT));
    const load = async (connections, durationS) => {
      const task = { url, headers, body, connections, warmupS: 0, durationS, expectText: PROBE_TEXT };
      const timeoutMs = 60_000 + durationS * 3_000;
      const { reply, stderr } = await runWorker(ctx.paths.loadWorker, task, {
        timeoutMs,
        cwd: ctx.paths.bench,
      });
      if (stderr.trim()) notes.push(`load generator stderr: ${stderr.trim().slice(0, 300)}`);
      if (!reply.ok) throw new Error(reply.error);
      return reply.result;
    };
    for (const row of rows) {
      if (ctx.profile.http.warmupS > 0) await load(row.connections, ctx.profile.http.warmupS);
      const before = await server.request('bench:memory', { gc: false });
      const result = await load(row.connections, ctx.profile.http.durationS);
      const after = await server.request('bench:memory', { gc: false });
      const cpuUs = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
      samples[row.id] = {
        ...result,
        serverRssMB: after.memory.rss / MB,
        // Server CPU per request: much less sensitive than req/s to other work on the machine.
        serverCpuUsPerRequest: cpuUs / result.requests,
      };
    }
    await checkedEchoCall(url, headers, check);
  } finally {
    await server.stop();
  }
  return { samples, stderr: server.stderr(), notes };
}

export const httpGroups = [httpGroup('json'), httpGroup('sse'), httpGroup('stateless'), http2026Group];
