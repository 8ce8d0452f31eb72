/**
 * The process around the CLI: its streams, environment and interrupts, passed to every command so
 * that tests can run the CLI in process.
 * @module
 */
import type { BrowserOpener } from './auth/browser.js';
import type { OutputStream } from './output.js';

/**
 * The process around the CLI: streams, environment, and how Ctrl-C is heard. Tests pass their
 * own; {@link processIo} is the real one.
 *
 * @example
 * ```ts
 * const io: CliIo = { ...processIo(), onInterrupt: () => () => {} }; // ignore Ctrl-C
 * await runCli(['ping', 'http://127.0.0.1:3000/mcp'], io);
 * ```
 */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Registers a listener for Ctrl-C (SIGINT) and SIGTERM; returns a function that removes it. */
  onInterrupt(listener: () => void): () => void;
  /** Opens a login page; resolves false when no browser opened. Default: the system's opener. */
  readonly openBrowser?: BrowserOpener;
}

/**
 * The real process: its streams, environment and SIGINT.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), processIo());
 * ```
 */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(listener) {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}
