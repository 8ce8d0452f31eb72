/**
 * How a failed command is told to the person who ran it: every error (usage, timeout, interrupt,
 * a server's error answer, HTTP and process failures, refused sampling) becomes a message, a hint
 * that names the real target, and an exit code.
 * @module
 */
import { HttpTransportError } from '@mcpkit/client/http';
import {
  CapabilityError,
  ConnectionClosedError,
  ErrorCode,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { StdioServerProcessError } from '@mcpkit/node/stdio';
import { authFailure } from './auth/failure.js';
import { CliError, ExitCode } from './errors.js';
import { SAMPLING_REFUSED } from './serverRequests.js';
import { describeTarget, type ResolvedTarget } from './target.js';

/** Why the CLI aborted its own work. */
export class StopReason {
  constructor(
    readonly kind: 'interrupted' | 'timeout',
    readonly ms?: number,
  ) {}
}

/** What the CLI knew when a command failed, for a message that names the target. */
export interface FailureContext {
  readonly target: ResolvedTarget;
  readonly reason: StopReason | undefined;
  /** How the target was written on the command line, for hints. */
  readonly targetHint: string;
  /** Whether the handshake had completed. */
  readonly connected?: boolean;
  /** The first line on a stdio server's stderr that reads like an error (`Error: …`). */
  readonly firstStderrError?: string | undefined;
}

/**
 * Adds the line a server wrote that was not JSON to a failure it likely explains (a stdio
 * server that logs on stdout never answers, so the user would otherwise only see a timeout).
 */
export function withStrayOutput(failure: CliError, parseError: Error | undefined): CliError {
  if (!parseError || failure.exitCode === ExitCode.Usage || failure.exitCode === ExitCode.ToolError) {
    return failure;
  }
  return new CliError(
    failure.exitCode,
    `${failure.message}\nThe server sent output that is not JSON-RPC: ${parseError.message}`,
    'A stdio server must write only JSON-RPC messages to stdout; send its logs to stderr (console.error)',
  );
}

/**
 * Turns anything thrown into a message and an exit code a person can act on.
 *
 * @example
 * ```ts
 * toCliError(new RequestTimeoutError('tools/call', 5000, 'timeout'), undefined).exitCode; // 5
 * ```
 */
export function toCliError(error: unknown, context: FailureContext | undefined): CliError {
  const failure = describeFailure(error, context);
  const hint = failure.hint && context ? placeTarget(failure.hint, context.targetHint) : failure.hint;
  return hint === failure.hint ? failure : new CliError(failure.exitCode, failure.message, hint);
}

/** Puts the real target into a hint's command; a stdio command goes last, since `--` ends the line. */
function placeTarget(hint: string, targetHint: string): string {
  if (!hint.includes('TARGET')) return hint;
  if (!targetHint.startsWith('--')) return hint.replaceAll('TARGET', targetHint);
  return `${hint.replaceAll(' TARGET', '')} ${targetHint}`;
}

function describeFailure(error: unknown, context: FailureContext | undefined): CliError {
  if (error instanceof CliError) return error;
  const auth = authFailure(error, context?.targetHint);
  if (auth) return auth;
  const reason = error instanceof StopReason ? error : context?.reason;
  if (reason?.kind === 'interrupted') {
    return new CliError(ExitCode.Interrupted, 'Interrupted; the server was asked to cancel.');
  }
  if (reason?.kind === 'timeout') {
    return new CliError(
      ExitCode.Timeout,
      `Timed out after ${formatMs(reason.ms ?? 0)} (--timeout).`,
      'Give it longer, e.g. --timeout 2m',
    );
  }
  if (error instanceof RequestTimeoutError && error.method === 'initialize' && context?.connected === false) {
    return new CliError(
      ExitCode.Timeout,
      `The server did not answer the handshake: ${error.message}.`,
      'Check that the target is an MCP server; rerun with --verbose to see what it sends',
    );
  }
  if (error instanceof RequestTimeoutError) {
    return new CliError(
      ExitCode.Timeout,
      `${error.message}.`,
      'If the server is slow, give it longer with --timeout, e.g. --timeout 2m',
    );
  }
  if (error instanceof CapabilityError) {
    return new CliError(ExitCode.Usage, error.message, 'See what the server offers: mcpkit info TARGET');
  }
  const connection = connectionProblem(error, context);
  if (connection) return connection;
  if (error instanceof UnsupportedProtocolVersionError) {
    return new CliError(
      ExitCode.Connection,
      error.message,
      'The server speaks a protocol revision mcpkit does not; upgrade one of them',
    );
  }
  if (error instanceof RequestCancelledError) return new CliError(ExitCode.Connection, error.message);
  if (error instanceof UrlElicitationRequiredError) {
    const steps = error.elicitations.map((step) => `\n  ${step.message}\n  ${step.url}`).join('');
    return new CliError(
      ExitCode.Connection,
      `The server needs you to finish a step in your browser first:${steps}`,
      'Open the URL, then run the command again',
    );
  }
  if (error instanceof McpError) return serverError(error);
  if (findCause(error, isSamplingRefusal)) return samplingRefusedLocally();
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(
    ExitCode.Internal,
    `Unexpected failure: ${message}`,
    'This is a bug in mcpkit; rerun with --verbose and report it',
  );
}

const isSamplingRefusal = (e: unknown): e is McpError => e instanceof McpError && e.code === SAMPLING_REFUSED;

/**
 * The CLI refused a sampling request of a 2026-07-28 server: that revision has no way to send the
 * refusal back (under 2025 the server heard it and its tool reported the error), so the call
 * stopped in the client.
 */
function samplingRefusedLocally(): CliError {
  return new CliError(
    ExitCode.Usage,
    'The server needs a model completion (sampling) to answer, which mcpkit gives only with --sampling-command. Under 2026-07-28 the refusal cannot be sent to the server, so the call stopped here.',
    'Pass --sampling-command CMD (or --era 2025, so that the server hears the refusal)',
  );
}

function serverError(error: McpError): CliError {
  const code = ` (JSON-RPC error ${error.code})`;
  if (error.code === ErrorCode.ResourceNotFound) {
    return new CliError(
      ExitCode.Usage,
      `The server has no such resource: ${error.message}${code}`,
      'See its resources and templates: mcpkit list resources TARGET',
    );
  }
  if (error.code === ErrorCode.ConnectionClosed) {
    return new CliError(
      ExitCode.Connection,
      `Connection lost: ${error.message}`,
      'Is the server still running? Rerun with --verbose to see every message',
    );
  }
  if (error.code === ErrorCode.MethodNotFound) {
    return new CliError(ExitCode.Connection, `The server does not support this: ${error.message}${code}`);
  }
  return new CliError(ExitCode.Connection, `The server answered with an error: ${error.message}${code}`);
}

/** Connection-level failures: a server that cannot be reached, started, or that went away. */
function connectionProblem(error: unknown, context: FailureContext | undefined): CliError | undefined {
  const target = context?.target;
  const processError = findCause(
    error,
    (e): e is StdioServerProcessError => e instanceof StdioServerProcessError,
  );
  if (processError) return serverProcessProblem(processError, context);
  const httpError = findCause(error, (e): e is HttpTransportError => e instanceof HttpTransportError);
  if (httpError) return httpProblem(httpError, target);
  if (error instanceof ConnectionClosedError) {
    return new CliError(
      ExitCode.Connection,
      `The server closed the connection: ${error.message}`,
      'Rerun with --verbose to see every message',
    );
  }
  return undefined;
}

function serverProcessProblem(error: StdioServerProcessError, context: FailureContext | undefined): CliError {
  const target = context?.target;
  const firstError = context?.firstStderrError;
  const lines = error.stderrTail.trim().split('\n');
  const tail = lines.slice(-15);
  // The message ends with the last stderr line; with the tail quoted below, that would say it twice.
  const header = tail.length > 1 ? error.message.replace(/; last stderr output: .*$/s, '.') : error.message;
  // The cause is usually on the first "Error:" line, often above a long stack the tail cuts off.
  const cause =
    firstError && !tail.some((line) => line.trim() === firstError.trim()) ? [firstError, '…'] : [];
  const quoted = tail.length > 1 ? `\nIts output on stderr:\n${[...cause, ...tail].join('\n')}` : '';
  const hint =
    error.exitCode === null && error.signal === null
      ? 'Check the command: run it by itself to see whether it starts'
      : `Run the command by itself to see why it stops${shownCommand(target, context?.targetHint)}`;
  return new CliError(ExitCode.Connection, `${header}${quoted}`, hint);
}

/** The command line to quote in a hint; never one from a config file, whose values may be secrets. */
function shownCommand(target: ResolvedTarget | undefined, targetHint: string | undefined): string {
  if (target?.kind !== 'stdio') return '';
  if (targetHint?.startsWith('--config')) return ` (the "command" and "args" of ${targetHint})`;
  return `: ${describeTarget(target)}`;
}

function httpProblem(error: HttpTransportError, target: ResolvedTarget | undefined): CliError {
  const url = target?.kind === 'http' ? target.url.href : 'the server';
  const errno = errnoOf(error);
  if (errno === 'ECONNREFUSED') {
    return new CliError(
      ExitCode.Connection,
      `Could not connect to ${url}: connection refused.`,
      'Is the server running? Start the demo server with: npx mcpkit serve',
    );
  }
  if (errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') {
    return new CliError(
      ExitCode.Connection,
      `Could not connect to ${url}: the host name does not resolve.`,
      'Check the host name in the URL',
    );
  }
  if (error.status === 401 || error.status === 403) {
    return new CliError(
      ExitCode.Connection,
      error.message,
      'The server refused the credentials: log in with mcpkit login URL, or check --header "Authorization: …"',
    );
  }
  if (error.status === 404 || error.status === 405) {
    return new CliError(
      ExitCode.Connection,
      error.message,
      'Check the URL path; the demo server serves /mcp (http://127.0.0.1:3000/mcp)',
    );
  }
  return new CliError(ExitCode.Connection, error.message, 'Rerun with --verbose to see every message');
}

function findCause<T extends Error>(error: unknown, test: (value: unknown) => value is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (test(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The system error code (`ECONNREFUSED`…) somewhere in a chain of causes. */
export function errnoOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) current = errors[0];
    else current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
