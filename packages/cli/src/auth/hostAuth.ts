/**
 * OAuth for every HTTP server of a config file behind a host (`--config FILE` with several
 * servers, `mcpkit gateway`): one provider per server, each with its entry's `oauth` client and
 * scope (the flags fill in what an entry leaves out), its tokens cached under its own URL.
 * @module
 */
import type { AuthProvider } from '@mcpkit/client/http';
import type { AuthSettings } from '../args.js';
import type { ServerEntry } from '../config.js';
import { type AuthContext, serverAuth } from './commands.js';
import type { CliAuth } from './login.js';

/**
 * The providers of a host's HTTP servers, by server name.
 *
 * @example
 * ```ts
 * const connector = nodeConnector({ authProvider: auth.providerOf });
 * await auth.close();
 * ```
 */
export interface HostAuth {
  /** The provider of `entry`, or undefined (not HTTP, or it sends its own `Authorization`). */
  readonly providerOf: (entry: ServerEntry & { kind: 'url' }) => AuthProvider | undefined;
  /** Stops the loopback listeners that logins started. */
  close(): Promise<void>;
}

/**
 * One provider per HTTP server of `servers`; `configFile`, the file they come from, names the
 * login to run (`mcpkit login --config FILE --server NAME`) when none may start here.
 *
 * @example
 * ```ts
 * const auth = await hostAuth(servers, settings.auth, { io, onTerminal: false, notice, trace: undefined });
 * const connector = nodeConnector({ authProvider: auth.providerOf });
 * ```
 */
export async function hostAuth(
  servers: readonly ServerEntry[],
  settings: AuthSettings,
  context: AuthContext,
  configFile?: string,
): Promise<HostAuth> {
  const byServer = new Map<string, CliAuth>();
  for (const entry of servers) {
    if (entry.kind !== 'url') continue;
    if (Object.keys(entry.headers).some((name) => name.toLowerCase() === 'authorization')) continue;
    const target = { kind: 'http', url: entry.url, headers: entry.headers, legacySse: false } as const;
    const notice = (text: string) => context.notice(`${entry.name}: ${text}`);
    // From a config file, the login that caches tokens with this entry's own client.
    const loginCommand = configFile
      ? `mcpkit login --config ${configFile} --server ${entry.name}`
      : undefined;
    byServer.set(
      entry.name,
      await serverAuth({ ...target, ...(entry.oauth ? { oauth: entry.oauth } : {}) }, settings, false, {
        ...context,
        notice,
        ...(loginCommand ? { loginCommand } : {}),
        // Where no login may ever start (the gateway), the reason itself says which login to run:
        // a server's failure is logged as its message alone.
        ...(loginCommand && context.whyNot ? { whyNot: `${context.whyNot} (run ${loginCommand})` } : {}),
      }),
    );
  }
  return {
    providerOf: (entry) => byServer.get(entry.name),
    close: async () => {
      await Promise.all([...byServer.values()].map((auth) => auth.close()));
    },
  };
}
