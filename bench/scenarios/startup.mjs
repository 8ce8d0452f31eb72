/**
 * Startup costs: cold start (spawn a stdio server → first tools/call result) and import time of the
 * server entry point in a fresh process.
 * @module
 */
import { runCommand, runWorker } from '../lib/proc.mjs';

const MB = 1024 * 1024;

/**
 * Cold start is measured with the baseline's raw newline-JSON client for every implementation, so only
 * the server's start-up is compared, not each client library's load time.
 */
export const coldStartGroup = {
  id: 'coldstart',
  title: 'Cold start: spawn stdio server → first tools/call result',
  rows: [{ id: 'coldstart-stdio', label: 'cold start, stdio', unit: 'ms', better: 'lower' }],
  rounds: (profile) => profile.rounds.coldStart,
  participates: (impl) => Boolean(impl.files.stdioServer),
  async measure(impl, ctx) {
    const task = {
      kind: 'first-call',
      driver: ctx.paths.neutralStdioDriver,
      connect: { command: process.execPath, args: [impl.files.stdioServer], cwd: ctx.paths.bench },
    };
    const { reply, stderr, notes } = await runWorker(ctx.paths.callWorker, task, {
      timeoutMs: 30_000,
      cwd: ctx.paths.bench,
    });
    if (!reply.ok) throw Object.assign(new Error(reply.error), { stderr });
    return { samples: { 'coldstart-stdio': reply.results }, stderr, notes };
  },
};

/**
 * Import time is measured inside a fresh `node` process (so process start-up is excluded) around a
 * dynamic import of the implementation's server entry point.
 */
export const importGroup = {
  id: 'import',
  title: 'Import time of the server entry point (fresh process)',
  rows: [{ id: 'import-server', label: 'import server entry', unit: 'ms', better: 'lower' }],
  rounds: (profile) => profile.rounds.importTime,
  participates: (impl) => Array.isArray(impl.importEntry) && impl.importEntry.length > 0,
  async measure(impl, ctx) {
    const source = [
      'const started = performance.now();',
      `for (const specifier of ${JSON.stringify(impl.importEntry)}) await import(specifier);`,
      'const ms = performance.now() - started;',
      'process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss }));',
    ].join('\n');
    const run = await runCommand(process.execPath, ['--input-type=module', '-e', source], {
      cwd: ctx.paths.bench,
      timeoutMs: 30_000,
    });
    if (run.code !== 0)
      throw Object.assign(new Error(`import failed: ${run.stderr.trim()}`), { stderr: run.stderr });
    const { ms, rss } = JSON.parse(run.stdout);
    return { samples: { 'import-server': { value: ms, rssMB: rss / MB } }, stderr: run.stderr, notes: [] };
  },
};
