#!/usr/bin/env node
/**
 * The runtime tests: mcpkit from packed tarballs on Node 20 (this Node), Node 22 and 24, Bun, Deno,
 * workerd, and (client only) headless Chromium. For each runtime:
 *   - the runtime serves `app/mcp-server.mjs` in SSE, JSON and stateless mode (`<runtime>/server.mjs`),
 *     and the scenarios of `app/scenarios.mjs` run against it from this Node process;
 *   - the runtime runs the same scenarios with the client (`<runtime>/client.mjs`) against the
 *     server on this Node; Chromium runs them in a page from its own loopback origin, which the
 *     Node server allows with the handler's `cors` option (lib/chromium.mjs), and has no server
 *     side (`n/a` in the table);
 *   - the server's and client's stderr must stay empty (a runtime's warnings about the code fail),
 *     except for a notice the README documents, which must then be exactly that notice;
 *   - a runtime's documented limitation (workerd: stateless only, no promised disconnect signal) is asserted
 *     by its scenario and recorded as "documented limitation: …" in the results, never skipped.
 * Runtimes are installed from npm into node_modules/.cache/runtimes on first use (scripts/lib/runtimes.mjs);
 * Chromium is Debian's /usr/bin/chromium (scripts/install-chromium.sh), driven by playwright-core.
 *
 *   npm run test:runtimes                              every runtime
 *   npm run test:runtimes -- --runtime bun,deno        some
 *   npm run test:runtimes -- --runtime chromium        the client in a browser page only
 *   npm run test:runtimes -- --install-only            install the runtimes and stop
 *   npm run test:runtimes -- --keep                    keep the scratch project (its path is printed)
 *
 * Exits 1 when any scenario fails; prints one line per failure and a table of results.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { versionOf } from '../scripts/lib/runtimes.mjs';
import { startPage } from './lib/chromium.mjs';
import { LAUNCHERS } from './lib/launchers.mjs';
import { bundleWorkers, makeScratchProject } from './lib/project.mjs';

const { values } = parseArgs({
  options: {
    runtime: { type: 'string', default: Object.keys(LAUNCHERS).join(',') },
    'install-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const names = values.runtime.split(',').filter(Boolean);
for (const name of names) if (!LAUNCHERS[name]) throw new Error(`unknown runtime ${name}`);

const log = (line) => process.stderr.write(`${line}\n`);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

async function timed(label, body) {
  const started = Date.now();
  const result = await body();
  log(`${label} (${seconds(started)})`);
  return result;
}

for (const name of names) {
  const started = Date.now();
  const binary = LAUNCHERS[name].binary();
  log(`runtime ${name}: ${versionOf(binary)} at ${binary} (${seconds(started)})`);
}
if (values['install-only']) process.exit(0);

const app = await timed('packed and installed into a scratch project', makeScratchProject);
if (names.includes('workerd')) await timed('Workers bundled', () => bundleWorkers(app));
const { runScenarios } = await import(pathToFileURL(`${app}/app/scenarios.mjs`).href);
// The Chromium client's page comes first: the Node server must know its origin to allow it (CORS).
const page = names.includes('chromium')
  ? await timed('Chromium page bundled and served', () => startPage(app))
  : undefined;
const nodeServer = await LAUNCHERS.node20.server(app, page && { RUNTIME_TESTS_PAGE_ORIGIN: page.origin });

/** One row per check: a scenario as server or client, or a quiet stderr. */
const rows = [];
const quiet = (runtime, side, stderr, modes = ['-']) =>
  rows.push({
    runtime,
    side,
    mode: modes.join(','),
    scenario: 'stderr stays empty',
    ok: stderr.trim() === '',
    error: stderr.trim(),
  });

/** A server process's stderr: empty, or exactly the notice documented for its modes. */
function checkServerStderr(runtime, { child, modes, stderr: expected }) {
  const text = child.output.stderr.trim();
  if (!expected) return quiet(runtime, 'server', text, modes);
  const lines = text.split('\n').filter(Boolean);
  rows.push({
    runtime,
    side: 'server',
    mode: modes.join(','),
    scenario: 'stderr holds only the documented notice',
    ok: lines.length > 0 && lines.every((line) => expected.pattern.test(line)),
    error: text === '' ? `expected the documented notice (${expected.pattern}), stderr is empty` : text,
    note: expected.note,
  });
}

const stopAll = (processes) => Promise.all(processes.map(({ child }) => child.stop()));

async function testRuntime(name) {
  const launcher = LAUNCHERS[name];
  // A runtime without a server side (Chromium) runs only its client.
  const { urls, processes, limitations } = launcher.server ? await launcher.server(app) : { processes: [] };
  try {
    const [asServer, asClient] = await Promise.all([
      urls ? runScenarios(urls, { limitations }) : [],
      launcher.client(app, nodeServer.urls, page).catch((error) => ({ error })),
    ]);
    for (const row of asServer) rows.push({ runtime: name, side: 'server', ...row });
    if (asClient.error) {
      rows.push({
        runtime: name,
        side: 'client',
        mode: '-',
        scenario: 'client runs',
        ok: false,
        error: String(asClient.error.message),
      });
    } else {
      for (const row of asClient.results) rows.push({ runtime: name, side: 'client', ...row });
      quiet(name, 'client', asClient.stderr);
    }
  } finally {
    await stopAll(processes);
  }
  for (const server of processes) checkServerStderr(name, server);
}

const started = Date.now();
try {
  for (const name of names) {
    await timed(`runtime ${name} tested`, () =>
      testRuntime(name).catch((error) => {
        rows.push({
          runtime: name,
          side: 'server',
          mode: '-',
          scenario: 'server starts',
          ok: false,
          error: error.message,
        });
      }),
    );
  }
} finally {
  await stopAll(nodeServer.processes);
  await page?.close();
  if (values.keep) log(`scratch project kept: ${app}`);
  else await rm(path.dirname(app), { recursive: true, force: true });
}

const failures = rows.filter((row) => !row.ok);
for (const row of failures) {
  log(
    `FAIL ${row.runtime} ${row.side} ${row.mode} "${row.scenario}": ${row.error.split('\n').slice(0, 6).join('\n    ')}`,
  );
}
printTable();
const notes = new Map(
  rows
    .filter((row) => row.ok && row.note)
    .map((row) => [`${row.runtime} ${row.side} ${row.mode} "${row.scenario}"`, row.note]),
);
for (const [where, note] of notes) log(`LIMIT ${where}: ${note}`);
log(
  `${rows.length - failures.length}/${rows.length} checks passed on ${names.join(', ')} in ${seconds(started)}`,
);
process.exit(failures.length ? 1 : 0);

/**
 * Scenario × runtime, one cell per side: "ok", "limited" (passed by asserting a documented
 * limitation, listed after the table), which modes failed, or "n/a" for the server rows of a
 * runtime that serves nothing (Chromium).
 */
function printTable() {
  const scenarios = [...new Set(rows.map((row) => `${row.side}: ${row.scenario}`))];
  const cell = (runtime, key) => {
    const matching = rows.filter((row) => row.runtime === runtime && `${row.side}: ${row.scenario}` === key);
    if (matching.length === 0) return key.startsWith('server: ') && !LAUNCHERS[runtime].server ? 'n/a' : '';
    const failed = matching.filter((row) => !row.ok).map((row) => row.mode);
    if (failed.length > 0) return `FAIL ${failed.join(',')}`;
    return matching.some((row) => row.note) ? 'limited' : 'ok';
  };
  const lines = [
    ['check', ...names],
    ...scenarios.map((key) => [key, ...names.map((name) => cell(name, key))]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  for (const line of lines) log(line.map((text, i) => text.padEnd(widths[i])).join('  '));
}
