/**
 * Child-process plumbing: every process the harness starts has its stderr captured, so warnings
 * (MaxListenersExceededWarning and friends) are reported instead of scrolling by.
 * @module
 */
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';

/** Lines that count as a warning: Node's `(node:123) XxxWarning: ...` format, and any other `...Warning` word. */
const WARNING_LINE = /Warning\b/;

/**
 * Warning lines in captured stderr text, deduplicated and without the pid prefix.
 * @param {string} text
 * @example
 * findWarnings('(node:7) MaxListenersExceededWarning: ...'); // ['MaxListenersExceededWarning: ...']
 */
export function findWarnings(text) {
  const lines = text.split('\n').filter((line) => WARNING_LINE.test(line));
  return [...new Set(lines.map((line) => line.replace(/^\(node:\d+\)\s*/, '').trim()))];
}

/**
 * Collects a readable stream's text.
 * @param {import('node:stream').Readable | null} stream
 */
function collect(stream) {
  const state = { text: '' };
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk) => {
    // Bounded so a chatty server cannot exhaust the harness's memory.
    if (state.text.length < 1_000_000) state.text += chunk;
  });
  return state;
}

/**
 * A started server process with captured output.
 * @typedef {object} ServerProcess
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} port
 * @property {() => string} stderr
 * @property {(type: string, payload?: object, timeoutMs?: number) => Promise<any>} request IPC round trip
 * @property {() => Promise<void>} stop
 */

/**
 * Starts a Node script that prints `READY <port>` when it is listening, with the memory agent preloaded
 * and `--expose-gc`, and waits for that line. `nodeArgs` go before the script (e.g. `--cpu-prof`; the
 * agent then exits on SIGTERM so the profile gets written), `args` after it. A script that prints no
 * such line (someone else's command-line tool) is given `port` to listen on instead, and is ready
 * when that port takes a connection.
 * @param {{ script: string, args?: string[], port?: number, env?: NodeJS.ProcessEnv, cwd?: string, agent: string, timeoutMs?: number, nodeArgs?: string[] }} options
 * @returns {Promise<ServerProcess>}
 * @example
 * const server = await startServer({ script, agent, env: { BENCH_HTTP_MODE: 'json' } });
 */
export async function startServer({
  script,
  args = [],
  port: givenPort,
  env,
  cwd,
  agent,
  timeoutMs = 20_000,
  nodeArgs = [],
}) {
  const profiling = nodeArgs.length > 0 ? { BENCH_EXIT_ON_SIGTERM: '1' } : {};
  const child = spawn(process.execPath, ['--expose-gc', ...nodeArgs, '--import', agent, script, ...args], {
    cwd,
    env: { ...process.env, ...env, ...profiling },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const stderr = collect(child.stderr);
  const stdout = collect(child.stdout);
  const exited = once(child, 'exit');
  let nextRequestId = 0;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };
  const port = await new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        fail(
          new Error(
            `${script} did not ${givenPort ? `listen on ${givenPort}` : 'print READY'} within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
    const onData = () => {
      const match = /READY (\d+)/.exec(stdout.text);
      if (match) finish(Number(match[1]));
    };
    if (givenPort !== undefined) {
      const poll = () => {
        if (settled) return;
        const socket = connect(givenPort, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          finish(givenPort);
        });
        socket.once('error', () => setTimeout(poll, 100));
      };
      poll();
    }
    const onExit = (code) =>
      fail(new Error(`${script} exited with ${code} before READY: ${stderr.text.trim()}`));
    function finish(value) {
      settled = true;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      resolve(value);
    }
    function fail(error) {
      settled = true;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      stop().then(() => reject(error), reject);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  /** @type {ServerProcess['request']} */
  const request = (type, payload = {}, requestTimeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const id = ++nextRequestId;
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`no ${type} reply from ${script}`));
      }, requestTimeoutMs);
      function onMessage(message) {
        if (message?.type !== type || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      }
      child.on('message', onMessage);
      child.send({ type, id, ...payload });
    });
  return { child, port, stderr: () => stderr.text, request, stop };
}

/**
 * Runs a worker script (forked with an IPC channel), hands it one task, and returns its one reply along
 * with everything it wrote to stderr. A worker that does not exit soon after replying is killed and
 * reported, because that means the code under test left a handle open.
 * @param {string} script
 * @param {object} task
 * @param {{ timeoutMs: number, cwd?: string, execArgv?: string[], env?: Record<string, string> }} options (`env`: added to this process's)
 * @returns {Promise<{ reply: any, stderr: string, notes: string[] }>}
 * @example
 * const { reply } = await runWorker(callWorker, { driver, rows }, { timeoutMs: 60_000 });
 */
export async function runWorker(script, task, { timeoutMs, cwd, execArgv = [], env }) {
  const child = fork(script, [], { cwd, silent: true, execArgv, env: env && { ...process.env, ...env } });
  const stderr = collect(child.stderr);
  collect(child.stdout);
  const exited = once(child, 'exit');
  /** @type {string[]} */
  const notes = [];
  try {
    const reply = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker timed out after ${timeoutMs} ms`)), timeoutMs);
      child.once('message', (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`worker exited (${signal ?? code}) without a reply: ${lastLines(stderr.text)}`));
      });
      child.send(task);
    });
    const killTimer = setTimeout(() => {
      notes.push('worker did not exit within 5 s after finishing (an open handle after close()); killed');
      child.kill('SIGKILL');
    }, 5_000);
    await exited;
    clearTimeout(killTimer);
    return { reply, stderr: stderr.text, notes };
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw Object.assign(/** @type {Error} */ (error), { stderr: stderr.text });
  }
}

/**
 * Runs a command to completion and returns its output.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 * @example
 * const { stdout } = await runCommand('npm', ['--version']);
 */
export async function runCommand(command, args, { cwd, env, timeoutMs = 300_000 } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * The last few lines of some output, for error messages.
 * @param {string} text
 * @param {number} [count]
 * @example
 * lastLines('a\nb\nc', 2); // 'b | c'
 */
export function lastLines(text, count = 5) {
  return text.trim().split('\n').slice(-count).join(' | ');
}
