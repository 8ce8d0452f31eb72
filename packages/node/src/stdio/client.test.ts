import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection, type JsonRpcMessage } from '@mcpkit/core';
import {
  DEFAULT_INHERITED_ENV_VARS,
  getDefaultEnvironment,
  type StdioClientOptions,
  StdioClientTransport,
  StdioServerProcessError,
} from '@mcpkit/node/stdio';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordingSink } from '../../../../tests/support/recordingSink.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const ECHO = fixture('echo.mjs');
const ENV = fixture('env.mjs');
const STUBBORN = fixture('stubborn.mjs');
const CRASH = fixture('crash.mjs');
const CHATTY = fixture('chatty.mjs');
const CHUNKS = fixture('chunks.mjs');
const NODE = process.execPath;

function note(n: number, text = ''): JsonRpcMessage {
  return { jsonrpc: '2.0', method: 'note', params: { n, text } };
}

const transports: StdioClientTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

async function started(options: StdioClientOptions) {
  const transport = new StdioClientTransport(options);
  transports.push(transport);
  const sink = recordingSink();
  await transport.start(sink);
  return { transport, sink };
}

function paramsOf(message: unknown): Record<string, unknown> {
  return (message as { params: Record<string, unknown> }).params;
}

describe('StdioClientTransport messaging', () => {
  it('round-trips messages through a child process, exposing its pid', async () => {
    const { transport, sink } = await started({ command: NODE, args: [ECHO] });
    expect(transport.pid).toBeTypeOf('number');
    transport.send(note(1, 'héllo\nwörld \u2028'));
    transport.send([note(2), note(3)]);
    await vi.waitFor(() => expect(sink.messages).toHaveLength(2));
    expect(sink.messages).toEqual([note(1, 'héllo\nwörld \u2028'), [note(2), note(3)]]);
    // The echo splits on raw newlines only by being a line protocol: no parse errors means no
    // raw line break left our side.
    expect(sink.parseErrors).toEqual([]);
  });

  it('round-trips a 10 MB message in both directions', async () => {
    const { transport, sink } = await started({ command: NODE, args: [ECHO] });
    const text = '0123456789✓'.repeat(1_000_000);
    await transport.send(note(1, text));
    await vi.waitFor(() => expect(sink.messages).toHaveLength(1), { timeout: 15_000 });
    expect(paramsOf(sink.messages[0]).text === text).toBe(true);
  });

  it('reports stray stdout text from the server as a parse error and keeps going', async () => {
    const script =
      'console.log("Listening on stdio..."); console.log(JSON.stringify({ jsonrpc: "2.0", method: "hi" }));';
    const { sink } = await started({ command: NODE, args: ['-e', script] });
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1));
    expect(sink.parseErrors).toHaveLength(1);
    expect(sink.parseErrors[0]!.message).toContain('Listening on stdio...');
    expect(sink.messages).toEqual([{ jsonrpc: '2.0', method: 'hi' }]);
  });

  it('an incoming message over maxMessageBytes closes the connection with an error naming the limit', async () => {
    const { transport, sink } = await started({ command: NODE, args: [ECHO], maxMessageBytes: 1000 });
    transport.send(note(1, 'z'.repeat(5000)));
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1));
    expect(sink.messages).toEqual([]);
    expect((sink.closes[0] as Error).message).toBe(
      `The server sent a message on the stdout of ${JSON.stringify(NODE)} larger than the 1000-byte limit (maxMessageBytes)`,
    );
    expect(() => transport.send(note(2))).toThrow(/closed/);
  });

  it('sends 50k messages into a server that is not reading yet: one shared promise, no listener warnings, in order', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // The echo turns each note into a notification from the server: no pacing for this bulk test.
      const { transport, sink } = await started({
        command: NODE,
        args: [ECHO, '--pause-ms', '300'],
        maxIncomingPerSecond: Number.POSITIVE_INFINITY,
      });
      const total = 50_000;
      const waits: Promise<void>[] = [];
      const distinct = new Set<Promise<void>>();
      for (let n = 0; n < total; n++) {
        const pending = transport.send(note(n));
        if (pending) {
          distinct.add(pending);
          waits.push(pending.then(() => undefined));
        }
      }
      expect(waits.length).toBeGreaterThan(total / 2);
      expect(distinct.size).toBeLessThan(waits.length / 100);
      await Promise.all(waits);
      await vi.waitFor(() => expect(sink.messages).toHaveLength(total), { timeout: 15_000 });
      expect(sink.messages.every((message, index) => paramsOf(message).n === index)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.removeListener('warning', onWarning);
    }
  });

  it('refuses to send before start, and start() twice', async () => {
    const transport = new StdioClientTransport({ command: NODE, args: [ECHO] });
    transports.push(transport);
    expect(() => transport.send(note(1))).toThrow(/not started/);
    await transport.start(recordingSink());
    await expect(transport.start(recordingSink())).rejects.toThrow(/already started/);
  });
});

describe('StdioClientTransport coalesceWrites', () => {
  /**
   * Sends one note, blocks this thread long enough for the child to read whatever reached the
   * pipe, then sends 49 more in the same tick; returns the line counts of the child's reads.
   */
  async function burst(coalesceWrites: boolean | 'after-first'): Promise<number[]> {
    const { transport, sink } = await started({ command: NODE, args: [CHUNKS], coalesceWrites });
    transport.send(note(0)); // the child is reading once it has answered
    await vi.waitFor(() => expect(sink.messages).toHaveLength(1));
    transport.send(note(1));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    for (let n = 2; n <= 50; n++) transport.send(note(n));
    const lines = () => sink.messages.slice(1).map((message) => paramsOf(message).lines as number);
    await vi.waitFor(() => expect(lines().reduce((a, b) => a + b, 0)).toBe(50));
    return lines();
  }

  it('true: the lines of a tick leave in one write at its end', async () => {
    expect(await burst(true)).toEqual([50]);
  });

  it("'after-first': the tick's first line leaves at once, the others together", async () => {
    expect(await burst('after-first')).toEqual([1, 49]);
  });
});

describe('StdioClientTransport environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  async function childEnvironment(
    options: Omit<StdioClientOptions, 'command'>,
  ): Promise<Record<string, string>> {
    const { sink } = await started({ command: NODE, args: [ENV], ...options });
    await vi.waitFor(() => expect(sink.messages).toHaveLength(1));
    return paramsOf(sink.messages[0]) as Record<string, string>;
  }

  it('passes only the safe default variables plus the ones given', async () => {
    process.env.MCPKIT_TEST_SECRET = 'do-not-leak';
    const env = await childEnvironment({ env: { API_KEY: 'given' } });
    expect(env).toEqual({ ...getDefaultEnvironment(), API_KEY: 'given' });
    expect(env.MCPKIT_TEST_SECRET).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
    for (const name of Object.keys(env)) {
      if (name !== 'API_KEY') expect(DEFAULT_INHERITED_ENV_VARS).toContain(name);
    }
  });

  it('skips exported shell functions, and lets env remove an inherited variable', async () => {
    process.env.MCPKIT_TEST_FN = '() { echo pwned; }';
    process.env.MCPKIT_TEST_PLAIN = 'plain';
    const env = await childEnvironment({
      inheritEnv: ['MCPKIT_TEST_FN', 'MCPKIT_TEST_PLAIN', 'PATH', 'HOME'],
      env: { HOME: undefined },
    });
    expect(env).toEqual({ MCPKIT_TEST_PLAIN: 'plain', PATH: process.env.PATH });
  });

  it('inherits nothing with inheritEnv: false, and everything with inheritEnv: true', async () => {
    process.env.MCPKIT_TEST_SECRET = 'visible-on-request';
    expect(await childEnvironment({ inheritEnv: false, env: { ONLY: 'this' } })).toEqual({ ONLY: 'this' });
    const everything = await childEnvironment({ inheritEnv: true });
    expect(everything.MCPKIT_TEST_SECRET).toBe('visible-on-request');
  });
});

describe('StdioClientTransport stderr', () => {
  it('keeps reading stderr nobody consumes, so a chatty server never stalls', async () => {
    const { transport, sink } = await started({ command: NODE, args: [CHATTY, '2000000'] });
    transport.send(note(1));
    await vi.waitFor(() => expect(sink.messages).toEqual([note(1)]), { timeout: 10_000 });
    expect(sink.closes).toEqual([]);
  });

  it('hands stderr text to onStderr, intact across chunk boundaries, without treating it as failure', async () => {
    const pieces: string[] = [];
    const { transport, sink } = await started({
      command: NODE,
      args: [CHATTY, '300000'],
      onStderr: (text) => pieces.push(text),
    });
    transport.send(note(1));
    await vi.waitFor(() => expect(pieces.join('')).toContain('done-logging\n'));
    const text = pieces.join('');
    expect(pieces.length).toBeGreaterThan(1);
    expect(text).not.toContain('\uFFFD');
    expect(
      text.split('\n').filter((line) => line === 'log: ünïcødé ✓ 日本語 — progress').length,
    ).toBeGreaterThan(5000);
    await vi.waitFor(() => expect(sink.messages).toEqual([note(1)]));
    expect(sink.errors).toEqual([]);
    expect(sink.closes).toEqual([]);
  });

  it('exposes stderr as a readable stream before start', async () => {
    const transport = new StdioClientTransport({ command: NODE, args: [CHATTY, '10000'] });
    transports.push(transport);
    const chunks: Buffer[] = [];
    transport.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk));
    await transport.start(recordingSink());
    await vi.waitFor(() => expect(Buffer.concat(chunks).toString('utf8')).toContain('done-logging\n'));
  });

  it('has no stderr stream with stderr: "ignore"', async () => {
    const { transport, sink } = await started({ command: NODE, args: [CHATTY, '10000'], stderr: 'ignore' });
    expect(transport.stderr).toBeNull();
    transport.send(note(1));
    await vi.waitFor(() => expect(sink.messages).toEqual([note(1)]));
  });
});

describe('StdioClientTransport shutdown', () => {
  function stderrLines() {
    const lines: string[] = [];
    let partial = '';
    const onStderr = (text: string) => {
      const parts = (partial + text).split('\n');
      partial = parts.pop()!;
      lines.push(...parts);
    };
    return { lines, onStderr };
  }

  it('lets a well-behaved server exit when its stdin closes, with no signal', async () => {
    const { transport, sink } = await started({ command: NODE, args: [ECHO] });
    await transport.close();
    // No clock: had close() waited out afterStdinClose, the exit would show SIGTERM.
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    expect(sink.closes).toEqual([null]);
    expect(() => transport.send(note(1))).toThrow(/closed/);
  });

  it('sends SIGTERM to a server that ignores stdin closing, after afterStdinClose', async () => {
    const stderr = stderrLines();
    const { transport, sink } = await started({
      command: NODE,
      args: [STUBBORN],
      onStderr: stderr.onStderr,
      shutdownTimeouts: { afterStdinClose: 400, afterSigterm: 5000 },
    });
    await vi.waitFor(() => expect(stderr.lines).toContain('ready'));
    const before = Date.now();
    await transport.close();
    const elapsed = Date.now() - before;
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGTERM' });
    expect(elapsed).toBeGreaterThanOrEqual(390); // not before afterStdinClose; SIGKILL would show if it waited afterSigterm
    expect(stderr.lines).toContain('stdin-closed');
    expect(sink.closes).toEqual([null]);
  });

  it('escalates to SIGKILL when the server also ignores SIGTERM', async () => {
    const stderr = stderrLines();
    const { transport, sink } = await started({
      command: NODE,
      args: [STUBBORN, 'ignore-sigterm'],
      onStderr: stderr.onStderr,
      shutdownTimeouts: { afterStdinClose: 300, afterSigterm: 300 },
    });
    await vi.waitFor(() => expect(stderr.lines).toContain('ready'));
    const pid = transport.pid!;
    const before = Date.now();
    await transport.close();
    expect(Date.now() - before).toBeGreaterThanOrEqual(590);
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGKILL' });
    expect(stderr.lines).toEqual(['ready', 'stdin-closed', 'sigterm']);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(sink.closes).toEqual([null]);
  });

  it('resolves close() before start without spawning anything', async () => {
    const transport = new StdioClientTransport({ command: NODE, args: [ECHO] });
    await transport.close();
    expect(transport.pid).toBeUndefined();
    await expect(transport.start(recordingSink())).rejects.toThrow(/closed/);
  });
});

describe('StdioClientTransport failures', () => {
  it('closes with a clear error when the server exits, quoting its last stderr line', async () => {
    const { transport, sink } = await started({ command: NODE, args: [CRASH, '3'] });
    transport.send(note(1));
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1));
    const error = sink.closes[0] as StdioServerProcessError;
    expect(error).toBeInstanceOf(StdioServerProcessError);
    expect(error.message).toBe(
      `MCP server process "${NODE}" exited with code 3; last stderr output: fatal: database unreachable`,
    );
    expect(error.exitCode).toBe(3);
    expect(error.signal).toBeNull();
    expect(error.stderrTail).toContain('starting up\n');
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
  });

  it('names the signal when the server is killed', async () => {
    const { transport, sink } = await started({ command: NODE, args: [CRASH, 'signal'], stderr: 'ignore' });
    transport.send(note(1));
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1));
    expect(sink.closes[0]!.message).toBe(`MCP server process "${NODE}" was killed by signal SIGKILL`);
  });

  it('fails pending requests of a Connection with the exit reason', async () => {
    const transport = new StdioClientTransport({ command: NODE, args: [CRASH, '7'] });
    transports.push(transport);
    const connection = new Connection(transport, { onRequest: () => ({}), onNotification: () => {} });
    await connection.start();
    await expect(connection.request('ping')).rejects.toThrow(/exited with code 7; last stderr output: fatal/);
  });

  it('rejects start() with a helpful message when the command does not exist', async () => {
    const transport = new StdioClientTransport({ command: 'mcpkit-no-such-server-xyz', args: ['--stdio'] });
    transports.push(transport);
    const sink = recordingSink();
    const failure = await transport.start(sink).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StdioServerProcessError);
    expect((failure as Error).message).toBe(
      'Could not start the MCP server process "mcpkit-no-such-server-xyz": ENOENT (command not found) — is it installed and on PATH?',
    );
    expect(sink.closes).toEqual([failure]);
    expect(() => transport.send(note(1))).toThrow();
  });

  it('says so when the working directory does not exist', async () => {
    const transport = new StdioClientTransport({
      command: NODE,
      args: [ECHO],
      cwd: '/nonexistent/mcpkit-dir',
    });
    transports.push(transport);
    await expect(transport.start(recordingSink())).rejects.toThrow(
      `Could not start the MCP server process "${NODE}": the working directory "/nonexistent/mcpkit-dir" does not exist`,
    );
  });
});

describe('both transports end to end over real process stdio', () => {
  let directory: string;
  let serverScript: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'mcpkit-stdio-'));
    serverScript = path.join(directory, 'server.mjs');
    // The package exports TypeScript sources; bundle the fixture so plain node can run it.
    await build({
      entryPoints: [fixture('server.mjs')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@mcpkit/source'],
      outfile: serverScript,
      logLevel: 'silent',
    });
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('serves on process.stdin/stdout, and the server exits by itself once its stdin closes', async () => {
    const stderr: string[] = [];
    const { transport, sink } = await started({
      command: NODE,
      args: [serverScript],
      onStderr: (text) => stderr.push(text),
      shutdownTimeouts: { afterStdinClose: 5000 },
    });
    const big = 'ü'.repeat(3_000_000);
    transport.send(note(1, 'first'));
    transport.send(note(2, big));
    transport.send(note(3, 'line\nbreak'));
    await vi.waitFor(() => expect(sink.messages).toHaveLength(3), { timeout: 15_000 });
    expect(sink.messages.map((message) => paramsOf(message).value)).toEqual([
      note(1, 'first'),
      note(2, big),
      note(3, 'line\nbreak'),
    ]);
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 0, signal: null }); // it left on its own, no signal
    expect(stderr.join('')).toBe('closed\n');
  });

  it('lets the server process exit when the server closes its transport while stdin is still open', async () => {
    const { transport, sink } = await started({ command: NODE, args: [serverScript] });
    transport.send({ jsonrpc: '2.0', method: 'shutdown' });
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1), { timeout: 5000 });
    expect(sink.closes[0]!.message).toBe(
      `MCP server process "${NODE}" exited with code 0; last stderr output: closed`,
    );
  });
});
