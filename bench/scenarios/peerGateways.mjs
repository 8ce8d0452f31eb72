/**
 * Issue 34: `mcpkit gateway` against the gateways people run instead, each fronting the same
 * framework-free stdio echo upstream (`servers/bare-stdio.mjs`) and serving Streamable HTTP:
 *
 *   mcpkit        node packages/cli/bin/mcpkit.js gateway --config <file> --http --port P
 *   mcp-proxy     mcp-proxy --port P --host 127.0.0.1 --server stream -- node bare-stdio.mjs
 *   supergateway  supergateway --stdio "node bare-stdio.mjs" --outputTransport streamableHttp --stateful --port P
 *
 * The peers are registry packages at pinned versions, installed into bench/.tmp (lib/peers.mjs).
 * Each is started as its users start it (defaults, nothing tuned), one 2025-11-25 session is opened
 * and checked, then autocannon loads it from its own process with 16 connections and a fresh
 * JSON-RPC id per request (every answer checked for the echo). Per gateway: calls/s, p50, p99, and
 * the CPU per call of its whole process tree (gateway plus upstream, from /proc: the number that
 * survives a busy machine); a 2026-07-28 client's calls/s where the gateway serves that revision;
 * and the memory per downstream session (RSS of the tree after GC of the gateway process, while N
 * more sessions are opened, divided by N). A last row puts 10 upstreams behind one `mcpkit gateway`
 * and spreads the calls over their 10 tools. Every round starts every gateway afresh, in an order
 * rotated per round.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { echoCallRequest, MODERN_ECHO_HEADERS, modernEchoCallRequest, PROBE_TEXT } from '../lib/echo.mjs';
import { BASE_HEADERS, checkedEchoCall, openSession, postMessage } from '../lib/mcp-http.mjs';
import { installPeers } from '../lib/peers.mjs';
import { runWorker, startServer } from '../lib/proc.mjs';
import { processTree, signalAll, treeRssBytes } from '../lib/processTree.mjs';
import { processCpuUs } from '../lib/procStat.mjs';
import { rotate } from '../lib/stats.mjs';

const CONNECTIONS = 16;
const UPSTREAMS_MANY = 10;
const KB = 1024;
const MB = 1024 * 1024;
const PEER_SPECS = ['mcp-proxy@6.7.19', 'supergateway@4.0.0'];

/**
 * The gateways: how each is started (`script` and `args` for `node`), and whether it serves a
 * 2026-07-28 client (mcp-proxy does by default, per its README; supergateway does not claim to).
 * @typedef {{ id: string, label: string, modern: boolean, start: (setup: Setup, port: number) => Promise<{ script: string, args: string[] }> }} Gateway
 * @typedef {{ repo: string, upstream: string, configFile: (count: number) => Promise<string>, peers: () => Promise<{ bin: (name: string) => Promise<string> }> }} Setup
 */

/** @type {Gateway[]} */
const GATEWAYS = [
  {
    id: 'mcpkit',
    label: 'mcpkit gateway',
    modern: true,
    start: async (setup, port, upstreams = 1) => ({
      script: path.join(setup.repo, 'packages/cli/bin/mcpkit.js'),
      // Every bench session comes from one address: lift the per-client cap (32 by default, the
      // oldest idle session evicted past it), which would otherwise end the load's own session
      // while the memory row opens its hundreds. The peers have no such cap.
      args: [
        'gateway',
        '--config',
        await setup.configFile(upstreams),
        '--http',
        '--port',
        String(port),
        '--sessions-per-client',
        '100000',
      ],
    }),
  },
  {
    id: 'mcp-proxy',
    label: 'mcp-proxy 6.7.19',
    modern: true,
    start: async (setup, port) => ({
      script: await (await setup.peers()).bin('mcp-proxy'),
      args: [
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--server',
        'stream',
        '--',
        process.execPath,
        setup.upstream,
      ],
    }),
  },
  {
    id: 'supergateway',
    label: 'supergateway 4.0.0',
    modern: false,
    start: async (setup, port) => ({
      script: await (await setup.peers()).bin('supergateway'),
      args: [
        '--stdio',
        `"${process.execPath}" "${setup.upstream}"`,
        '--outputTransport',
        'streamableHttp',
        '--stateful',
        '--port',
        String(port),
      ],
    }),
  },
];

/** The rows of one gateway: rate, latency, CPU, memory per session, and the 2026 rate. */
function gatewayRows(gateway) {
  const row = (id, label, unit, better, metric) => ({
    id,
    label: `${gateway.label}: ${label}`,
    unit,
    better,
    gateway: gateway.id,
    metric,
  });
  return [
    row(`gateway-peers-${gateway.id}-16`, `${CONNECTIONS} connections`, 'calls/s', 'higher', 'rate'),
    row(`gateway-peers-p50-${gateway.id}`, 'p50 latency', 'ms', 'lower', 'p50'),
    row(`gateway-peers-p99-${gateway.id}`, 'p99 latency', 'ms', 'lower', 'p99'),
    row(`gateway-peers-cpu-${gateway.id}`, 'CPU per call, gateway + upstream', 'µs', 'lower', 'cpu'),
    row(`gateway-peers-session-${gateway.id}`, 'RSS per downstream session', 'KB', 'lower', 'session'),
    ...(gateway.modern
      ? [
          row(
            `gateway-peers-2026-${gateway.id}`,
            '2026-07-28 client, 16 connections',
            'calls/s',
            'higher',
            'modern',
          ),
        ]
      : []),
  ];
}

const MANY_ROWS = [
  {
    id: 'gateway-peers-10up-mcpkit',
    label: `mcpkit gateway, ${UPSTREAMS_MANY} upstreams, calls spread over their tools, ${CONNECTIONS} connections`,
    unit: 'calls/s',
    better: 'higher',
    gateway: 'mcpkit',
    metric: 'many',
  },
  {
    id: 'gateway-peers-10up-cpu-mcpkit',
    label: `mcpkit gateway, ${UPSTREAMS_MANY} upstreams: CPU per call, gateway + upstreams`,
    unit: 'µs',
    better: 'lower',
    gateway: 'mcpkit',
    metric: 'many-cpu',
  },
];

let rounds = 0;

export const gatewayPeersGroup = {
  id: 'gateway-peers',
  title: `Gateways over Streamable HTTP, one stdio echo upstream, ${CONNECTIONS} connections (mcpkit gateway vs mcp-proxy 6.7.19 vs supergateway 4.0.0)`,
  rows: [...GATEWAYS.flatMap(gatewayRows), ...MANY_ROWS],
  rounds: (profile) => profile.rounds.http,
  // The peers are columns of their own rows; the subject's run measures them all, interleaved.
  participates: (impl) => impl.id === 'mcpkit' && impl.available,
  async measure(_impl, ctx, rows) {
    const setup = await makeSetup(ctx);
    const samples = {};
    const notes = [];
    let stderr = '';
    const wanted = (gateway, metrics) =>
      rows.some((row) => row.gateway === gateway && metrics.includes(row.metric));
    const runs = GATEWAYS.filter((gateway) =>
      wanted(gateway.id, ['rate', 'p50', 'p99', 'cpu', 'session', 'modern']),
    ).map((gateway) => ({ gateway, upstreams: 1 }));
    if (wanted('mcpkit', ['many', 'many-cpu']))
      runs.push({ gateway: GATEWAYS[0], upstreams: UPSTREAMS_MANY });
    const rss = {};
    for (const run of rotate(runs, rounds++)) {
      const outcome = await measureGateway(run.gateway, run.upstreams, setup, ctx, rows);
      Object.assign(samples, outcome.samples);
      notes.push(...outcome.notes);
      stderr += outcome.stderr;
      rss[`${run.gateway.id}-${run.upstreams}`] = outcome.treeRssMB;
    }
    // What one more upstream costs in memory: the 10-upstream gateway's tree against the 1-upstream one.
    const many = samples['gateway-peers-10up-mcpkit'];
    if (many && rss['mcpkit-1'] !== undefined)
      many.rssMBPerUpstream = (rss[`mcpkit-${UPSTREAMS_MANY}`] - rss['mcpkit-1']) / (UPSTREAMS_MANY - 1);
    return { samples, stderr, notes };
  },
};

/** @param {any} ctx @returns {Promise<Setup>} */
async function makeSetup(ctx) {
  const upstream = path.join(ctx.paths.bench, 'servers/bare-stdio.mjs');
  let peers;
  return {
    repo: ctx.paths.repo,
    upstream,
    async configFile(count) {
      const servers = {};
      for (let i = 0; i < count; i++)
        servers[count === 1 ? 'echo' : `echo${i}`] = { command: process.execPath, args: [upstream] };
      const file = path.join(ctx.paths.scratch, `gateway-${count}.json`);
      await writeFile(file, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
      return file;
    },
    peers: async () => {
      peers ??= await installPeers(PEER_SPECS, ctx);
      return peers;
    },
  };
}

/** A port that was free a moment ago (the peers take `--port` and print nothing machine-readable). */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** CPU µs so far of each process of the tree under `pid`. */
function cpuByPid(pid) {
  return new Map(processTree(pid).map((member) => [member, processCpuUs(member) ?? 0]));
}

/** CPU µs the tree under `pid` used since `before` (processes started since count whole). */
function cpuSince(pid, before) {
  let total = 0;
  for (const [member, now] of cpuByPid(pid)) total += now - (before.get(member) ?? 0);
  return total;
}

/**
 * Starts one gateway, measures what `rows` ask of it, stops it and its whole process tree.
 * @param {Gateway} gateway
 * @param {number} upstreams
 * @param {Setup} setup
 * @param {any} ctx
 * @param {any[]} rows
 */
async function measureGateway(gateway, upstreams, setup, ctx, rows) {
  const port = await freePort();
  const { script, args } = await gateway.start(setup, port, upstreams);
  const server = await startServer({
    script,
    args,
    port,
    cwd: ctx.paths.scratch,
    agent: ctx.paths.agent,
    timeoutMs: 60_000,
    nodeArgs: ctx.nodeArgs('gateway-peers', upstreams === 1 ? gateway.id : `${gateway.id}-${upstreams}`),
  });
  const pid = /** @type {number} */ (server.child.pid);
  const url = `http://127.0.0.1:${port}/mcp`;
  const samples = {};
  const notes = [];
  const metric = (name) => rows.some((row) => row.gateway === gateway.id && row.metric === name);
  let treeRssMB;
  try {
    const load = async (headers, bodies) => {
      const task = {
        url,
        headers,
        bodies,
        connections: CONNECTIONS,
        warmupS: ctx.profile.http.warmupS,
        durationS: ctx.profile.http.gatewayDurationS ?? ctx.profile.http.durationS,
        expectText: PROBE_TEXT,
      };
      // Warm-up first, then the measured run with the tree's CPU read around it.
      if (task.warmupS > 0) {
        const { reply: warm } = await runWorker(
          ctx.paths.loadWorker,
          { ...task, durationS: task.warmupS, warmupS: 0 },
          { timeoutMs: 120_000, cwd: ctx.paths.bench },
        );
        if (!warm.ok) throw new Error(warm.error);
      }
      const before = cpuByPid(pid);
      const { reply, stderr } = await runWorker(
        ctx.paths.loadWorker,
        { ...task, warmupS: 0 },
        { timeoutMs: 60_000 + task.durationS * 3_000, cwd: ctx.paths.bench },
      );
      const cpuUs = cpuSince(pid, before);
      const ownCpuUs = (processCpuUs(pid) ?? 0) - (before.get(pid) ?? 0);
      if (stderr.trim()) notes.push(`load generator stderr: ${stderr.trim().slice(0, 300)}`);
      if (!reply.ok) throw new Error(reply.error);
      return {
        ...reply.result,
        cpuUsPerCall: cpuUs / reply.result.requests,
        // The gateway process alone, without its upstream(s).
        gatewayCpuUsPerCall: ownCpuUs / reply.result.requests,
        processes: processTree(pid).length,
      };
    };
    const check = { text: PROBE_TEXT };
    if (upstreams > 1) {
      const { headers } = await openSession(url);
      const tools = await toolNames(url, headers);
      if (tools.length !== upstreams) throw new Error(`expected ${upstreams} tools, got ${tools.join(', ')}`);
      for (const name of tools) await checkedEchoCall(url, headers, { ...check, request: callOf(name) });
      const bodies = tools.map((name) => JSON.stringify(callOf(name)('[<id>]', PROBE_TEXT)));
      const result = await load(headers, bodies);
      await checkedEchoCall(url, headers, { ...check, request: callOf(tools[0]) });
      samples['gateway-peers-10up-mcpkit'] = { ...result, upstreams };
      samples['gateway-peers-10up-cpu-mcpkit'] = { value: result.cpuUsPerCall };
      treeRssMB = treeRssBytes(processTree(pid)) / MB;
      samples['gateway-peers-10up-mcpkit'].treeRssMB = treeRssMB;
      return { samples, notes, stderr: server.stderr(), treeRssMB };
    }
    if (['rate', 'p50', 'p99', 'cpu'].some(metric)) {
      const { headers } = await openSession(url);
      await checkedEchoCall(url, headers, check);
      const result = await load(headers, [JSON.stringify(echoCallRequest('[<id>]', PROBE_TEXT))]);
      await checkedEchoCall(url, headers, check);
      const id = gateway.id;
      samples[`gateway-peers-${id}-16`] = result;
      samples[`gateway-peers-p50-${id}`] = { value: result.p50Ms };
      samples[`gateway-peers-p99-${id}`] = { value: result.p99Ms };
      samples[`gateway-peers-cpu-${id}`] = { value: result.cpuUsPerCall };
    }
    if (metric('modern')) {
      const headers = { ...BASE_HEADERS, ...MODERN_ECHO_HEADERS };
      const modern = { ...check, request: modernEchoCallRequest, expectResultType: 'complete' };
      await checkedEchoCall(url, headers, modern);
      const result = await load(headers, [JSON.stringify(modernEchoCallRequest('[<id>]', PROBE_TEXT))]);
      await checkedEchoCall(url, headers, modern);
      samples[`gateway-peers-2026-${gateway.id}`] = result;
    }
    treeRssMB = treeRssBytes(processTree(pid)) / MB;
    if (metric('session'))
      samples[`gateway-peers-session-${gateway.id}`] = await sessionMemory(server, url, ctx);
  } finally {
    const tree = processTree(pid);
    signalAll(tree.slice(1), 'SIGTERM');
    await server.stop();
    signalAll(processTree(pid).concat(tree), 'SIGKILL');
  }
  return { samples, notes, stderr: server.stderr(), treeRssMB };
}

/**
 * RSS of the gateway's process tree per downstream session. Each session is opened and makes one
 * checked call, as a client does (a gateway may start its upstream for a session lazily), and is then
 * left idle; the gateway process is collected before each reading (its children cannot be). A
 * gateway that starts a process per session gets `gatewaySessions` sessions, one that does not ten
 * times as many, so that a few KB per session are not lost in the noise of a reading.
 */
async function sessionMemory(server, url, ctx) {
  const pid = server.child.pid;
  const open = async (count) => {
    const sessions = [];
    let next = 0;
    const opener = async () => {
      while (next < count) {
        next++;
        const session = await openSession(url);
        await checkedEchoCall(url, session.headers, { text: PROBE_TEXT });
        sessions.push(session);
      }
    };
    await Promise.all(Array.from({ length: 4 }, opener));
    return sessions;
  };
  // RSS of the whole tree, and the gateway process's own heap after GC (steadier where a session
  // costs a few KB: RSS moves by pages and by what the GC returns to the system).
  const settle = async () => {
    await server.request('bench:memory');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { memory } = await server.request('bench:memory');
    return { rss: treeRssBytes(processTree(pid)), heap: memory.heapUsed };
  };
  // Warm-up sessions: first-use allocations land before the first reading; they also tell whether
  // this gateway starts a process per session.
  const warmCount = 2;
  const processesAtStart = processTree(pid).length;
  await open(warmCount);
  const spawns = processTree(pid).length - processesAtStart >= warmCount;
  const base = ctx.profile.memory.gatewaySessions;
  const count = spawns ? base : base * 10;
  const before = await settle();
  const processesBefore = processTree(pid).length;
  const sessions = await open(count);
  const after = await settle();
  // The oldest and the newest session must still answer, or the gateway is not keeping them.
  await checkedEchoCall(url, sessions[0].headers, { text: PROBE_TEXT });
  await checkedEchoCall(url, sessions[count - 1].headers, { text: PROBE_TEXT });
  return {
    value: (after.rss - before.rss) / count / KB,
    gatewayHeapKBPerSession: (after.heap - before.heap) / count / KB,
    sessions: count,
    processesPerSession: (processTree(pid).length - processesBefore) / count,
    treeRssBeforeMB: before.rss / MB,
    treeRssAfterMB: after.rss / MB,
  };
}

/** The tool names a session lists. */
async function toolNames(url, headers) {
  const reply = await postMessage(url, { jsonrpc: '2.0', id: 'list', method: 'tools/list' }, headers);
  const tools = reply.messages.find((message) => message.id === 'list')?.result?.tools;
  if (!Array.isArray(tools)) throw new Error(`tools/list failed: ${reply.body.slice(0, 300)}`);
  return tools.map((tool) => tool.name);
}

/** An echo request builder for tool `name` (a namespaced name behind a gateway of many). */
function callOf(name) {
  return (id, text) => {
    const request = echoCallRequest(id, text);
    request.params.name = name;
    return request;
  };
}
