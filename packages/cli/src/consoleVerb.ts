/**
 * `mcpkit console`: starts `@mcpkit/console` on the target the person named, prints its URL,
 * opens it in the browser (unless `--no-open`) and runs until Ctrl-C.
 * @module
 */
import type { AuthStep } from '@mcpkit/auth/client';
import type { ConsoleLoginRedirect, ConsoleTarget } from '@mcpkit/console';
import type { ClientSettings, ParsedCommand, TargetSpec } from './args.js';
import { openSystemBrowser } from './auth/browser.js';
import type { CliAuth } from './auth/login.js';
import type { LoginRedirect } from './auth/loopback.js';
import type { CliIo } from './cliIo.js';
import { loadAllServers } from './config.js';
import { ExitCode, type ExitCodeValue, usageError } from './errors.js';
import { createStyle, wantsColor } from './output.js';
import { createTransport, describeTarget, type ResolvedTarget, resolveTarget } from './target.js';

/**
 * Runs the console until the person stops it.
 *
 * @example
 * ```ts
 * const code = await runConsole(parseCommandLine(['console', '--no-open', 'http://127.0.0.1:3000/mcp']) as never, processIo());
 * ```
 */
export async function runConsole(
  command: Extract<ParsedCommand, { kind: 'console' }>,
  io: CliIo,
): Promise<ExitCodeValue> {
  const { startConsole } = await import('@mcpkit/console');
  const style = createStyle(wantsColor(io.stderr, io.env));
  const notice = (text: string) => io.stderr.write(style.dim(`${text}\n`));
  const steps = authStepRelay();
  const page = pageLoginRelay();
  const { target, auths } = await consoleTarget(command.target, command.settings, io, notice, {
    observer: steps.observer,
    redirect: page.redirectFor,
  });
  const closeAuths = () => Promise.all(auths.map((auth) => auth.close()));
  const retry = () => {
    for (const auth of auths) auth.allowAnotherLogin();
  };
  const running = await startConsole({
    target,
    era: command.settings.era,
    authSteps: steps.source,
    ...(auths.length > 0 ? { login: { attach: page.attach, retry } } : {}),
  }).catch(async (error: unknown) => {
    await closeAuths();
    throw error;
  });
  io.stdout.write(`${running.url}\n`);
  io.stderr.write(style.dim(`mcpkit console on ${target.describe}; Ctrl-C stops it.\n`));
  if (command.open && !(await (io.openBrowser ?? openSystemBrowser)(running.url))) {
    io.stderr.write(style.dim('No browser could be opened: open the URL above.\n'));
  }
  await new Promise<void>((resolve) => {
    const remove = io.onInterrupt(() => {
      remove();
      resolve();
    });
  });
  await running.close();
  await closeAuths();
  return ExitCode.Success;
}

/**
 * The login's steps, from the CLI's OAuth provider to the console's page: held until the console
 * is there to show them.
 */
function authStepRelay(): {
  observer: (step: ServerAuthStep) => void;
  source: (show: (step: object) => void) => void;
} {
  const held: object[] = [];
  let show: ((step: object) => void) | undefined;
  return {
    observer: (step) => (show ? show(step) : held.push(step)),
    source: (next) => {
      show = next;
      for (const step of held.splice(0)) next(step);
    },
  };
}

/**
 * Logins through the console's page: the CLI's providers are made before the console listens, so
 * their redirects read the console's once attached (the first login starts after that, on a 401).
 * Against a host, each server's redirect names it on the page.
 */
function pageLoginRelay(): {
  redirectFor: (server?: string) => LoginRedirect;
  attach: (redirect: ConsoleLoginRedirect) => void;
} {
  let attached: ConsoleLoginRedirect | undefined;
  const current = (): ConsoleLoginRedirect => {
    if (!attached) throw new Error('The console is not listening yet');
    return attached;
  };
  return {
    redirectFor: (server) => ({
      get redirectUri() {
        return current().redirectUri;
      },
      wait: (url, reason) => current().wait(url, reason, server),
    }),
    attach: (redirect) => {
      attached = redirect;
    },
  };
}

/** A login's step; against a host, with the server whose login it is. */
type ServerAuthStep = AuthStep & { readonly server?: string };

/** What the console's logins need from `runConsole`: where steps go, and the page's redirect. */
interface PageLoginContext {
  readonly observer: (step: ServerAuthStep) => void;
  readonly redirect: (server?: string) => LoginRedirect;
}

/** The login of one HTTP server, through the console's page (none for a stdio one, nor with an Authorization header). */
function pageAuth(
  target: ResolvedTarget,
  settings: ClientSettings,
  io: CliIo,
  notice: (text: string) => void,
  login: PageLoginContext,
  server?: string,
): Promise<CliAuth | undefined> {
  if (target.kind !== 'http') return Promise.resolve(undefined);
  return import('./auth/commands.js').then(({ createCliAuth }) =>
    createCliAuth(
      target,
      settings,
      { verb: 'info' },
      {
        io,
        onTerminal: io.stdin.isTTY === true && io.stderr.isTTY === true,
        notice,
        trace: undefined,
        // Against a host, each step names its server.
        observer: server ? (step) => login.observer({ ...step, server }) : login.observer,
        redirect: login.redirect(server),
      },
    ),
  );
}

/**
 * `--config FILE` alone: every server of FILE behind a host; anything else: one server. An HTTP
 * server uses the cached tokens, refreshed; a 401 (or a 403 asking for more scope) starts a login
 * from the console's page, on a terminal or not (unless `--no-login`); against a host, each
 * remote server has a login of its own.
 */
async function consoleTarget(
  spec: TargetSpec,
  settings: ClientSettings,
  io: CliIo,
  notice: (text: string) => void,
  login: PageLoginContext,
): Promise<{ target: ConsoleTarget; auths: CliAuth[] }> {
  if (spec.kind === 'config' && spec.server === undefined) {
    const oneServerOnly = Object.keys(settings.env).length > 0 || settings.cwd !== undefined;
    if (oneServerOnly || settings.headers.length > 0) {
      throw usageError('-e, --cwd and --header apply to one server', 'Add --server NAME');
    }
    const servers = await loadAllServers(spec.file, process.env);
    const byServer = new Map<string, CliAuth>();
    for (const entry of servers) {
      if (entry.kind !== 'url') continue;
      const remote = {
        kind: 'http',
        url: entry.url,
        headers: entry.headers,
        legacySse: false,
        ...(entry.oauth ? { oauth: entry.oauth } : {}),
      } as const;
      const auth = await pageAuth(remote, settings, io, notice, login, entry.name);
      if (auth) byServer.set(entry.name, auth);
    }
    return {
      target: {
        kind: 'host',
        describe: `--config ${spec.file}`,
        servers,
        authProvider: (entry) => byServer.get(entry.name),
      },
      auths: [...byServer.values()],
    };
  }
  const resolved = await resolveTarget(spec, settings);
  const describe =
    spec.kind === 'url'
      ? spec.url.href
      : spec.kind === 'stdio'
        ? `-- ${describeTarget(resolved)}`
        : `--config ${spec.file} --server ${spec.server}`;
  const auth = await pageAuth(resolved, settings, io, notice, login);
  // The server's stderr is not shown by the console; a stdio server that dies says why on connect.
  return {
    target: {
      kind: 'server',
      describe,
      transport: () => createTransport(resolved, undefined, undefined, auth),
    },
    auths: auth ? [auth] : [],
  };
}
