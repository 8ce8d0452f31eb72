/**
 * The CLI's side of authorization: which commands get an OAuth provider, what `login` and
 * `logout` print, and how an authorization failure is reported.
 * @module
 */
import type { AuthObserver } from '@mcpkit/auth/client';
import { canonicalResource } from '@mcpkit/auth/client';
import type { AuthSettings, ClientAction, ClientSettings, TargetSpec } from '../args.js';
import type { CliIo } from '../cliIo.js';
import type { OAuthEntry } from '../config.js';
import { ExitCode, type ExitCodeValue, usageError } from '../errors.js';
import type { OutputStream, Style } from '../output.js';
import { type ResolvedTarget, resolveTarget } from '../target.js';
import { openSystemBrowser } from './browser.js';
import { CliAuth } from './login.js';
import type { LoginRedirect } from './loopback.js';
import { configDirectory, FileTokenCache } from './tokenCache.js';

/** What the command around the provider offers it. */
export interface AuthContext {
  readonly io: CliIo;
  /** Stdin and stderr are terminals. */
  readonly onTerminal: boolean;
  readonly notice: (text: string) => void;
  readonly trace: ((line: string) => void) | undefined;
  /** Told of each step of a login (`mcpkit console` shows them). */
  readonly observer?: AuthObserver;
  /**
   * Where the person starts logins (`mcpkit console`'s page): logins are then allowed off a
   * terminal too, and come back there.
   */
  readonly redirect?: LoginRedirect;
  /** Why no login may start here, when it is not the terminal or `--no-login` (the gateway). */
  readonly whyNot?: string;
  /** The command that logs in to the server, for the hint when none may start here. */
  readonly loginCommand?: string;
}

/**
 * The OAuth provider for a command, or undefined when the target is not HTTP or the user gives
 * their own `Authorization` header (then they manage credentials themselves).
 *
 * @example
 * ```ts
 * const auth = await createCliAuth(target, settings, action, { io, onTerminal: true, notice, trace: undefined });
 * ```
 */
export async function createCliAuth(
  target: ResolvedTarget,
  settings: ClientSettings,
  action: ClientAction,
  context: AuthContext,
): Promise<CliAuth | undefined> {
  if (target.kind !== 'http') {
    if (action.verb === 'login')
      throw usageError('"login" applies to HTTP servers; a stdio server has no login');
    return undefined;
  }
  if (Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization')) {
    if (action.verb === 'login') {
      throw usageError('"login" obtains the Authorization header itself; drop the one given');
    }
    return undefined;
  }
  const explicit = action.verb === 'login';
  const auth = await serverAuth(target, settings.auth, explicit, context);
  // `login` always signs in afresh (another account, new scopes): the old tokens go first.
  if (explicit) await auth.forgetTokens();
  return auth;
}

/**
 * The OAuth provider of one HTTP server (`explicit`: `mcpkit login`, which may always log in).
 *
 * @example
 * ```ts
 * const auth = await serverAuth({ kind: 'http', url, headers: {}, legacySse: false }, settings.auth, false, context);
 * ```
 */
export async function serverAuth(
  target: ResolvedTarget & { kind: 'http' },
  settings: AuthSettings,
  explicit: boolean,
  context: AuthContext,
): Promise<CliAuth> {
  const allowed = settings.login && (context.onTerminal || context.redirect !== undefined);
  return CliAuth.create({
    url: target.url,
    settings: loginSettings(settings, target.oauth, context.io.env),
    cache: new FileTokenCache(configDirectory(context.io.env)),
    interactive: explicit || allowed,
    whyNot:
      context.whyNot ??
      (settings.login
        ? 'this is not a terminal, so mcpkit does not open a browser by itself'
        : '--no-login forbids opening a browser'),
    openBrowser: context.io.openBrowser ?? openSystemBrowser,
    notice: context.notice,
    trace: context.trace,
    observer: context.observer,
    redirect: context.redirect,
    loginCommand: context.loginCommand,
  });
}

/**
 * The client and scope for one server: its config entry's `oauth` fields win over the flags (a
 * flag is one value for every server of a file, while a client id belongs to one authorization
 * server); a flag fills in what the entry leaves out. A secret goes with its own client id only:
 * the entry's `clientSecret` with its `clientId`, `--client-secret` (or `MCPKIT_CLIENT_SECRET`)
 * with `--client-id`.
 */
function loginSettings(flags: AuthSettings, entry: OAuthEntry | undefined, env: CliIo['env']): AuthSettings {
  if (entry?.clientId !== undefined) {
    return {
      ...flags,
      clientId: entry.clientId,
      clientSecret: entry.clientSecret,
      scope: entry.scope ?? flags.scope,
    };
  }
  // A secret in the environment stays out of `ps`, unlike one on the command line.
  const envSecret = flags.clientId ? env.MCPKIT_CLIENT_SECRET : undefined;
  return {
    ...flags,
    clientSecret: flags.clientSecret ?? (envSecret || undefined),
    scope: entry?.scope ?? flags.scope,
  };
}

/**
 * What `mcpkit login` prints once connected: whether a login took place, never a token.
 *
 * @example
 * ```ts
 * return finishLogin(auth, 'https://mcp.example.com/mcp', io.stdout, style);
 * ```
 */
export function finishLogin(
  auth: CliAuth | undefined,
  targetHint: string,
  stdout: OutputStream,
  style: Style,
): ExitCodeValue {
  if (!auth?.loggedIn) {
    stdout.write(`${targetHint} did not ask for a login; nothing was cached.\n`);
    return ExitCode.Success;
  }
  stdout.write(
    `${style.green('Logged in')} to ${auth.resource}. Its tokens are cached for later commands; ` +
      `"mcpkit logout ${targetHint}" deletes them.\n`,
  );
  return ExitCode.Success;
}

/**
 * `mcpkit logout URL`: deletes what the cache holds for that server.
 *
 * @example
 * ```ts
 * const code = await runLogout({ kind: 'url', url: new URL('https://mcp.example.com/mcp') }, settings, io);
 * ```
 */
export async function runLogout(spec: TargetSpec, settings: ClientSettings, io: CliIo): Promise<number> {
  const target = await resolveTarget(spec, settings);
  if (target.kind !== 'http')
    throw usageError('"logout" applies to HTTP servers; a stdio server has no login');
  const resource = canonicalResource(target.url);
  const cache = new FileTokenCache(configDirectory(io.env));
  const existed = await cache.forget(resource);
  io.stdout.write(
    existed
      ? `Logged out of ${resource}: its cached tokens are deleted.\n`
      : `Not logged in to ${resource}; nothing to delete.\n`,
  );
  return ExitCode.Success;
}
