/**
 * Streamable HTTP under load from a separate autocannon process, 1 and 50 connections, in three modes:
 * stateful with JSON responses, stateful with SSE responses, and stateless. Before loading, the harness
 * opens a session like a real client and sample-checks one call, so a broken server cannot "win"; every
 * loaded response is checked for the echoed text as well.
 * @module
 */

import { echoCallRequest, PROBE_TEXT, PROTOCOL_VERSION } from '../lib/echo.mjs';
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

/** @param {'json' | 'sse' | 'stateless'} mode */
function httpGroup(mode) {
  const id = `http-${mode}`;
  return {
    id,
    title: MODE_TITLES[mode],
    rows: [1, 50].map((connections) => ({
      id: `${id}-${connections}`,
      label: `HTTP ${mode}, ${connections} connection${connections === 1 ? '' : 's'}`,
      unit: 'req/s',
      better: 'higher',
      connections,
    })),
    rounds: (profile) => profile.rounds.http,
    participates: (impl) => Boolean(impl.files.httpServer),
    measure: (impl, ctx, rows) => measureHttp(impl, ctx, { mode, rows, id }),
  };
}

/**
 * Loads one server of `impl` in `mode` with autocannon, once per row (`connections` each); `env`
 * goes to the server process (e.g. a middleware variant).
 * @param {any} impl
 * @param {any} ctx
 * @param {{ mode: 'json' | 'sse' | 'stateless', rows: { id: string, connections: number }[], id: string, env?: Record<string, string> }} spec
 */
export async function measureHttp(impl, ctx, { mode, rows, id, env = {} }) {
  const server = await startServer({
    script: impl.files.httpServer,
    env: { ...env, BENCH_HTTP_MODE: mode, BENCH_PORT: '0' },
    cwd: ctx.paths.bench,
    agent: ctx.paths.agent,
    nodeArgs: ctx.nodeArgs(id, impl.id),
  });
  const notes = [];
  const samples = {};
  try {
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const headers =
      mode === 'stateless'
        ? { ...BASE_HEADERS, 'mcp-protocol-version': PROTOCOL_VERSION }
        : (await openSession(url)).headers;
    const check = { text: PROBE_TEXT, expectContentType: EXPECTED_CONTENT_TYPE[mode] };
    await checkedEchoCall(url, headers, check);
    // A string id with autocannon's placeholder: every loaded request gets a unique id, as the
    // transports map responses to requests by id.
    const body = JSON.stringify(echoCallRequest('[<id>]', PROBE_TEXT));
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

export const httpGroups = [httpGroup('json'), httpGroup('sse'), httpGroup('stateless')];
