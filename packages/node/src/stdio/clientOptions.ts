/**
 * The options of the stdio client transport, and what it reports about the server's exit.
 * @module
 */
import type { InheritEnv } from './environment.js';

/**
 * Grace periods of the shutdown sequence, in milliseconds.
 *
 * @example
 * ```ts
 * new StdioClientTransport({ command: 'my-server', shutdownTimeouts: { afterStdinClose: 5000 } });
 * ```
 */
export interface StdioShutdownTimeouts {
  /** How long the server may take to exit after its stdin is closed. Default: 2000. */
  afterStdinClose?: number;
  /** How long the server may take to exit after `SIGTERM`, before `SIGKILL`. Default: 2000. */
  afterSigterm?: number;
}

/**
 * What happens to the server's stderr.
 *
 * @example
 * ```ts
 * const mode: StderrMode = 'inherit'; // the server logs straight to our terminal
 * ```
 */
export type StderrMode = 'pipe' | 'inherit' | 'ignore';

/**
 * Options of {@link StdioClientTransport}.
 *
 * @example
 * ```ts
 * const options: StdioClientOptions = {
 *   command: 'uvx',
 *   args: ['mcp-server-git', '--repository', '.'],
 *   env: { GITHUB_TOKEN: process.env.GITHUB_TOKEN ?? '' },
 *   stderr: 'pipe',
 *   onStderr: (text) => console.debug(text),
 * };
 * ```
 */
export interface StdioClientOptions {
  /** The executable to run. It is not run through a shell. */
  command: string;
  args?: readonly string[];
  /**
   * Variables set for the server, on top of the inherited ones. `undefined` removes an inherited
   * variable.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Which of this process's variables the server inherits. Default: only
   * {@link DEFAULT_INHERITED_ENV_VARS}, so secrets in the parent's environment do not leak.
   * `true` passes everything, `false` nothing, and a list passes exactly those names (spread
   * `DEFAULT_INHERITED_ENV_VARS` into it to extend the default).
   */
  inheritEnv?: InheritEnv;
  /** The server's working directory. Default: this process's. */
  cwd?: string;
  /**
   * `'pipe'` (default): the server's stderr is read continuously (so the server never blocks on
   * it), handed to `onStderr`, readable from {@link StdioClientTransport.stderr}, and its tail is
   * quoted if the server dies. `'inherit'`: written straight to this process's stderr.
   * `'ignore'`: discarded.
   */
  stderr?: StderrMode;
  /** Called with each piece of the server's stderr text (`stderr: 'pipe'` only). Never a failure. */
  onStderr?: (text: string) => void;
  /**
   * The largest incoming message, in bytes. A longer line (or bytes that never end in a newline)
   * closes the connection at once with an error naming this limit, failing every pending
   * request: the stream cannot be trusted after it. Default: 64 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in one message, checked before parsing; deeper
   * messages are answered with a `-32700` that names the limit. Default 512.
   */
  maxJsonDepth?: number;
  /**
   * Requests and notifications the server may send per second; past it, its stdout is not read
   * until the current 100 ms window ends (backpressure, nothing dropped), reported once through
   * `onError`. Answers to our requests are not counted. Default
   * {@link DEFAULT_MAX_INCOMING_PER_SECOND} (2000); `Infinity` turns it off.
   */
  maxIncomingPerSecond?: number;
  /**
   * The most bytes (UTF-16 characters, strictly) waiting to be written to a server that does
   * not read its stdin; past it the connection closes with an error naming this limit. Default
   * {@link DEFAULT_MAX_WRITE_QUEUE_BYTES} (16 MiB).
   */
  maxWriteQueueBytes?: number;
  /**
   * Batch writes. `true`: the messages written in one tick leave together in one write when it
   * ends (one wake-up of the server per burst, the way `StdioServerTransport` answers). Right for
   * a process that forwards bursts, such as a gateway; a client issuing requests one by one gains
   * nothing, and one that pipelines many calls to a server that also batches may take strict
   * turns with it. `'after-first'`: the first message of a tick leaves at once, the others
   * together when it ends (two writes per burst). Default false: every message is written at once.
   */
  coalesceWrites?: boolean | 'after-first';
  shutdownTimeouts?: StdioShutdownTimeouts;
}

/**
 * How the server process ended.
 *
 * @example
 * ```ts
 * declare const transport: StdioClientTransport;
 * await transport.close();
 * if (transport.exitStatus?.signal === 'SIGKILL') console.warn('the server had to be killed');
 * ```
 */
export interface StdioExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The default bound on what waits to be written to a server that stopped reading its stdin.
 *
 * @example
 * ```ts
 * new StdioClientTransport({ command: 'server', maxWriteQueueBytes: 4 * DEFAULT_MAX_WRITE_QUEUE_BYTES });
 * ```
 */
export const DEFAULT_MAX_WRITE_QUEUE_BYTES = 16 * 1024 * 1024;
