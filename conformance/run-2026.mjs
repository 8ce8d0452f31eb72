#!/usr/bin/env node
/**
 * Runs the 2026-07-28 server requirements of the official conformance suite
 * (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, installed as the devDependency alias
 * `conformance-next`) against mcpkit's fixture server: `server --requirements 2026-07-28`, which
 * scores exactly the scenarios that revision requires (37) and reports the rest as not scored.
 *
 * Pass rule: every scored scenario passes, except those in EXPECTED_FAILURES, each with its reason;
 * an expected failure that passes fails the run too, so the list cannot go stale.
 *
 * Usage: node conformance/run-2026.mjs [--keep] [--verbose]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureNode22 } from './node22.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..');
const PINNED = '0.2.0-alpha.12';
const REVISION = '2026-07-28';

/**
 * Scored scenarios known to fail, and why (none since the input-required rounds landed:
 * packages/server/src/mrtr/, fixtures in ./fixture-mrtr.ts). Keep the list for the next alpha.
 * @type {Map<string, string>}
 */
const EXPECTED_FAILURES = new Map();

/**
 * The suite's scenarios of the tasks extension `io.modelcontextprotocol/tasks` (SEP-2663). They are
 * extension scenarios, so `--requirements` does not score them; each runs on its own with
 * `--scenario <name> --spec-version 2026-07-28 --force`, against the same fixture. Every one must
 * pass all its checks; one the suite itself skips (it reports 0 checks) is listed with its reason.
 */
const TASK_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
/** Task scenarios the suite itself skips in this alpha, and why (reported, never counted as passed). */
const SKIPPED_BY_SUITE = new Map([
  [
    'tasks-status-notifications',
    'the alpha skips it ("pending subscriptions/listen rewrite"); our server sends no notifications/tasks (a MAY)',
  ],
]);

const args = new Set(process.argv.slice(2));
const verbose = args.has('--verbose');

function freePort() {
  return new Promise((ok, fail) => {
    const probe = net.createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

/** Starts `command` as the leader of its own process group, so stopping it stops its children. */
function start(command, argv, options) {
  return spawn(command, argv, { ...options, detached: true });
}

function stop(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

async function waitForServer(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the fixture server exited before it listened');
    try {
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((ok) => setTimeout(ok, 200));
    }
  }
  throw new Error('the fixture server did not listen within 30 s');
}

/** Scenario name → passed, from the suite's summary lines (`✓ name: 2 passed, 0 failed`). */
function parseSummary(output) {
  const plain = stripVTControlCharacters(output);
  const summary = plain.slice(plain.indexOf('=== SUMMARY ==='));
  const results = new Map();
  for (const line of summary.split('\n')) {
    const match = /^([✓✗]) ([a-z0-9-]+): \d+ passed, \d+ failed/.exec(line);
    if (match) results.set(match[2], match[1] === '✓');
  }
  const notScored = new Set();
  const tail = summary.slice(summary.indexOf('Not scored for'));
  for (const line of tail.split('\n')) {
    const match = /^\s+[✓✗] ([a-z0-9-]+) \(/.exec(line);
    if (match) notScored.add(match[1]);
  }
  return { results, notScored };
}

function runSuite(node22, suiteBin, url, outDir) {
  return runConformance(node22, suiteBin, ['server', '--url', url, '--requirements', REVISION, '-o', outDir]);
}

/** Runs one extension scenario; resolves with its passed and total check counts (from `Passed: a/b`). */
async function runScenario(node22, suiteBin, url, name, outDir) {
  const argv = ['server', '--url', url, '--scenario', name, '--spec-version', REVISION, '--force'];
  const run = await runConformance(node22, suiteBin, [...argv, '-o', outDir]);
  const match = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stripVTControlCharacters(run.output));
  return { ...run, passed: match ? Number(match[1]) : 0, total: match ? Number(match[2]) : 0 };
}

function runConformance(node22, suiteBin, suiteArgs) {
  const bind = pathToFileURL(join(HERE, 'bind-localhost.mjs')).href;
  const argv = ['--import', bind, suiteBin, ...suiteArgs];
  return new Promise((ok) => {
    const child = start(node22, argv, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk) => {
      output += chunk;
      if (verbose) process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => stop(child), 10 * 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, output });
    });
  });
}

async function main() {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('conformance-next/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (manifest.version !== PINNED)
    console.warn(`warning: conformance-next is ${manifest.version}, expected ${PINNED}`);
  const suiteBin = join(
    dirname(manifestPath),
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.conformance,
  );
  const node22 = ensureNode22();
  const runDir = join(HERE, '.results', `run-2026-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(runDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const fixture = start('npm', ['run', '--silent', 'conformance:server', '--', '--port', String(port)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let run;
  const taskRuns = new Map();
  try {
    await waitForServer(url, fixture);
    console.log(
      `@modelcontextprotocol/conformance ${manifest.version}, --requirements ${REVISION}, against ${url}`,
    );
    run = await runSuite(node22, suiteBin, url, runDir);
    for (const name of TASK_SCENARIOS)
      taskRuns.set(name, await runScenario(node22, suiteBin, url, name, runDir));
  } finally {
    stop(fixture);
  }
  writeFileSync(join(runDir, 'suite.log'), run.output);
  const { results, notScored } = parseSummary(run.output);
  const scored = [...results.keys()].filter((name) => !notScored.has(name));
  const problems = [];
  let passed = 0;
  for (const name of scored) {
    const ok = results.get(name);
    if (ok) passed++;
    const expected = EXPECTED_FAILURES.get(name);
    if (!ok && !expected) problems.push(`unexpected failure: ${name}`);
    if (ok && expected)
      problems.push(`expected to fail but passed (remove it from EXPECTED_FAILURES): ${name}`);
    if (!ok && expected) console.log(`  ~ ${name}: expected failure (${expected})`);
  }
  if (scored.length === 0) problems.push('the suite reported no scored scenario');
  let tasksPassed = 0;
  for (const [name, taskRun] of taskRuns) {
    writeFileSync(join(runDir, `${name}.log`), taskRun.output);
    const ok = taskRun.code === 0 && taskRun.total > 0 && taskRun.passed === taskRun.total;
    if (ok) tasksPassed++;
    else
      problems.push(`tasks extension scenario failed: ${name} (${taskRun.passed}/${taskRun.total} checks)`);
  }
  for (const [name, reason] of SKIPPED_BY_SUITE) console.log(`  ~ ${name}: not run (${reason})`);
  for (const problem of problems) console.log(`  ✗ ${problem}`);
  if (problems.length === 0 && !args.has('--keep')) rmSync(runDir, { recursive: true, force: true });
  else console.log(`results kept in ${runDir}`);
  console.log(`conformance ${REVISION} server: ${passed}/${scored.length} required scenarios passed`);
  console.log(`conformance ${REVISION} tasks extension: ${tasksPassed}/${taskRuns.size} scenarios passed`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
