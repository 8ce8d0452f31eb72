/**
 * `runCli`: parse, connect, run the verb, report, and turn every failure into a message and an
 * exit code.
 * @module
 */
import { McpClient } from '@mcpkit/client';
import type { LoggingMessageNotificationParams, ProgressUpdate } from '@mcpkit/core';
import type { McpHostOptions } from '@mcpkit/host';
import { type ClientAction, type ClientSettings, parseCommandLine, type TargetSpec } from './args.js';
import { terminalAsk } from './askInput.js';
import { redactSecrets } from './auth/failure.js';
import { type CliIo, processIo } from './cliIo.js';
import { runVerb } from './commands.js';
import { type CliError, ExitCode, type ExitCodeValue } from './errors.js';
import { errnoOf, formatMs, StopReason, toCliError, withStrayOutput } from './failures.js';
import type { FormTerminal } from './form.js';
import { configHost } from './gateway/inProcess.js';
import { handshake } from './handshake.js';
import { helpText, VERSION } from './help.js';
import { createStyle, type OutputStream, type Style, wantsColor } from './output.js';
import { ProgressBar } from './progress.js';
import { elicitationHandlers, rootsFromDirectories, samplingHandler } from './serverRequests.js';
import { StderrWatch } from './serverStderr.js';
import { createTransport, describeTarget, type ResolvedTarget, resolveTarget } from './target.js';
import { WatchedTransport } from './trace.js';

export { type CliIo, processIo } from './cliIo.js';
export { toCliError } from './failures.js';

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
      case 'dev': {
        const { runDev } = await import('./dev/serve.js');
        return await runDev(command.dev, io);
      }
      case 'serve': {
        const { serve } = await import('./demo/serve.js');
        return await serve(command.serve, io);
      }
      case 'auth-server': {
        const { runDevAuthServer } = await import('./auth/devServer.js');
        return await runDevAuthServer(command.authServer, io);
      }
      case 'gateway': {
        const { runGateway } = await import('./gateway/serve.js');
        return await runGateway(command.gateway, io);
      }
      case 'console': {
        const { runConsole } = await import('./consoleVerb.js');
        return await runConsole(command, io);
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
  // A hint is what to try, under one label: one that already says "Try:" must not say it twice,
  // and a usage line is labelled "Usage:" alone.
  if (error.hint) {
    const hint = error.hint.replace(/^(Try: )+/, '');
    const usage = /^Usage: /.exec(hint);
    stderr.write(
      usage ? `${style.dim('Usage:')} ${hint.slice(usage[0].length)}\n` : `${style.dim('Try:')} ${hint}\n`,
    );
  }
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
  const authContext = { io, onTerminal, notice: screen.notice, trace };
  const refused = (error: unknown): never => {
    stopper.dispose(); // a refused command line must not leave the deadline timer running
    throw error;
  };
  const auth = await authModule?.createCliAuth(target, settings, action, authContext).catch(refused);
  // Several servers of a config file: each HTTP one logs in on its own, with its entry's client.
  const logins =
    target.kind === 'gateway' && target.servers.some((entry) => entry.kind === 'url')
      ? await import('./auth/hostAuth.js')
          .then(({ hostAuth }) =>
            hostAuth(
              target.servers,
              settings.auth,
              authContext,
              spec.kind === 'config' ? spec.file : undefined,
            ),
          )
          .catch(refused)
      : undefined;
  if (target.kind === 'gateway') target.authProvider = logins?.providerOf;
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
    await Promise.race([
      handshake(client, transport, {
        target,
        settings,
        io,
        notice: screen.notice,
        signal,
        loggingIn: () => transport.loggingIn,
      }),
      stopped,
    ]);
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
      ...(target.kind === 'gateway'
        ? {
            servers: () => target.status?.() ?? [],
            serverOf: (kind: 'tools' | 'prompts', name: string) => target.serverOf?.(kind, name),
            openHost: (more?: Partial<McpHostOptions>) =>
              configHost(target.servers, logins?.providerOf, more),
          }
        : {}),
    };
    const run =
      action.verb === 'login'
        ? Promise.resolve(authModule!.finishLogin(auth, targetHint, io.stdout, context.outStyle))
        : runVerb(action, context);
    // Ctrl-C and --timeout are how `watch` ends, not failures.
    const ended = action.verb === 'watch' ? stopped.catch(() => ExitCode.Success) : stopped;
    return await Promise.race([run, ended]);
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
    await logins?.close();
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
