/**
 * Memory per idle session: RSS growth of the server process (after GC) while 1,000 Streamable HTTP
 * sessions are opened (initialize + notifications/initialized) and left idle.
 * @module
 */

import { PROBE_TEXT } from '../lib/echo.mjs';
import { checkedEchoCall, openSession } from '../lib/mcp-http.mjs';
import { startServer } from '../lib/proc.mjs';

const MB = 1024 * 1024;
/**
 * Sessions opened, and calls made, before the first reading, so lazily loaded code, first-use caches and
 * the heap's grown young generation are in both readings and cancel out.
 */
const WARMUP_SESSIONS = 20;
const WARMUP_CALLS = 1000;
const PARALLEL_OPENS = 8;

/**
 * Makes `count` checked calls spread over `sessions`, `PARALLEL_OPENS` at a time.
 * @param {string} url
 * @param {Array<{ headers: Record<string, string> }>} sessions
 * @param {number} count
 */
async function warmCalls(url, sessions, count) {
  let next = 0;
  const caller = async () => {
    while (next < count) {
      const session = sessions[next++ % sessions.length];
      await checkedEchoCall(url, session.headers, { text: PROBE_TEXT });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_OPENS }, caller));
}

/**
 * Opens `count` sessions, `PARALLEL_OPENS` at a time.
 * @param {string} url
 * @param {number} count
 */
async function openSessions(url, count) {
  const sessions = [];
  let next = 0;
  const opener = async () => {
    while (next < count) {
      next++;
      sessions.push(await openSession(url));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_OPENS }, opener));
  return sessions;
}

export const memoryGroup = {
  id: 'memory',
  title: 'Memory per idle Streamable HTTP session (stateful, JSON mode)',
  rows: [{ id: 'memory-session', label: 'RSS growth per 1,000 idle sessions', unit: 'MB', better: 'lower' }],
  rounds: (profile) => profile.rounds.memory,
  participates: (impl) => Boolean(impl.files.httpServer),
  async measure(impl, ctx) {
    const count = ctx.profile.memory.sessions;
    const server = await startServer({
      script: impl.files.httpServer,
      env: { BENCH_HTTP_MODE: 'json', BENCH_PORT: '0' },
      cwd: ctx.paths.bench,
      agent: ctx.paths.agent,
    });
    try {
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const warm = await openSessions(url, WARMUP_SESSIONS);
      await warmCalls(url, warm, WARMUP_CALLS);
      const before = await server.request('bench:memory');
      const sessions = await openSessions(url, count);
      const after = await server.request('bench:memory');
      const distinct = new Set(sessions.map((session) => session.sessionId)).size;
      if (distinct !== count) throw new Error(`expected ${count} distinct session ids, got ${distinct}`);
      // The oldest and the newest session must both still work, or the server is not keeping them.
      await checkedEchoCall(url, sessions[0].headers, { text: PROBE_TEXT });
      await checkedEchoCall(url, sessions[count - 1].headers, { text: PROBE_TEXT });
      const per1k = (bytes) => (bytes / count) * 1000;
      const notes = after.collected ? [] : ['gc not exposed; numbers include garbage'];
      return {
        samples: {
          'memory-session': {
            value: per1k(after.memory.rss - before.memory.rss) / MB,
            heapMB: per1k(after.memory.heapUsed - before.memory.heapUsed) / MB,
            externalMB: per1k(after.memory.external - before.memory.external) / MB,
            rssBeforeMB: before.memory.rss / MB,
            rssAfterMB: after.memory.rss / MB,
            sessions: count,
          },
        },
        stderr: server.stderr(),
        notes,
      };
    } finally {
      await server.stop();
    }
  },
};
