/**
 * Baseline stdio client: spawns the server, speaks newline-delimited JSON-RPC directly, matches responses
 * by id. It does a real `initialize` handshake, so it can also drive any MCP stdio server; the cold-start
 * scenario uses it as the neutral client for every implementation.
 * @module
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { echoCallRequest, INITIALIZED_NOTIFICATION, initializeRequest, PROBE_TEXT } from '../lib/echo.mjs';

/** @type {import('./driver.js').Connect} */
export async function connect({ command, args, cwd }) {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
  const pending = new Map();
  let nextId = 1;
  let partial = '';

  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const text = partial + chunk;
    let start = 0;
    let newline = text.indexOf('\n', start);
    while (newline !== -1) {
      const line = text.slice(start, newline);
      start = newline + 1;
      newline = text.indexOf('\n', start);
      if (line.length > 0) settle(JSON.parse(line));
    }
    partial = text.slice(start);
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`server exited with ${code}`));
    pending.clear();
  });

  function settle(message) {
    const waiter = pending.get(message.id);
    if (!waiter || message.method !== undefined) return;
    pending.delete(message.id);
    if (message.error)
      waiter.reject(new Error(`JSON-RPC error ${message.error.code}: ${message.error.message}`));
    else waiter.resolve(message.result);
  }

  function send(message) {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  function request(build) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send(build(id));
    });
  }

  await request((id) => initializeRequest(id));
  send(INITIALIZED_NOTIFICATION);
  return {
    call: (text = PROBE_TEXT) => request((id) => echoCallRequest(id, text)),
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
