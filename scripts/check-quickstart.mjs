#!/usr/bin/env node
/**
 * CI check of the README quickstart: `npm start` really serves the demo server over Streamable
 * HTTP, prints how to connect, and answers tool calls, from the mcpkit CLI and from McpClient.
 *
 * Run after `npm ci` (which builds dist/):  node scripts/check-quickstart.mjs
 * Exits 0 when every check passed; otherwise prints what failed and exits 1.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'packages/cli/bin/mcpkit.js');
const START_TIMEOUT_MS = 60_000;
const run = promisify(execFile);

function fail(message) {
  console.error(`check-quickstart: FAILED: ${message}`);
  process.exitCode = 1;
}

/** Starts `npm start` in its own process group, so the whole tree can be stopped. */
function startServer() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['start'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL printed within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    const read = (chunk) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with code ${code} before serving`));
    });
  });
  return { child, url, output: () => output };
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      child.kill('SIGINT');
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 5000).unref();
  });
}

async function checkWithCli(url) {
  const { stdout } = await run(process.execPath, [BIN, 'call', '--json', url, 'echo', 'text=quickstart'], {
    cwd: ROOT,
    timeout: 30_000,
  });
  const result = JSON.parse(stdout);
  const text = result?.content?.[0]?.text;
  if (text !== 'quickstart') throw new Error(`mcpkit call echo answered ${JSON.stringify(result)}`);
  console.log(`check-quickstart: mcpkit call ${url} echo text=quickstart -> "${text}"`);
}

async function checkWithClient(url) {
  const { McpClient } = await import('@mcpkit/client');
  const { connectHttp } = await import('@mcpkit/client/http');
  const client = new McpClient({ name: 'check-quickstart', version: '1.0.0' });
  await connectHttp(client, url);
  try {
    const result = await client.callTool('add', { a: 2, b: 3 });
    const text = result.content?.[0]?.text;
    if (text !== '5') throw new Error(`add(2, 3) answered ${JSON.stringify(result)}`);
    console.log(`check-quickstart: McpClient callTool add(2, 3) -> "${text}"`);
  } finally {
    await client.close();
  }
}

const server = startServer();
try {
  const url = await server.url;
  console.log(`check-quickstart: npm start is serving ${url}`);
  if (!server.output().includes('npx mcpkit list')) throw new Error('npm start did not print how to connect');
  await checkWithCli(url);
  await checkWithClient(url);
  console.log('check-quickstart: OK');
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
  console.error(server.output());
} finally {
  await stopServer(server.child);
}
