/**
 * Runs the `mcpkit` CLI in this process through `runCli(argv, io)`: the same parsing, client,
 * transports and error reporting as `npx mcpkit`, without paying for a Node process per command.
 * Off a terminal, with NO_COLOR, from the repository root; Ctrl-C is never heard.
 */
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type CliIo, runCli } from '../../packages/cli/src/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What one in-process run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

/** How an in-process run differs from the default (off a terminal, the real environment). */
export interface CliRunOptions {
  /** Variables added to (or, when undefined, removed from) the environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Pretend stdin, stdout and stderr are a terminal. */
  readonly tty?: boolean;
  /** Replaces the system browser opener (the CLI's login seam). */
  readonly openBrowser?: CliIo['openBrowser'];
  /** Sees each chunk written to stderr as it is written. */
  readonly onStderr?: (text: string) => void;
}

/** Runs `mcpkit ARGV…` to completion in this process. */
export async function runCliInProcess(argv: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const out: Buffer[] = [];
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), options.tty ? { isTTY: true } : {});
  stdin.end();
  const io: CliIo = {
    stdout: { write: (chunk) => out.push(Buffer.from(chunk)), isTTY: options.tty },
    stderr: {
      write: (chunk) => {
        const text = Buffer.from(chunk).toString('utf8');
        stderr += text;
        options.onStderr?.(text);
      },
      isTTY: options.tty,
    },
    stdin,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
    cwd: ROOT,
    onInterrupt: () => () => {},
    ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
  };
  const code = await runCli(argv, io);
  const stdoutBytes = Buffer.concat(out);
  return { code, stdout: stdoutBytes.toString('utf8'), stderr, stdoutBytes };
}

/** A long-running verb (`serve`, `auth-server`) started in this process. */
export interface RunningCli {
  /** What the first match of `ready` on stdout captured. */
  readonly match: RegExpExecArray;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** Ctrl-C, then the exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `mcpkit ARGV…` in this process and resolves once its stdout matches `ready` (a verb that
 * exits before that rejects with its exit code). Off a terminal, with NO_COLOR and `env` only.
 */
export async function startCliInProcess(
  argv: readonly string[],
  ready: RegExp,
  env: Readonly<Record<string, string>> = {},
): Promise<RunningCli> {
  let stdout = '';
  let stderr = '';
  let interrupt: (() => void) | undefined;
  let found: (match: RegExpExecArray) => void = () => {};
  const matched = new Promise<RegExpExecArray>((resolve) => {
    found = resolve;
  });
  const io: CliIo = {
    stdout: {
      write: (chunk) => {
        stdout += String(chunk);
        const match = ready.exec(stdout);
        if (match) found(match);
      },
    },
    stderr: {
      write: (chunk) => {
        stderr += String(chunk);
      },
    },
    stdin: new PassThrough(),
    env: { NO_COLOR: '1', ...env },
    cwd: ROOT,
    onInterrupt: (listener) => {
      interrupt = listener;
      return () => {};
    },
  };
  const done = runCli(argv, io);
  const match = await Promise.race([matched, done.then((code) => Promise.reject(new Error(`exit ${code}`)))]);
  return {
    match,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      interrupt?.();
      return done;
    },
  };
}
