/**
 * Exit codes and the one error type the CLI reports to its user.
 * @module
 */

/**
 * The exit codes of `mcpkit`. Scripts can tell the kinds of failure apart by these alone.
 *
 * @example
 * ```ts
 * import { ExitCode, type ExitCodeValue } from 'mcpkit';
 *
 * declare const status: ExitCodeValue;
 * if (status === ExitCode.ToolError) console.error('the tool reported a failure');
 * ```
 */
export const ExitCode = {
  /** Everything worked. */
  Success: 0,
  /** A bug in mcpkit itself: an error nobody anticipated. */
  Internal: 1,
  /** The command line, a config file or the arguments were wrong; nothing useful was sent. */
  Usage: 2,
  /**
   * The server could not be reached or started, died, broke the protocol, or answered with an
   * error; or it needs a login that may not run here (off a terminal, `--no-login`).
   */
  Connection: 3,
  /** The tool ran and returned `isError: true`. */
  ToolError: 4,
  /** The command took longer than `--timeout` (or a request got no answer in time). */
  Timeout: 5,
  /** `replay`: an answer differs from the recorded one (or the server now fails where it answered). */
  Changed: 6,
  /** Interrupted by Ctrl-C (SIGINT); the server was told to cancel. */
  Interrupted: 130,
} as const;

/**
 * One of the {@link ExitCode} values.
 *
 * @example
 * ```ts
 * const code: ExitCodeValue = ExitCode.Timeout; // 5
 * ```
 */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * A failure to show the user: what went wrong, and what to try. Never a stack trace.
 *
 * @example
 * ```ts
 * throw new CliError(ExitCode.Usage, '"read" needs a resource URI', 'mcpkit list resources URL');
 * ```
 */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    readonly exitCode: ExitCodeValue,
    message: string,
    /** A suggestion of what to try next, printed on its own line. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * A usage error: the command line (or a file it names) is wrong.
 *
 * @example
 * ```ts
 * throw usageError('Unknown verb "lst"', 'Did you mean "list"?');
 * ```
 */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(ExitCode.Usage, message, hint);
}
