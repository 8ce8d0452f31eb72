/**
 * What a downstream session of the gateway costs (issue 29): the first `tools/list` with one dead
 * server among 15, the upstream processes after 10 abandoned sessions against after 1, the RSS of
 * each more idle session, and a quiet upstream's call latency beside a flooding one. The gateway
 * runs in its own process (bench/servers/gateway-share.mjs) with echo upstreams over stdio; the
 * clients are raw HTTP from this process, so their memory is not counted. mcpkit only.
 * @module
 */
import { performance } from 'node:perf_hooks';
import { PROBE_TEXT } from '../lib/echo.mjs';
import { checkedEchoCall, openSession, postMessage } from '../lib/mcp-http.mjs';
import { startServer } from '../lib/proc.mjs';

const MB = 1024 * 1024;
/** Sessions opened (each listing the catalogue) before the first memory reading. */
const WARMUP_SESSIONS = 20;

const listRequest = (id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const callRequest = (id, name, args) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A gateway process over `env`'s upstreams. */
function startGateway(ctx, env) {
  return startServer({
    script: `${ctx.paths.bench}/servers/gateway-share.mjs`,
    env: { BENCH_PORT: '0', ...env },
    cwd: ctx.paths.bench,
    agent: ctx.paths.agent,
    nodeArgs: ctx.nodeArgs('gateway-share', 'mcpkit'),
  });
}

/** A session that lists the catalogue (its tool names), as every client does first. */
async function listedSession(url) {
  const session = await openSession(url);
  const listed = await postMessage(url, listRequest(1), session.headers);
  const tools = listed.messages.find((message) => message.id === 1)?.result?.tools;
  if (!Array.isArray(tools)) throw new Error(`tools/list failed: ${listed.body.slice(0, 300)}`);
  return { ...session, tools: tools.map((tool) => tool.name) };
}

/** Seconds from `initialize` to the first `tools/list` answer, 14 echo servers and one that exits. */
async function firstList(ctx) {
  const gateway = await startGateway(ctx, { BENCH_UPSTREAMS: '14', BENCH_DEAD: '1' });
  try {
    const url = `http://127.0.0.1:${gateway.port}/mcp`;
    const started = performance.now();
    const { tools } = await listedSession(url);
    const seconds = (performance.now() - started) / 1000;
    if (tools.length < 14) throw new Error(`expected 14 echo tools, got ${tools.length}`);
    return { sample: { value: seconds, tools: tools.length }, stderr: gateway.stderr() };
  } finally {
    await gateway.stop();
  }
}

/** Upstream processes after `sessions` sessions that list, call and leave without DELETE. */
async function abandoned(ctx, sessions) {
  const gateway = await startGateway(ctx, { BENCH_UPSTREAMS: '3' });
  try {
    const url = `http://127.0.0.1:${gateway.port}/mcp`;
    for (let i = 0; i < sessions; i++) {
      const { headers } = await listedSession(url);
      await checkedEchoCall(url, headers, {
        text: PROBE_TEXT,
        request: (id, text) => callRequest(id, 's1__echo', { text }),
      });
    }
    const { children } = await gateway.request('bench:children');
    return { sample: { value: children, sessions }, stderr: gateway.stderr() };
  } finally {
    await gateway.stop();
  }
}

/** RSS growth (after GC) per idle session that listed the catalogue, 3 upstreams. */
async function sessionRss(ctx) {
  const count = ctx.profile.name === 'smoke' ? 50 : 300;
  const gateway = await startGateway(ctx, { BENCH_UPSTREAMS: '3' });
  try {
    const url = `http://127.0.0.1:${gateway.port}/mcp`;
    for (let i = 0; i < WARMUP_SESSIONS; i++) await listedSession(url);
    const before = await gateway.request('bench:memory');
    for (let i = 0; i < count; i++) await listedSession(url);
    const after = await gateway.request('bench:memory');
    const { children } = await gateway.request('bench:children');
    return {
      sample: {
        value: (after.memory.rss - before.memory.rss) / count / MB,
        heapKB: (after.memory.heapUsed - before.memory.heapUsed) / count / 1024,
        sessions: count,
        upstreamProcesses: children,
      },
      stderr: gateway.stderr(),
      notes: after.collected ? [] : ['gc not exposed; numbers include garbage'],
    };
  } finally {
    await gateway.stop();
  }
}

/** The `p`-quantile of sorted `values`. */
const quantile = (values, p) => values[Math.min(values.length - 1, Math.floor(p * values.length))];

/**
 * Milliseconds of the quiet upstream's echo calls (p50, p99), one after another, alone and while
 * another session keeps the flooding upstream sending log messages.
 */
async function quietBesideFlood(ctx) {
  const calls = ctx.profile.name === 'smoke' ? 60 : 400;
  const gateway = await startGateway(ctx, { BENCH_UPSTREAMS: '1', BENCH_FLOOD: '1' });
  try {
    const url = `http://127.0.0.1:${gateway.port}/mcp`;
    const quiet = await listedSession(url);
    const measure = async () => {
      const times = [];
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        await checkedEchoCall(url, quiet.headers, { text: PROBE_TEXT });
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    await measure(); // warm-up: both upstreams' first calls, JIT
    const alone = await measure();
    const flooder = await listedSession(url);
    let flooding = true;
    let floods = 0;
    const flood = (async () => {
      while (flooding) {
        const reply = await postMessage(url, callRequest(2, 'flood', { count: 5_000 }), flooder.headers);
        if (reply.status !== 200) throw new Error(`flood call got HTTP ${reply.status}`);
        floods++;
      }
    })();
    const beside = await measure();
    flooding = false;
    await flood;
    return {
      samples: {
        'gateway-quiet-p50': { value: quantile(beside, 0.5), floods },
        'gateway-quiet-p99': { value: quantile(beside, 0.99), floods },
        'gateway-quiet-alone-p50': { value: quantile(alone, 0.5) },
        'gateway-quiet-alone-p99': { value: quantile(alone, 0.99) },
      },
      stderr: gateway.stderr(),
    };
  } finally {
    await gateway.stop();
  }
}

export const gatewayShareGroup = {
  id: 'gateway-share',
  title: 'Gateway sessions and shared upstreams (3 echo upstreams over stdio; 15 for the first list)',
  rows: [
    {
      id: 'gateway-first-list',
      label: 'first tools/list, 1 dead server among 15',
      unit: 's',
      better: 'lower',
    },
    {
      id: 'gateway-procs-1',
      label: 'upstream processes after 1 abandoned session',
      unit: 'procs',
      better: 'lower',
    },
    {
      id: 'gateway-procs-10',
      label: 'upstream processes after 10 abandoned sessions',
      unit: 'procs',
      better: 'lower',
    },
    { id: 'gateway-session-rss', label: 'RSS per more idle session', unit: 'MB', better: 'lower' },
    {
      id: 'gateway-quiet-p50',
      label: 'quiet upstream call p50, flooding neighbour',
      unit: 'ms',
      better: 'lower',
    },
    {
      id: 'gateway-quiet-p99',
      label: 'quiet upstream call p99, flooding neighbour',
      unit: 'ms',
      better: 'lower',
    },
    { id: 'gateway-quiet-alone-p50', label: 'quiet upstream call p50, alone', unit: 'ms', better: 'lower' },
    { id: 'gateway-quiet-alone-p99', label: 'quiet upstream call p99, alone', unit: 'ms', better: 'lower' },
  ],
  rounds: (profile) => profile.rounds.memory,
  participates: (impl) => impl.role === 'subject',
  async measure(_impl, ctx, rows) {
    const wanted = new Set(rows.map((row) => row.id));
    const samples = {};
    const stderr = [];
    const notes = [];
    const keep = (result, id) => {
      if (result.samples) Object.assign(samples, result.samples);
      else samples[id] = result.sample;
      stderr.push(result.stderr ?? '');
      notes.push(...(result.notes ?? []));
    };
    if (wanted.has('gateway-first-list')) keep(await firstList(ctx), 'gateway-first-list');
    if (wanted.has('gateway-procs-1')) keep(await abandoned(ctx, 1), 'gateway-procs-1');
    if (wanted.has('gateway-procs-10')) keep(await abandoned(ctx, 10), 'gateway-procs-10');
    if (wanted.has('gateway-session-rss')) keep(await sessionRss(ctx), 'gateway-session-rss');
    if ([...wanted].some((id) => id.startsWith('gateway-quiet'))) keep(await quietBesideFlood(ctx));
    return { samples, stderr: stderr.join('\n'), notes };
  },
};
