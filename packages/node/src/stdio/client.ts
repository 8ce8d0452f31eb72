/**
 * The client side of the stdio transport: spawn the server and talk to it over its stdin/stdout.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  ConnectionClosedError,
  DEFAULT_MAX_INCOMING_PER_SECOND,
  DEFAULT_MAX_JSON_DEPTH,
  type JsonRpcMessage,
  type MessageSink,
  type SendOptions,
  type Transport,
} from '@mcpkit/core';
import { IncomingRateLimit } from '@mcpkit/core/internal';
import {
  DEFAULT_MAX_WRITE_QUEUE_BYTES,
  type StdioClientOptions,
  type StdioExitStatus,
} from './clientOptions.js';
import { buildChildEnvironment } from './environment.js';
import { DEFAULT_MAX_MESSAGE_BYTES, jsonLineHandler, type LineHandler, LineReader } from './lineReader.js';
import { LineWriter, lineBytesOf } from './lineWriter.js';
import { PacedSink } from './pacedSink.js';
import { exitFailure, planSpawn, type StdioServerProcessError, spawnFailure } from './spawn.js';
import { StderrCapture } from './stderrCapture.js';

const DEFAULT_GRACE_MS = 2000;
/**
 * After the process exits, how long to wait for its pipes to close. A grandchild that inherited
 * them can hold them open forever; we stop waiting and close our ends.
 */
const PIPE_CLOSE_GRACE_MS = 1000;
/** How long a failed stdin write waits for the server to exit and say why (see onStdinError). */
const STDIN_ERROR_GRACE_MS = 1000;

/**
 * Spawns an MCP server and exchanges newline-delimited JSON with it over stdin/stdout.
 *
 * `close()` follows the spec's shutdown order: close the server's stdin, wait, `SIGTERM`, wait,
 * `SIGKILL`. If the server exits on its own, the connection closes with a
 * {@link StdioServerProcessError} saying how (exit code or signal, plus its last stderr line).
 *
 * On Windows, a command that resolves to a `.cmd`/`.bat` shim (such as `npx`) runs through
 * `cmd.exe`; signals then reach `cmd.exe` only, so such servers should exit when stdin closes.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@mcpkit/node/stdio';
 *
 * const transport = new StdioClientTransport({
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-everything'],
 *   env: { API_KEY: process.env.API_KEY },
 *   onStderr: (text) => process.stderr.write(text),
 * });
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * await client.connect(transport);
 * ```
 */
export class StdioClientTransport implements Transport {
  readonly networkTransport = 'pipe';
  /**
   * The server's stderr when `stderr` is `'pipe'`, otherwise `null`. Available before `start()`.
   * Output is only buffered here once someone reads it (a `data` listener, `pipe`, or iteration),
   * so an unread stream never stalls the server.
   */
  readonly stderr: Readable | null;

  readonly #options: StdioClientOptions;
  readonly #stderrCapture: StderrCapture | null;
  #child: ChildProcess | undefined;
  #sink: MessageSink | undefined;
  #writer: LineWriter | undefined;
  #reader: LineReader | undefined;
  #exit: StdioExitStatus | undefined;
  #startFailure: StdioServerProcessError | undefined;
  #pipeCloseTimer: NodeJS.Timeout | undefined;
  #resumeTimer: NodeJS.Timeout | undefined;
  #stdinErrorTimer: NodeJS.Timeout | undefined;
  /** Set once the process closed: what is held back is delivered without pacing. */
  #draining = false;
  #isClosed = false;
  #closeRequested = false;
  #closing: Promise<void> | undefined;
  readonly #exited: Promise<void>;
  readonly #finished: Promise<void>;
  #markExited!: () => void;
  #markFinished!: () => void;

  constructor(options: StdioClientOptions) {
    this.#options = options;
    this.#stderrCapture = (options.stderr ?? 'pipe') === 'pipe' ? new StderrCapture(options.onStderr) : null;
    this.stderr = this.#stderrCapture?.out ?? null;
    this.#exited = new Promise((resolve) => {
      this.#markExited = resolve;
    });
    this.#finished = new Promise((resolve) => {
      this.#markFinished = resolve;
    });
  }

  /** The server's process id, once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server exited, once it has. */
  get exitStatus(): StdioExitStatus | undefined {
    return this.#exit;
  }

  /**
   * Spawns the server. Resolves once the process is running; rejects with a
   * {@link StdioServerProcessError} (also passed to `sink.closed`) if it cannot be started.
   */
  start(sink: MessageSink): Promise<void> {
    if (this.#sink) return Promise.reject(new Error('The stdio client transport is already started'));
    if (this.#closeRequested) return Promise.reject(new Error('The stdio client transport is closed'));
    this.#sink = sink;
    const { command, cwd } = this.#options;
    let child: ChildProcess;
    try {
      child = this.#spawnChild();
    } catch (error) {
      const failure = spawnFailure(command, cwd, error);
      this.#finish(failure);
      return Promise.reject(failure);
    }
    this.#child = child;
    this.#reader = new LineReader(
      this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      this.#lineHandler(sink, command),
    );
    // Each request leaves at once, so the server starts on it while we prepare the next one;
    // with coalesceWrites the tick's requests leave in one write (after its first, 'after-first').
    this.#writer = new LineWriter(child.stdin!, {
      coalesce: this.#options.coalesceWrites ?? false,
      maxQueuedChars: this.#options.maxWriteQueueBytes ?? DEFAULT_MAX_WRITE_QUEUE_BYTES,
      onOverflow: (error) => this.#abort(error),
      onLineBytes: lineBytesOf(sink),
    });
    this.#listen(child);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      // Registered after onChildError, which has already recorded the failure.
      child.once('error', () => {
        if (this.#startFailure) reject(this.#startFailure);
      });
    });
  }

  /** Writes one message (or batch) to the server's stdin; returns the shared drain promise when blocked. */
  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): void | Promise<void> {
    if (!this.#writer) throw new Error('The stdio client transport is not started');
    if (this.#isClosed) throw new Error('The stdio client transport is closed');
    // Shutting down: what is still sent (answers to a flood of the server's requests, say) is
    // dropped quietly; requests still waiting fail when the connection closes.
    if (this.#closeRequested) return;
    return this.#writer.write(message);
  }

  /**
   * Shuts the server down: closes its stdin, waits `afterStdinClose`, sends `SIGTERM`, waits
   * `afterSigterm`, sends `SIGKILL`. Resolves once the process has exited.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /**
   * Parses lines into `sink`, slowing a server that floods requests or notifications down to
   * `maxIncomingPerSecond`, and closing the connection on an oversized message.
   */
  #lineHandler(sink: MessageSink, command: string): LineHandler {
    const perSecond = this.#options.maxIncomingPerSecond ?? DEFAULT_MAX_INCOMING_PER_SECOND;
    const limit = new IncomingRateLimit(perSecond, (error) => sink.error(error));
    const source = `the stdout of "${command}"`;
    // A message nested past maxJsonDepth cannot be parsed to learn which request it answers, so
    // that request would wait out its timeout: like an oversized one, it closes the connection.
    const maxDepth = this.#options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    const guarded = new PacedSink(sink, {
      delivered: (value) => {
        const pause = limit.admit(value);
        if (pause > 0) this.#pauseReading(pause);
      },
      tooDeep: () =>
        this.#abort(
          new Error(
            `The server sent a message on ${source} nested deeper than the limit of ${maxDepth} levels (maxJsonDepth)`,
          ),
        ),
    });
    const lines = jsonLineHandler(guarded, source, maxDepth);
    return {
      line: (text) => lines.line(text),
      oversize: (max) =>
        this.#abort(
          new Error(
            `The server sent a message on ${source} larger than the ${max}-byte limit (maxMessageBytes)`,
          ),
        ),
    };
  }

  #pauseReading(ms: number): void {
    if (this.#resumeTimer !== undefined || this.#isClosed || this.#draining) return;
    this.#reader!.pause();
    this.#child?.stdout?.pause();
    this.#resumeTimer = setTimeout(this.#resumeReading, ms);
  }

  readonly #resumeReading = (): void => {
    this.#resumeTimer = undefined;
    this.#child?.stdout?.resume();
    this.#reader!.resume();
  };

  /**
   * Closes the connection at once with `error` (every pending request fails with it) and stops
   * the server: a peer that broke the stream's limits cannot be talked to any more.
   */
  #abort(error: Error): void {
    if (this.#isClosed) return;
    this.#closeRequested = true;
    const child = this.#child;
    this.#finish(error);
    if (!child) return;
    child.stdout?.destroy();
    child.stdin?.destroy();
    if (this.#exit) return;
    child.kill('SIGTERM');
    const grace = this.#options.shutdownTimeouts?.afterSigterm ?? DEFAULT_GRACE_MS;
    setTimeout(() => {
      if (!this.#exit) child.kill('SIGKILL');
    }, grace).unref();
  }

  #spawnChild(): ChildProcess {
    const { command, args = [], cwd } = this.#options;
    const env = buildChildEnvironment(this.#options.inheritEnv, this.#options.env);
    const plan = planSpawn(command, args, {
      platform: process.platform,
      cwd: cwd ?? process.cwd(),
      env,
      exists: existsSync,
    });
    return spawn(plan.file, plan.args, {
      cwd,
      env,
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: plan.windowsVerbatimArguments,
      stdio: ['pipe', 'pipe', this.#options.stderr ?? 'pipe'],
    });
  }

  #listen(child: ChildProcess): void {
    child.on('error', this.#onChildError);
    child.on('exit', this.#onExit);
    child.on('close', this.#onClose);
    child.stdout!.on('data', this.#onStdoutData);
    child.stdout!.on('end', this.#onStdoutEnd);
    // EPIPE when the server exits while we write: its exit is what gets reported.
    child.stdin!.on('error', this.#onStdinError);
    child.stdout!.on('error', this.#onPipeError);
    const stderr = child.stderr;
    if (stderr) this.#stderrCapture!.attach(stderr, this.#sink!, this.#onPipeError);
  }

  readonly #onStdoutData = (chunk: Buffer): void => {
    this.#reader!.push(chunk);
  };

  readonly #onStdoutEnd = (): void => {
    this.#reader!.end();
  };

  readonly #onChildError = (error: Error): void => {
    if (this.#child?.pid === undefined) {
      this.#startFailure = spawnFailure(this.#options.command, this.#options.cwd, error);
      this.#finish(this.#startFailure);
      this.#markExited();
      return;
    }
    // E.g. kill() failed; the process is still there.
    this.#sink?.error(error);
  };

  /**
   * A write to the server's stdin failed (EPIPE: the server closed it, usually because it is
   * exiting). Failing the pending requests now would race the exit event and hide the reason the
   * user needs (exit code, stderr tail), so the connection is given a short grace to close with
   * that reason; only a server that stays alive with its stdin shut is cut off with this error.
   */
  readonly #onStdinError = (error: Error): void => {
    if (this.#isClosed || this.#stdinErrorTimer !== undefined) return;
    this.#stdinErrorTimer = setTimeout(() => {
      this.#abort(
        new ConnectionClosedError(`Could not write to the MCP server process: ${error.message}`, error),
      );
    }, STDIN_ERROR_GRACE_MS);
    this.#stdinErrorTimer.unref();
  };

  readonly #onPipeError = (error: Error): void => {
    this.#sink?.error(error);
  };

  readonly #onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.#exit = { code, signal };
    this.#markExited();
    const child = this.#child!;
    this.#pipeCloseTimer = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }, PIPE_CLOSE_GRACE_MS);
    this.#pipeCloseTimer.unref();
  };

  readonly #onClose = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.#exit ??= { code, signal };
    // Lines held back by pacing may hold answers: hand them over before the connection closes.
    this.#draining = true;
    if (this.#resumeTimer !== undefined) {
      clearTimeout(this.#resumeTimer);
      this.#resumeReading();
    }
    this.#markExited();
    clearTimeout(this.#pipeCloseTimer);
    this.#stderrCapture?.end();
    const { code: exitCode, signal: exitSignal } = this.#exit;
    this.#finish(
      this.#closeRequested
        ? undefined
        : exitFailure(this.#options.command, exitCode, exitSignal, this.#stderrCapture?.tail ?? ''),
    );
  };

  async #shutdown(): Promise<void> {
    this.#closeRequested = true;
    const child = this.#child;
    if (!child || this.#isClosed) {
      this.#finish(undefined);
      return;
    }
    this.#writer!.end();
    const timeouts = this.#options.shutdownTimeouts;
    if (!(await this.#exitsWithin(timeouts?.afterStdinClose ?? DEFAULT_GRACE_MS))) {
      child.kill('SIGTERM');
      if (!(await this.#exitsWithin(timeouts?.afterSigterm ?? DEFAULT_GRACE_MS))) child.kill('SIGKILL');
    }
    await this.#finished;
  }

  #exitsWithin(ms: number): Promise<boolean> {
    if (this.#exit || this.#isClosed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.#exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #finish(error: Error | undefined): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    clearTimeout(this.#stdinErrorTimer);
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = undefined;
    this.#writer?.fail(error ?? new Error('The stdio client transport is closed'));
    this.#writer?.detach();
    this.#markFinished();
    this.#sink?.closed(error);
  }
}
