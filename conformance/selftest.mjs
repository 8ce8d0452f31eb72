#!/usr/bin/env node
/**
 * Checks the conformance machinery itself, without any fixture: the Node 22 download, the loopback
 * preload under every listen() call form (on Node 22 and on the system Node), the TypeScript hooks,
 * and the pass rule. Exits non-zero on the first broken expectation.
 *
 * Usage: node conformance/selftest.mjs
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureNode22, majorOf } from './node22.mjs';
import { judgeScenario, parseClientOutcome, parseScenarioList } from './results.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..');
let passed = 0;

function expect(condition, what) {
  if (!condition) {
    console.error(`selftest FAILED: ${what}`);
    process.exit(1);
  }
  passed++;
}

// Each probe line: [label, 'sync' | 'async', address or null]. `sync` means address() was read on the
// line right after listen(), as the suite does.
const LISTEN_PROBE = `
import net from 'node:net';
import http from 'node:http';
const rows = [];
const now = (label, server) => { rows.push([label, 'sync', server.address()]); server.close(); };
now('listen()', net.createServer().listen());
now('listen(0)', net.createServer().listen(0));
now('listen("0")', net.createServer().listen('0'));
now('listen(0, cb)', net.createServer().listen(0, () => {}));
now('listen(cb)', net.createServer().listen(() => {}));
now('listen({ port: 0 })', net.createServer().listen({ port: 0 }));
now('listen(0, backlog, cb)', net.createServer().listen(0, 511, () => {}));
now('http listen(0)', http.createServer().listen(0));
const later = (label, server, ...args) => new Promise((done) => server.listen(...args, () => {
  rows.push([label, 'async', server.address()]); server.close(done);
}));
await later('listen(0, "0.0.0.0")', net.createServer(), 0, '0.0.0.0');
await later('listen(0, "::")', net.createServer(), 0, '::');
await later('listen({ host: "::", port: 0 })', net.createServer(), { host: '::', port: 0 });
await later('listen({ host: "0.0.0.0", port: 0 })', net.createServer(), { host: '0.0.0.0', port: 0 });
await later('listen(0, "127.0.0.1")', net.createServer(), 0, '127.0.0.1');
await later('listen(pipe)', net.createServer(), process.env.PROBE_PIPE);
console.log(JSON.stringify(rows));
`;

function checkListen(nodePath, scratch) {
  const pipe = join(scratch, `probe-${majorOf(spawnSync(nodePath, ['--version']).stdout)}.sock`);
  const preload = pathToFileURL(join(HERE, 'bind-localhost.mjs')).href;
  const out = spawnSync(nodePath, ['--import', preload, '--input-type=module', '-e', LISTEN_PROBE], {
    encoding: 'utf8',
    env: { ...process.env, PROBE_PIPE: pipe },
  });
  expect(out.status === 0, `listen probe runs under ${nodePath}: ${out.stderr}`);
  const rows = JSON.parse(out.stdout);
  expect(rows.length === 14, 'listen probe covered every call form');
  for (const [label, when, address] of rows) {
    if (label === 'listen(pipe)') {
      expect(address === pipe, `${label} is left alone`);
      continue;
    }
    expect(
      address !== null,
      `${label}: address() available ${when === 'sync' ? 'on the next line' : 'when listening'}`,
    );
    expect(address.address === '127.0.0.1', `${label} binds 127.0.0.1 (got ${address.address})`);
  }
}

function checkTypeScriptHooks() {
  // Inside the repo so that '@mcpkit/*' resolves from node_modules, like the fixtures.
  mkdirSync(join(HERE, '.results'), { recursive: true });
  const dir = mkdtempSync(join(HERE, '.results', 'selftest-ts-'));
  try {
    writeFileSync(join(dir, 'helper.ts'), 'export const double = (n: number): number => n * 2;\n');
    writeFileSync(
      join(dir, 'main.ts'),
      [
        "import { double } from './helper.js';",
        'class Holder { constructor(readonly value: number) {} }',
        "const core: string = import.meta.resolve('@mcpkit/core');",
        'console.log(JSON.stringify({ doubled: double(new Holder(21).value), core }));',
      ].join('\n'),
    );
    const out = spawnSync(
      process.execPath,
      ['--import', './conformance/register-ts.mjs', join(dir, 'main.ts')],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      },
    );
    expect(out.status === 0, `register-ts runs a .ts file: ${out.stderr}`);
    const result = JSON.parse(out.stdout);
    expect(result.doubled === 42, 'register-ts maps ./x.js to ./x.ts and strips types');
    expect(
      result.core.endsWith('/packages/core/src/index.ts'),
      `@mcpkit/* resolves to source (${result.core})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function checkPassRule() {
  const ok = { id: 'a', status: 'SUCCESS' };
  const bad = { id: 'b', status: 'FAILURE', errorMessage: 'broken' };
  const warn = { id: 'c', status: 'WARNING', errorMessage: 'meh' };
  const info = { id: 'd', status: 'INFO' };
  expect(judgeScenario({ checks: [ok, info] }).passed, 'SUCCESS + INFO passes');
  expect(!judgeScenario({ checks: [info] }).passed, 'INFO only fails (no SUCCESS)');
  expect(!judgeScenario({ checks: [] }).passed, 'zero checks fail');
  expect(!judgeScenario({ checks: [ok, bad] }).passed, 'any FAILURE fails');
  expect(judgeScenario({ checks: [ok, warn] }).passed, 'WARNING alone does not fail');
  expect(!judgeScenario({ checks: [ok, warn], strictWarnings: true }).passed, 'WARNING fails with --strict');
  expect(!judgeScenario({ checks: [warn] }).passed, 'WARNING only (no SUCCESS) fails');
  expect(!judgeScenario({ checks: undefined, exitCode: 1 }).passed, 'missing checks.json fails');
  expect(!judgeScenario({ checks: [ok], timedOut: true }).passed, 'timeout fails');
  expect(!judgeScenario({ checks: [ok], clientExitCode: 2 }).passed, 'client exit code fails');
  expect(!judgeScenario({ checks: [ok], clientTimedOut: true }).passed, 'client timeout fails');
  expect(
    parseClientOutcome('⚠️  CLIENT EXITED WITH ERROR (code 7) -').clientExitCode === 7,
    'client exit parsed',
  );
  expect(parseClientOutcome('⚠️  CLIENT TIMED OUT - Test incomplete').clientTimedOut, 'client timeout parsed');
  const listed = parseScenarioList(
    'Server scenarios (test against a server):\n  - ping [2025-06-18]\n  - a-b\n\nx',
  );
  expect(listed.join(',') === 'ping,a-b', 'scenario list parsed');
}

const node22 = ensureNode22();
expect(
  majorOf(spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout) >= 22,
  'node22 binary is >= 22',
);
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-selftest-'));
try {
  checkListen(node22, scratch);
  checkListen(process.execPath, scratch);
  checkTypeScriptHooks();
  checkPassRule();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`selftest: ${passed} checks passed (node22: ${node22})`);
