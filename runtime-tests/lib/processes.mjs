/** Child processes of the runtime tests: started, read line by line, and always ended. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A started process whose output is kept. `line(predicate)` waits for a stdout line.
 *
 * @example
 * const server = start('bun', ['server.mjs'], { cwd: app });
 * const ready = JSON.parse(await server.line((l) => l.startsWith('{')));
 * await server.stop();
 */
export function start(command, args, { cwd, env } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve(code ?? signal)));
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output.stderr += chunk));
  child.once('error', (error) => (output.stderr += `spawn failed: ${error.message}\n`));
  return {
    output,
    exited,
    /** The first stdout line matching `predicate`; rejects if the process exits or `timeoutMs` passes. */
    async line(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let code;
      exited.then((value) => (code = value));
      while (Date.now() < deadline) {
        const found = output.stdout.split('\n').find(predicate);
        if (found) return found;
        if (code !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      child.kill('SIGKILL');
      throw new Error(`${command} ${args.join(' ')}: no expected output (exit ${code}):\n${tail(output)}`);
    },
    /** Ends the process (SIGTERM, then SIGKILL) and waits for it. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The last lines of a process's output, for error messages. */
export function tail(output) {
  return `${output.stdout.slice(-1500)}\n${output.stderr.slice(-2500)}`.trim();
}

/** A TCP port free on 127.0.0.1 right now (for workerd, which takes its addresses on the command line). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections at `url`, polling for up to `timeoutMs`. */
export async function listening(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { method: 'OPTIONS' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nothing listens at ${url} after ${timeoutMs} ms`);
}
