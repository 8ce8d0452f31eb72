#!/usr/bin/env node
/**
 * mcpkit benchmark harness: compares mcpkit with @modelcontextprotocol/sdk and with framework-free
 * baselines. See bench/README.md.
 *
 *   node bench/run.mjs [--smoke | --quick | --full] [--only <scenario,...>] [--skip <scenario,...>] [--impl <id,...>]
 *                      [--subject <id>] [--rounds <n>] [--out <file>] [--no-assert] [--refresh-install] [--list]
 *                      [--cpu-prof <dir>]
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IMPLEMENTATIONS } from './impls.mjs';
import { PROFILES } from './lib/profiles.mjs';
import { renderTable, summarize, verdict } from './lib/report.mjs';
import { runGroups } from './lib/runner.mjs';
import { inMemoryGroup, stdioGroup } from './scenarios/calls.mjs';
import { clusterGroup } from './scenarios/cluster.mjs';
import { bundleGroup, installGroup } from './scenarios/footprint.mjs';
import { gatewayShareGroup } from './scenarios/gatewayShare.mjs';
import { httpGroups } from './scenarios/http.mjs';
import { httpClientGroup } from './scenarios/httpClient.mjs';
import { memoryGroup } from './scenarios/memory.mjs';
import {
  middlewareHttpGroup,
  middlewareInMemoryGroup,
  middlewareStdioGroup,
} from './scenarios/middleware.mjs';
import { gatewayPeersGroup } from './scenarios/peerGateways.mjs';
import { coldStartGroup, importGroup } from './scenarios/startup.mjs';

const GROUPS = [
  inMemoryGroup,
  stdioGroup,
  ...httpGroups,
  httpClientGroup,
  middlewareInMemoryGroup,
  middlewareStdioGroup,
  middlewareHttpGroup,
  clusterGroup,
  memoryGroup,
  gatewayShareGroup,
  coldStartGroup,
  importGroup,
  bundleGroup,
  installGroup,
  gatewayPeersGroup,
];

const HELP = `Usage: node bench/run.mjs [options]

  --smoke               every scenario, few iterations, no timing assertions (CI, < 2 min)
  --quick               3 rounds, short runs (~3-4 min)
  --full                5 rounds (3 for HTTP), the published numbers (default, ~7-10 min)
  --only <ids>          scenarios to run: a group (stdio, http, http-json, memory, ...) or a row
                        (stdio-16, http-json-50, ...); comma-separated or repeated
  --skip <ids>          scenarios to leave out, same syntax (e.g. --skip install when offline)
  --impl <ids>          implementations to run (default: all available)
  --subject <id>        implementation whose ratios are checked against targets (default: mcpkit)
  --rounds <n>          override the round count of repeated scenarios
  --out <file>          where to write the JSON results (default bench/results.json for complete
                        quick/full runs; bench/.tmp/results.<profile>[.partial].json otherwise)
  --no-assert           report target misses without failing
  --refresh-install     reinstall registry packages instead of using bench/.tmp/install-cache.json
  --cpu-prof <dir>      write V8 CPU profiles of the measured processes (call workers, stdio and HTTP
                        servers) to <dir>/<scenario>/<implementation>/ (numbers are then not comparable)
  --list                list scenarios and implementations, then exit
`;

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const paths = {
  bench: benchDir,
  repo: path.dirname(benchDir),
  tmp: path.join(benchDir, '.tmp'),
  scratch: '',
  agent: path.join(benchDir, 'lib', 'agent.mjs'),
  callWorker: path.join(benchDir, 'lib', 'call-worker.mjs'),
  loadWorker: path.join(benchDir, 'lib', 'load-worker.mjs'),
  neutralStdioDriver: path.join(benchDir, 'drivers', 'bare-stdio.mjs'),
};

/** @param {string[] | undefined} values */
function splitList(values) {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean' },
      quick: { type: 'boolean' },
      full: { type: 'boolean' },
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      impl: { type: 'string', multiple: true },
      subject: { type: 'string' },
      rounds: { type: 'string' },
      out: { type: 'string' },
      'no-assert': { type: 'boolean' },
      'refresh-install': { type: 'boolean' },
      'cpu-prof': { type: 'string' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const chosen = ['smoke', 'quick', 'full'].filter((name) => values[name]);
  if (chosen.length > 1) throw new Error(`choose one of --smoke, --quick, --full (got ${chosen.join(', ')})`);
  const rounds = values.rounds === undefined ? undefined : Number(values.rounds);
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds > 0))
    throw new Error('--rounds must be a positive integer');
  return {
    help: Boolean(values.help),
    list: Boolean(values.list),
    profile: PROFILES[chosen[0] ?? 'full'],
    only: splitList(values.only),
    skip: splitList(values.skip),
    impls: splitList(values.impl),
    subject: values.subject,
    rounds,
    out: values.out,
    assert: !values['no-assert'],
    refreshInstall: Boolean(values['refresh-install']),
    cpuProfDir: values['cpu-prof'] === undefined ? undefined : path.resolve(values['cpu-prof']),
  };
}

/**
 * Node flags for a measured process of `groupId` × `implId`: `--cpu-prof` into its own directory when
 * profiling, nothing otherwise.
 * @param {string | undefined} dir
 */
function profilingArgs(dir) {
  return (groupId, implId) =>
    dir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.join(dir, groupId, implId)}`];
}

/** Finds each implementation's scenario files by naming convention and checks it can run. */
function resolveImplementation(def) {
  const file = (relative) => {
    const full = path.join(paths.bench, relative);
    return existsSync(full) ? full : undefined;
  };
  const files = {
    inmemoryDriver: file(`drivers/${def.id}-inmemory.mjs`),
    stdioDriver: file(`drivers/${def.id}-stdio.mjs`),
    stdioServer: file(`servers/${def.id}-stdio.mjs`),
    httpServer: file(`servers/${def.id}-http.mjs`),
    http2026Server: file(`servers/${def.id}-http2026.mjs`),
    httpClientDriver: file(`drivers/${def.id}-httpclient.mjs`),
  };
  const missing = (def.requires ?? []).filter((relative) => !existsSync(path.join(paths.repo, relative)));
  return {
    ...def,
    files,
    // The HTTP client scenario runs every client against this one framework-free server.
    bareHttpServer: file('servers/bare-http.mjs'),
    available: missing.length === 0,
    reason: missing.length > 0 ? `missing ${missing.join(', ')} (run \`npm run build\`)` : undefined,
  };
}

/**
 * Which rows of a group to run: a token names a group or a row, or a prefix of either up to a dash
 * (`http` → every HTTP group, `stdio-16` → one row).
 * @param {string[]} only
 * @param {string[]} skip
 */
function rowSelector(only, skip) {
  const matches = (token, id) => id === token || id.startsWith(`${token}-`);
  const named = (tokens, group, row) =>
    tokens.some((token) => matches(token, group.id) || matches(token, row.id));
  return (group) =>
    group.rows.filter((row) => (only.length === 0 || named(only, group, row)) && !named(skip, group, row));
}

function listScenarios(impls) {
  const lines = ['Scenarios (group: rows):'];
  for (const group of GROUPS)
    lines.push(`  ${group.id.padEnd(15)} ${group.rows.map((row) => row.id).join(', ')}`);
  lines.push('', 'Implementations:');
  for (const impl of impls) {
    const files = Object.entries(impl.files)
      .filter(([, file]) => file)
      .map(([key]) => key);
    const status = impl.available ? `files: ${files.join(', ') || 'none'}` : `unavailable: ${impl.reason}`;
    lines.push(`  ${impl.id.padEnd(8)} ${impl.role.padEnd(9)} ${status}`);
  }
  return lines.join('\n');
}

/**
 * Only a complete quick or full run replaces bench/results.json; smoke and partial runs (--only, --impl)
 * go to bench/.tmp so they cannot overwrite the published numbers by accident.
 */
function defaultResultsFile(options) {
  const partial = options.only.length > 0 || options.skip.length > 0 || options.impls.length > 0;
  if (options.profile.name === 'smoke' || partial) {
    return path.join(paths.tmp, `results.${options.profile.name}${partial ? '.partial' : ''}.json`);
  }
  return path.join(paths.bench, 'results.json');
}

async function machineInfo() {
  const cpus = os.cpus();
  let sdkVersion;
  try {
    const manifest = path.join(paths.repo, 'node_modules/@modelcontextprotocol/sdk/package.json');
    sdkVersion = JSON.parse(await readFile(manifest, 'utf8')).version;
  } catch {}
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGB: Math.round(os.totalmem() / 1024 ** 3),
    loadAverageAtStart: os.loadavg()[0],
    sdkVersion,
  };
}

async function main() {
  const options = parseOptions();
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const all = IMPLEMENTATIONS.map(resolveImplementation);
  if (options.list) {
    process.stdout.write(`${listScenarios(all)}\n`);
    return 0;
  }
  const unknown = options.impls.filter((id) => !all.some((impl) => impl.id === id));
  if (unknown.length > 0) throw new Error(`unknown implementation(s): ${unknown.join(', ')}`);
  const selectRows = rowSelector(options.only, options.skip);
  const groups = GROUPS.filter((group) => selectRows(group).length > 0);
  if (groups.length === 0) throw new Error(`--only matched no scenario; see --list`);

  const wanted = all.filter((impl) => options.impls.length === 0 || options.impls.includes(impl.id));
  const impls = wanted.filter((impl) => impl.available);
  const byRole = (role) => all.find((impl) => impl.role === role)?.id;
  const roles = {
    subject: options.subject ?? byRole('subject'),
    reference: byRole('reference'),
    baseline: byRole('baseline'),
  };
  if (options.subject && !all.some((impl) => impl.id === options.subject))
    throw new Error(`unknown --subject ${options.subject}`);

  const log = (line) => process.stderr.write(`${line}\n`);
  const machine = await machineInfo();
  log(
    `mcpkit bench — profile ${options.profile.name}, node ${machine.node}, ${machine.cores}× ${machine.cpu}`,
  );
  for (const impl of wanted.filter((entry) => !entry.available)) log(`skipping ${impl.id}: ${impl.reason}`);
  if (machine.loadAverageAtStart > 0.5) {
    log(
      `note: load average is ${machine.loadAverageAtStart.toFixed(2)}; other work on the machine skews throughput`,
    );
  }

  await mkdir(paths.tmp, { recursive: true });
  paths.scratch = await mkdtemp(path.join(os.tmpdir(), 'mcpkit-bench-'));
  const started = Date.now();
  let records;
  try {
    const ctx = {
      profile: options.profile,
      options,
      paths,
      selectRows,
      log,
      nodeArgs: profilingArgs(options.cpuProfDir),
    };
    if (options.cpuProfDir)
      log(`writing CPU profiles to ${options.cpuProfDir} (timings include profiler overhead)`);
    records = await runGroups(groups, impls, ctx);
  } finally {
    await rm(paths.scratch, { recursive: true, force: true });
  }
  const elapsedS = (Date.now() - started) / 1000;
  machine.loadAverageAtEnd = os.loadavg()[0];

  const rows = summarize(records, roles);
  const columns = [roles.subject, roles.reference, roles.baseline, ...all.map((impl) => impl.id)].filter(
    (id, index, list) => id && list.indexOf(id) === index && impls.some((impl) => impl.id === id),
  );
  const assert = options.assert && options.profile.assert;
  const { failures, reported } = verdict(rows, roles, { assert });

  process.stdout.write(`\n${renderTable(rows, /** @type {string[]} */ (columns), roles)}\n`);
  if (reported.length > 0)
    process.stdout.write(`\nNotes:\n${reported.map((line) => `  - ${line}`).join('\n')}\n`);
  if (failures.length > 0)
    process.stdout.write(`\nFailures:\n${failures.map((line) => `  - ${line}`).join('\n')}\n`);
  process.stdout.write(`\n${options.profile.name} run took ${elapsedS.toFixed(1)} s\n`);

  const out = options.out ? path.resolve(options.out) : defaultResultsFile(options);
  const results = {
    generatedAt: new Date().toISOString(),
    profile: options.profile,
    machine,
    elapsedS,
    roles,
    implementations: all.map(({ id, role, label, available, reason }) => ({
      id,
      role,
      label,
      available,
      reason,
    })),
    rows,
    failures,
    notes: reported,
  };
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`results written to ${path.relative(process.cwd(), out) || out}\n`);
  return failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`bench: ${error?.message ?? error}\n`);
    process.exitCode = 2;
  },
);
