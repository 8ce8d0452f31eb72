/**
 * `runCli`: parse, connect, run the verb, report, and turn every failure into a message and an
 * exit code.
 * @module
 */
import { McpClient } from '@mcpkit/client';
import { HttpTransportError } from '@mcpkit/client/http';
import {
  CapabilityError,
  ConnectionClosedError,
  ErrorCode,
  type LoggingMessageNotificationParams,
  McpError,
  type ProgressUpdate,
  RequestCancelledError,
  RequestTimeoutError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { StdioServerProcessError } from '@mcpkit/node/stdio';
import { type ClientAction, type ClientSettings, parseCommandLine, type TargetSpec } from './args.js';
import { terminalAsk } from './askInput.js';
import type { BrowserOpener } from './auth/browser.js';
import { authFailure, redactSecrets } from './auth/failure.js';
import { runVerb } from './commands.js';
import { CliError, ExitCode, type ExitCodeValue } from './errors.js';
import type { FormTerminal } from './form.js';
import { helpText, VERSION } from './help.js';
import { createStyle, type OutputStream, type Style, wantsColor } from './output.js';
import { ProgressBar } from './progress.js';
import {
  elicitationHandlers,
  rootsFromDirectories,
  SAMPLING_REFUSED,
  samplingHandler,
} from './serverRequests.js';
import { StderrWatch } from './serverStderr.js';
import { createTransport, describeTarget, type ResolvedTarget, resolveTarget } from './target.js';
import { WatchedTransport } from './trace.js';

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

/** Why the CLI aborted its own work. */
class StopReason {
  constructor(
    readonly kind: 'interrupted' | 'timeout',
    readonly ms?: number,
  ) {}
}

/** How long to wait for a last message (e.g. the cancellation) to go out before closing. */
const FLUSH_GRACE_MS = 1000;
/** How long past the `--timeout` deadline the cancellation may take to go out. */
const LAST_WORDS_MS = 100;
/** How long closing may take before the CLI stops waiting for it. */
const CLOSE_GRACE_MS = 5000;

/**
 * Runs the `mcpkit` command line and resolves with the exit code. Never throws, never prints a
 * stack trace; see {@link ExitCode}.
 *
 * @example
 * ```ts
 * import { runCli } from 'mcpkit';
 * const code = await runCli(['list', '--json', 'http://127.0.0.1:3000/mcp']);
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const errStyle = createStyle(wantsColor(io.stderr, io.env));
  try {
    const command = parseCommandLine(argv);
    switch (command.kind) {
      case 'help':
        io.stdout.write(helpText(command.verb, createStyle(wantsColor(io.stdout, io.env))));
        return ExitCode.Success;
      case 'version':
        io.stdout.write(`${VERSION}\n`);
        return ExitCode.Success;
      case 'serve': {
        const { serve } = await import('./demo/serve.js');
        return await serve(command.serve, io);
      }
      case 'gateway': {
        const { runGateway } = await import('./gateway/serve.js');
        return await runGateway(command.gateway, io);
      }
      case 'client':
        return await runClient(command.action, command.target, command.settings, io, errStyle);
      case 'logout': {
        const { runLogout } = await import('./auth/commands.js');
        return await runLogout(command.target, command.settings, io);
      }
    }
  } catch (error) {
    return report(toCliError(error, undefined), io.stderr, errStyle);
  }
}

function report(error: CliError, stderr: OutputStream, style: Style): ExitCodeValue {
  stderr.write(`${style.red(style.bold('Error:'))} ${redactSecrets(error.message)}\n`);
  // A hint is what to try; one that already says "Try:" must not say it twice.
  if (error.hint) stderr.write(`${style.dim('Try:')} ${error.hint.replace(/^(Try: )+/, '')}\n`);
  return error.exitCode;
}

async function runClient(
  action: ClientAction,
  spec: TargetSpec,
  settings: ClientSettings,
  io: CliIo,
  errStyle: Style,
): Promise<number> {
  const onTerminal = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const target = await resolveTarget(
    spec,
    settings,
    onTerminal ? terminalAsk(io.stdin, io.stderr) : undefined,
  );
  const stopper = createStopper(io, settings.timeoutMs);
  const screen = createScreen(io, errStyle);
  const client = createClient(settings, io, screen, errStyle);
  // Secrets never reach the trace, whatever a server echoes or an error quotes.
  const trace = settings.verbose ? (line: string) => io.stderr.write(`${redactSecrets(line)}\n`) : undefined;
  // Only HTTP targets load the OAuth client: a stdio command pays nothing for it.
  const authModule =
    target.kind === 'http' || action.verb === 'login' ? await import('./auth/commands.js') : undefined;
  const auth = await authModule
    ?.createCliAuth(target, settings, action, { io, onTerminal, notice: screen.notice, trace })
    .catch((error: unknown) => {
      stopper.dispose(); // a refused command line must not leave the deadline timer running
      throw error;
    });
  const stderrWatch = new StderrWatch(
    settings.verbose ? (text) => io.stderr.write(errStyle.dim(text)) : undefined,
  );
  // Only after the handshake: a failure before it is "could not connect", reported once.
  const onNetworkFailure = (error: unknown) => {
    if (connected) screen.notice(`Connection lost (${errnoOf(error) ?? 'network error'}); retrying…`);
  };
  const transport = new WatchedTransport(
    createTransport(target, stderrWatch.feed, onNetworkFailure, auth),
    errStyle,
    trace,
  );
  const targetHint = targetHintOf(spec, target);
  const { signal, stopped } = stopper;
  let connected = false;
  try {
    await Promise.race([client.connect(transport, { signal }), stopped]);
    connected = true;
    await Promise.race([applyLogLevel(client, settings, screen, signal), stopped]);
    const context = {
      client,
      settings,
      targetHint,
      stdout: io.stdout,
      stderr: io.stderr,
      outStyle: createStyle(wantsColor(io.stdout, io.env)),
      errStyle,
      signal,
      onProgress: screen.progress,
      clearProgress: screen.clearProgress,
      notice: screen.notice,
      ...(target.kind === 'gateway' ? { servers: () => target.status?.() ?? [] } : {}),
    };
    const run =
      action.verb === 'login'
        ? Promise.resolve(authModule!.finishLogin(auth, targetHint, io.stdout, context.outStyle))
        : runVerb(action, context);
    return await Promise.race([run, stopped]);
  } catch (error) {
    screen.clearProgress();
    const failure = toCliError(error, {
      target,
      reason: stopper.reason(),
      targetHint,
      connected,
      firstStderrError: stderrWatch.firstError,
    });
    return report(withStrayOutput(failure, transport.firstParseError), io.stderr, errStyle);
  } finally {
    stopper.dispose();
    // Let a last notifications/cancelled reach the server before the transport goes away, but
    // --timeout is a hard deadline: past it, the cancellation and the close get only a moment.
    await transport.settled(Math.min(FLUSH_GRACE_MS, stopper.remaining()));
    await Promise.race([
      client.close().catch(() => {}),
      delay(Math.min(CLOSE_GRACE_MS, stopper.remaining())),
    ]);
    await auth?.close();
  }
}

/** What stops a command: Ctrl-C or the `--timeout` deadline. */
interface Stopper {
  /** Aborted on stop; its reason is the text `notifications/cancelled` carries to the server. */
  readonly signal: AbortSignal;
  /** Rejects with the {@link StopReason} when stopped. */
  readonly stopped: Promise<never>;
  reason(): StopReason | undefined;
  /** How long cleanup may still take: until the `--timeout` deadline (plus a moment), or forever. */
  remaining(): number;
  dispose(): void;
}

function createStopper(io: CliIo, timeoutMs: number | undefined): Stopper {
  const controller = new AbortController();
  let why: StopReason | undefined;
  const halt = (reason: StopReason, text: string) => {
    if (why) return;
    why = reason;
    controller.abort(text);
  };
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(why), { once: true });
  });
  stopped.catch(() => {});
  let interrupts = 0;
  const removeInterrupt = io.onInterrupt(() => {
    // A second Ctrl-C means "now": no more waiting for a polite shutdown.
    if (++interrupts > 1) process.exit(ExitCode.Interrupted);
    halt(new StopReason('interrupted'), 'Interrupted by the user (Ctrl-C)');
  });
  const endsAt = Date.now() + (timeoutMs ?? 0);
  const deadline =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () => halt(new StopReason('timeout', timeoutMs), `Timed out after ${formatMs(timeoutMs)}`),
          timeoutMs,
        );
  return {
    signal: controller.signal,
    stopped,
    reason: () => why,
    remaining: () =>
      timeoutMs === undefined ? Number.POSITIVE_INFINITY : Math.max(0, endsAt - Date.now()) + LAST_WORDS_MS,
    dispose() {
      clearTimeout(deadline);
      removeInterrupt();
    },
  };
}

/** Everything the CLI shows on stderr besides errors: the progress bar, notices, server logs. */
interface Screen {
  progress(update: ProgressUpdate): void;
  clearProgress(): void;
  /** Hides the bar while the user answers a question. */
  pauseProgress(paused: boolean): void;
  notice(text: string): void;
  log(message: LoggingMessageNotificationParams): void;
}

function createScreen(io: CliIo, style: Style): Screen {
  const bar = io.stderr.isTTY ? new ProgressBar(io.stderr, style) : undefined;
  let paused = false;
  const clearProgress = () => bar?.clear();
  // A line on stderr goes above the bar, which is then drawn again (not while a question is asked).
  const printLine = (line: string) => (bar && !paused ? bar.printAbove(line) : io.stderr.write(line));
  return {
    progress: (update) => {
      if (!paused) bar?.update(update);
    },
    clearProgress,
    pauseProgress(value) {
      paused = value;
      if (value) clearProgress();
    },
    notice(text) {
      printLine(`${style.dim(text)}\n`);
    },
    log({ level, logger, data }) {
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      printLine(`${levelStyle(level, style)(`[${level}${logger ? ` ${logger}` : ''}]`)} ${text}\n`);
    },
  };
}

/** The client, with the CLI's answers to the server's own requests. */
function createClient(settings: ClientSettings, io: CliIo, screen: Screen, style: Style): McpClient {
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const terminal: FormTerminal | undefined = interactive
    ? { input: io.stdin, output: io.stderr as FormTerminal['output'], terminal: true }
    : undefined;
  const timeouts =
    settings.timeoutMs === undefined
      ? {}
      : { requestTimeout: settings.timeoutMs, maxTotalTimeout: settings.timeoutMs };
  const client = new McpClient(
    { name: 'mcpkit-cli', title: 'mcpkit CLI', version: VERSION },
    {
      sampling: samplingHandler(settings.samplingCommand, screen.notice),
      elicitation: elicitationHandlers(terminal, style, screen.notice, screen.pauseProgress),
      ...(settings.roots.length > 0 ? { roots: rootsFromDirectories(settings.roots, io.cwd) } : {}),
      // `call` checks structured output itself, so a mismatch is shown next to the result.
      validateStructuredContent: false,
      protocolEra: settings.era,
      ...timeouts,
      onError: (error) => {
        if (settings.verbose) screen.notice(`(client) ${error.message}`);
      },
    },
  );
  client.onLog(screen.log);
  client.onElicitationComplete(() =>
    screen.notice('The server reports that the step in the browser is complete.'),
  );
  return client;
}

async function applyLogLevel(
  client: McpClient,
  settings: ClientSettings,
  screen: Screen,
  signal: AbortSignal,
): Promise<void> {
  // A 2025 server sends every log message until told a level; a 2026-07-28 one sends none unless
  // each request names one. The CLI shows a server's logs the same way in both eras.
  const level = settings.logLevel ?? (client.era === '2026' ? 'debug' : undefined);
  if (!level) return;
  if (client.serverCapabilities?.logging) await client.setLoggingLevel(level, { signal });
  else if (settings.logLevel) screen.notice('The server does not offer logging; --log-level is ignored.');
}

/** How the target is written in hints: the URL, `-- command`, or the config options. */
function targetHintOf(spec: TargetSpec, target: ResolvedTarget): string {
  if (spec.kind === 'stdio') return `-- ${describeTarget(target)}`;
  if (spec.kind === 'url') return spec.url.href;
  if (target.kind === 'gateway') return `--config ${spec.file}`;
  return `--config ${spec.file}${spec.server ? ` --server ${spec.server}` : ''}`;
}

function levelStyle(level: string, style: Style): (text: string) => string {
  if (level === 'debug' || level === 'info') return style.dim;
  if (level === 'notice' || level === 'warning') return style.yellow;
  return style.red;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

interface FailureContext {
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
function withStrayOutput(failure: CliError, parseError: Error | undefined): CliError {
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
function errnoOf(error: unknown): string | undefined {
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

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
