#!/usr/bin/env node
/**
 * The official server suite through the gateway: the fixture server runs as the one upstream of
 * `mcpkit gateway --http`, and `run.mjs --server-only` drives the gateway instead of the fixture.
 * The score must equal the direct run's (`npm run conformance -- --server-only`).
 *
 *   node conformance/gateway.mjs [run.mjs options, e.g. --scenario tools-call-sampling --keep]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TS = ['--import', './conformance/register-ts.mjs'];

/** Starts the fixture server on a free port; resolves with the child and its URL. */
function startFixture() {
  const child = spawn(process.execPath, [...TS, 'conformance/fixture-server.ts', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(log);
      if (found) resolve({ child, url: found[1] });
    });
    child.once('exit', (code) => reject(new Error(`fixture server exited (${code}):\n${log}`)));
  });
}

const dir = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-gateway-'));
const fixture = await startFixture();
let code = 1;
try {
  const config = join(dir, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: { fixture: { url: fixture.url } } }));
  const gateway = `node ${TS.join(' ')} packages/cli/src/main.ts gateway --config ${config} --http --port {port}`;
  const run = spawn(
    process.execPath,
    ['conformance/run.mjs', '--server-only', '--server-cmd', gateway, ...process.argv.slice(2)],
    { cwd: ROOT, stdio: 'inherit' },
  );
  code = await new Promise((resolve) => run.once('exit', (exit) => resolve(exit ?? 1)));
} finally {
  fixture.child.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = code;
