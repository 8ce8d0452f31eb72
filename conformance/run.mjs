#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned 0.1.16) against
 * mcpkit's fixture server and conformance client, one scenario at a time.
 *
 * This script runs on the system Node (20); the suite needs Node >= 22, so every suite process is
 * started with the binary from node22.mjs and with bind-localhost.mjs preloaded (its mock servers
 * would otherwise listen on every interface). See README.md for the pass rule and FIXTURES.md for
 * what the fixtures must do.
 *
 * With `--revision 2026-07-28` it runs the 2026-07-28 client scenarios of the alpha suite instead
 * (0.2.0-alpha.12, the devDependency alias conformance-next; see
 * next-scenarios.mjs), each with `--spec-version 2026-07-28`.
 *
 * Usage: node conformance/run.mjs [--revision REV] [--server-only | --client-only] [--scenario NAME]... [--keep]
 *          [--strict] [--timeout MS] [--server-cmd CMD] [--client-cmd CMD] [--host HOST]
 *          [--verbose] [--list]
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AUTH_CLIENT_SCENARIOS } from './auth-scenarios.mjs';
import {
  CLIENT_SCENARIOS_2026,
  EXTENSION_CLIENT_SCENARIOS_2026,
  NEXT_SUITE_PACKAGE,
  NEXT_SUITE_VERSION,
} from './next-scenarios.mjs';
import { ensureNode22 } from './node22.mjs';
import {
  judgeScenario,
  parseClientOutcome,
  parseScenarioList,
  readChecks,
  resultFolder,
} from './results.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..');
const BIND_LOCALHOST_URL = pathToFileURL(join(HERE, 'bind-localhost.mjs')).href;
const RESULTS_ROOT = join(HERE, '.results');
const PINNED_SUITE_VERSION = '0.1.16';
/** The client scenarios of suite 0.1.16: 4 non-auth ones, then the 22 auth ones (@mcpkit/auth). */
const CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  ...AUTH_CLIENT_SCENARIOS,
];
/** What `--revision 2026-07-28` runs: the required client scenarios, then the extension ones. */
const CLIENT_SCENARIOS_NEXT = [...CLIENT_SCENARIOS_2026, ...EXTENSION_CLIENT_SCENARIOS_2026];
const DEFAULT_SERVER_CMD = 'npm run --silent conformance:server -- --port {port}';
const DEFAULT_CLIENT_CMD = 'npm run --silent conformance:client --';
const DEFAULT_TIMEOUT_MS = 60_000;
const SERVER_START_TIMEOUT_MS = 30_000;
const KILL_GRACE_MS = 3_000;
const OUTPUT_CAP = 4 * 1024 * 1024;

const USAGE = `Usage: node conformance/run.mjs [options]

  --revision REV        2025-11-25 (default: suite 0.1.16) or 2026-07-28 (suite
                        ${NEXT_SUITE_VERSION}: its ${CLIENT_SCENARIOS_2026.length} required client
                        scenarios and ${EXTENSION_CLIENT_SCENARIOS_2026.length} extension one)
  --server-only         run only the server scenarios (suite "all", 32 scenarios)
  --client-only         run only the client scenarios (${CLIENT_SCENARIOS.length}: 4 core, 22 auth)
  --scenario NAME       run only this scenario (repeatable; server or client name)
  --keep                keep the output folder even when everything passed
  --strict              count WARNING checks as failures
  --timeout MS          per-scenario time limit (default ${DEFAULT_TIMEOUT_MS})
  --server-cmd CMD      fixture server command; {port} and $PORT give the port
                        (default: ${DEFAULT_SERVER_CMD})
  --client-cmd CMD      client command; the suite appends the server URL
                        (default: ${DEFAULT_CLIENT_CMD})
  --host HOST           host in the server URL given to the suite (default 127.0.0.1)
  --verbose             stream the suite's own output
  --list                print the scenario names and exit
  --help                this text`;

// ---------------------------------------------------------------------------------------------
// Child processes: each one leads its own process group so that a timeout or Ctrl-C also ends
// what it spawned (npm -> sh -> node for the fixtures, the client under test for the suite).

const liveGroups = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function spawnGroup(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) liveGroups.add(child.pid);
  child.once('exit', () => liveGroups.delete(child.pid));
  return child;
}

process.on('exit', () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
    process.exit(130);
  });
}

/** Ends a process group: SIGTERM, then SIGKILL for whatever is left after the grace period. */
async function stopGroup(child) {
  if (child.pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null;
  killGroup(child.pid, 'SIGTERM');
  if (!exited) {
    await new Promise((done) => {
      const timer = setTimeout(done, KILL_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
    });
  }
  killGroup(child.pid, 'SIGKILL');
}

/**
 * Runs a command to completion with a time limit, keeping its combined output (in memory, capped,
 * and in `logFile`).
 */
function runProcess(command, args, { timeoutMs, logFile, echo, env }) {
  return new Promise((done) => {
    const log = createWriteStream(logFile);
    const child = spawnGroup(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    const collect = (chunk) => {
      log.write(chunk);
      if (echo) process.stdout.write(chunk);
      if (output.length < OUTPUT_CAP) output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child);
    }, timeoutMs);
    child.once('error', (error) => collect(Buffer.from(`spawn error: ${error.message}\n`)));
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      // The suite may leave the client it started behind; the whole group goes.
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      log.end(() => done({ exitCode, signal, timedOut, output }));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Setup

function parseCli(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      revision: { type: 'string', default: '2025-11-25' },
      'server-only': { type: 'boolean', default: false },
      'client-only': { type: 'boolean', default: false },
      scenario: { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_MS) },
      'server-cmd': { type: 'string' },
      'client-cmd': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      verbose: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const timeoutMs = Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1000) throw new Error(`--timeout must be >= 1000 ms`);
  if (values['server-only'] && values['client-only'])
    throw new Error('--server-only and --client-only exclude each other');
  if (!['2025-11-25', '2026-07-28'].includes(values.revision))
    throw new Error(`--revision must be 2025-11-25 or 2026-07-28, not ${values.revision}`);
  if (values.revision === '2026-07-28' && values['server-only'])
    throw new Error('--revision 2026-07-28 runs client scenarios only here');
  return { ...values, timeoutMs };
}

function locateSuite(name) {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.conformance;
  return { bin: join(dirname(manifestPath), bin), version: manifest.version };
}

function rootScripts() {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  return manifest.scripts ?? {};
}

/** Arguments that start the suite under Node 22 with the loopback preload. */
function suiteArgs(ctx, args) {
  return ['--import', BIND_LOCALHOST_URL, ctx.suiteBin, ...args];
}

async function listServerScenarios(ctx) {
  const logFile = join(ctx.runDir, 'list.log');
  const run = await runProcess(ctx.node22, suiteArgs(ctx, ['list', '--server']), {
    timeoutMs: 30_000,
    logFile,
    echo: false,
    env: process.env,
  });
  const names = parseScenarioList(run.output);
  if (run.exitCode !== 0 || names.length === 0) {
    throw new Error(`'conformance list --server' failed (exit ${run.exitCode}):\n${run.output.trim()}`);
  }
  return names;
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Any HTTP answer at all means the fixture is listening; the suite does the real checking. */
function answersHttp(url) {
  return new Promise((done) => {
    const request = http.get(url, { timeout: 1000, headers: { accept: 'text/event-stream' } }, (response) => {
      response.destroy();
      done(true);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => done(false));
  });
}

async function waitForServer(url, child) {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`fixture server exited before answering (exit ${child.exitCode ?? child.signalCode})`);
    }
    if (await answersHttp(url)) return;
    await sleep(100);
  }
  throw new Error(`fixture server did not answer on ${url} within ${SERVER_START_TIMEOUT_MS} ms`);
}

/** Removes terminal colour codes (ESC [ digits/semicolons m) from the suite's output. */
function stripAnsi(text) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function tail(text, lines) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function readTail(file, lines) {
  return existsSync(file) ? tail(readFileSync(file, 'utf8'), lines) : '';
}

function indent(text, prefix) {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Scenarios

function formatRow(result) {
  const { summary } = result;
  const status = result.passed ? 'PASS' : 'FAIL';
  const counts = `${summary.success} ok ${summary.failure} fail ${summary.warning} warn`;
  const seconds = `${(result.durationMs / 1000).toFixed(1)}s`;
  return `  ${status}  ${result.name.padEnd(38)} ${counts.padEnd(22)} ${seconds.padStart(6)}`;
}

function printResult(result) {
  console.log(formatRow(result));
  if (!result.passed) {
    for (const reason of result.reasons) console.log(`        - ${reason}`);
    for (const failure of result.summary.failures) console.log(`        x ${failure}`);
  }
  for (const warning of result.summary.warnings) console.log(`        ! ${warning}`);
  if (!result.passed && result.extraLog) console.log(indent(result.extraLog, '        | '));
}

async function runScenario(ctx, mode, name, args) {
  const dir = join(ctx.runDir, mode, name);
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const run = await runProcess(ctx.node22, suiteArgs(ctx, [...args, '-o', dir]), {
    timeoutMs: ctx.timeoutMs,
    logFile: join(dir, 'suite.log'),
    echo: ctx.verbose,
    env: process.env,
  });
  const durationMs = performance.now() - started;
  let checks;
  try {
    checks = readChecks(dir);
  } catch {
    checks = undefined;
  }
  const clientOutcome = mode === 'client' ? parseClientOutcome(run.output) : {};
  const verdict = judgeScenario({
    checks,
    timedOut: run.timedOut,
    exitCode: run.exitCode,
    strictWarnings: ctx.strict,
    ...clientOutcome,
  });
  let extraLog = '';
  if (!verdict.passed) {
    // Failed checks already say what went wrong; the raw output helps when there are none, and the
    // client's own stderr helps in client mode.
    const folder = resultFolder(dir);
    const clientErr = mode === 'client' && folder ? readTail(join(folder, 'stderr.txt'), 15) : '';
    if (clientErr) extraLog = `client stderr (tail):\n${clientErr}`;
    else if (!checks || verdict.summary.failure === 0)
      extraLog = `suite output (tail):\n${tail(stripAnsi(run.output), 15)}`;
  }
  const result = { mode, name, durationMs, dir, extraLog, ...verdict };
  printResult(result);
  return result;
}

function failedWithoutRunning(mode, name, reason) {
  const summary = { success: 0, failure: 0, warning: 0, info: 0, other: 0, failures: [], warnings: [] };
  const result = { mode, name, durationMs: 0, passed: false, reasons: [reason], summary, extraLog: '' };
  printResult(result);
  return result;
}

async function runServerScenarios(ctx, scenarios) {
  const port = await freePort();
  const url = `http://${ctx.host.includes(':') ? `[${ctx.host}]` : ctx.host}:${port}/mcp`;
  const command = ctx.serverCmd.replaceAll('{port}', String(port));
  console.log(`\nserver scenarios (${scenarios.length}) against ${url}`);
  console.log(`fixture: ${command}`);
  const serverLog = join(ctx.runDir, 'server.log');
  const logStream = createWriteStream(serverLog);
  const server = spawnGroup('sh', ['-c', command], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.pipe(logStream);
  server.stderr.pipe(logStream);
  const results = [];
  try {
    try {
      await waitForServer(url, server);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      console.log(indent(`${reason}\nserver log (tail):\n${readTail(serverLog, 20)}`, '  '));
      for (const name of scenarios) results.push(failedWithoutRunning('server', name, reason));
      return results;
    }
    for (const name of scenarios) {
      if (server.exitCode !== null || server.signalCode !== null) {
        results.push(failedWithoutRunning('server', name, 'fixture server is no longer running'));
        continue;
      }
      results.push(await runScenario(ctx, 'server', name, ['server', '--url', url, '--scenario', name]));
    }
    if (results.some((result) => !result.passed)) {
      console.log(`  fixture server log: ${relative(process.cwd(), serverLog)}`);
    }
    return results;
  } finally {
    await stopGroup(server);
    logStream.end();
  }
}

async function runClientScenarios(ctx, scenarios) {
  console.log(`\nclient scenarios (${scenarios.length})`);
  console.log(`client: ${ctx.clientCmd} <server-url>`);
  // The suite gives our client its own limit; ours must be longer so the suite can report it.
  const clientTimeout = Math.min(30_000, Math.max(5_000, ctx.timeoutMs - 10_000));
  const results = [];
  for (const name of scenarios) {
    const args = [
      'client',
      '--command',
      ctx.clientCmd,
      '--scenario',
      name,
      '--timeout',
      String(clientTimeout),
    ];
    // An extension scenario is off the spec timeline: with --spec-version the suite skips it, and
    // without one it runs it at 2026-07-28 by itself.
    if (ctx.specVersion && !EXTENSION_CLIENT_SCENARIOS_2026.includes(name)) {
      args.push('--spec-version', ctx.specVersion);
    }
    results.push(await runScenario(ctx, 'client', name, args));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Main

function selectScenarios(options, serverAll, clientAll) {
  const wanted = options.scenario;
  const runServer = !options['client-only'];
  const runClient = !options['server-only'];
  if (wanted.length === 0) {
    return { server: runServer ? serverAll : [], client: runClient ? clientAll : [] };
  }
  const unknown = wanted.filter((name) => !serverAll.includes(name) && !clientAll.includes(name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(', ')} (see --list)`);
  return {
    server: runServer ? serverAll.filter((name) => wanted.includes(name)) : [],
    client: runClient ? clientAll.filter((name) => wanted.includes(name)) : [],
  };
}

function checkScriptsExist(options, selection) {
  const scripts = rootScripts();
  const missing = [];
  if (selection.server.length > 0 && !options['server-cmd'] && !scripts['conformance:server']) {
    missing.push('conformance:server');
  }
  if (selection.client.length > 0 && !options['client-cmd'] && !scripts['conformance:client']) {
    missing.push('conformance:client');
  }
  if (missing.length > 0) {
    throw new Error(
      `package.json has no ${missing.join(' / ')} script (or pass --server-cmd / --client-cmd)`,
    );
  }
}

function printSummary(results, selection, startedAt, revision) {
  const failed = results.filter((result) => !result.passed);
  if (failed.length > 0) {
    console.log(`\nfailed: ${failed.map((result) => `${result.mode}/${result.name}`).join(', ')}`);
  }
  console.log(`\ntotal time ${((performance.now() - startedAt) / 1000).toFixed(1)}s`);
  for (const mode of ['server', 'client']) {
    if (selection[mode].length === 0) continue;
    const ofMode = results.filter((result) => result.mode === mode);
    const passed = ofMode.filter((result) => result.passed).length;
    const label = revision === '2026-07-28' ? `${mode} (2026-07-28)` : mode;
    console.log(`conformance ${label}: ${passed}/${ofMode.length} scenarios passed`);
  }
  console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
}

async function main() {
  const startedAt = performance.now();
  let options;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }

  const next = options.revision === '2026-07-28';
  const suiteName = next ? NEXT_SUITE_PACKAGE : '@modelcontextprotocol/conformance';
  const pinned = next ? NEXT_SUITE_VERSION : PINNED_SUITE_VERSION;
  const suite = locateSuite(suiteName);
  if (suite.version !== pinned) {
    console.warn(`warning: ${suiteName} is ${suite.version}, expected ${pinned}`);
  }
  // 2026-07-28 is run here for the client side only; its server scenarios need a server fixture.
  if (next) options['client-only'] = true;
  const clientAll = next ? CLIENT_SCENARIOS_NEXT : CLIENT_SCENARIOS;
  const node22 = ensureNode22();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = join(RESULTS_ROOT, `run-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  const ctx = {
    node22,
    suiteBin: suite.bin,
    runDir,
    timeoutMs: options.timeoutMs,
    strict: options.strict,
    verbose: options.verbose,
    host: options.host,
    serverCmd: options['server-cmd'] ?? DEFAULT_SERVER_CMD,
    clientCmd: options['client-cmd'] ?? DEFAULT_CLIENT_CMD,
    specVersion: next ? '2026-07-28' : undefined,
  };

  let selection;
  try {
    const needServerList = !options['client-only'] || options.list;
    const serverAll = needServerList ? await listServerScenarios(ctx) : [];
    if (options.list) {
      console.log(`server scenarios (${serverAll.length}):\n${indent(serverAll.join('\n'), '  ')}`);
      console.log(`client scenarios (${clientAll.length}):\n${indent(clientAll.join('\n'), '  ')}`);
      rmSync(runDir, { recursive: true, force: true });
      return 0;
    }
    selection = selectScenarios(options, serverAll, clientAll);
    if (selection.server.length + selection.client.length === 0) throw new Error('no scenario selected');
    checkScriptsExist(options, selection);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    rmSync(runDir, { recursive: true, force: true });
    return 2;
  }

  const nodeVersion = (
    await runProcess(node22, ['--version'], {
      timeoutMs: 10_000,
      logFile: join(runDir, 'node.log'),
      echo: false,
      env: process.env,
    })
  ).output.trim();
  console.log(`@modelcontextprotocol/conformance ${suite.version} on node ${nodeVersion} (${node22})`);
  console.log(`output: ${relative(process.cwd(), runDir)}`);

  const results = [];
  if (selection.server.length > 0) results.push(...(await runServerScenarios(ctx, selection.server)));
  if (selection.client.length > 0) results.push(...(await runClientScenarios(ctx, selection.client)));

  const allPassed = results.every((result) => result.passed);
  if (allPassed && !options.keep) {
    rmSync(runDir, { recursive: true, force: true });
  } else {
    console.log(`\nresults kept in ${relative(process.cwd(), runDir)}`);
  }
  // The summary lines come last so that CI can read them from the tail of the log.
  printSummary(results, selection, startedAt, options.revision);
  return allPassed ? 0 : 1;
}

process.exitCode = await main();
