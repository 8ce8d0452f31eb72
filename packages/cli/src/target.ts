/**
 * From what the command line names (a URL, a command after `--`, a config entry) to a transport.
 * @module
 */
import {
  type AuthProvider,
  type FetchLike,
  HttpClientTransport,
  SseClientTransport,
} from '@mcpkit/client/http';
import type { Transport } from '@mcpkit/core';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import type { ClientSettings, TargetSpec } from './args.js';
import {
  type AskInput,
  loadAllServers,
  loadServerEntry,
  type OAuthEntry,
  type ServerEntry,
} from './config.js';
import { usageError } from './errors.js';
import { type EntryAuth, gatewayTransport, type ServerStatusLine } from './gateway/inProcess.js';

/** A server to connect to, with everything the command line and config file say about it. */
export type ResolvedTarget =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string | undefined;
    }
  | {
      readonly kind: 'http';
      readonly url: URL;
      readonly headers: Readonly<Record<string, string>>;
      readonly legacySse: boolean;
      /** The config entry's own OAuth client settings (`oauth`), which win over the flags. */
      readonly oauth?: OAuthEntry;
    }
  | {
      /** Every server of a config file, behind an in-process gateway. */
      readonly kind: 'gateway';
      readonly file: string;
      readonly servers: readonly ServerEntry[];
      /** Each server's state, once the transport is made. */
      status?: () => ServerStatusLine[];
      /** The server behind a catalogue name, once the transport is made. */
      serverOf?: (kind: 'tools' | 'prompts', name: string) => string | undefined;
      /** The OAuth provider of each HTTP server, set before the transport is made. */
      authProvider?: EntryAuth;
    };

/**
 * Resolves the target: reads the config entry if there is one, and merges `-e` and `--header`.
 *
 * @example
 * ```ts
 * const target = await resolveTarget({ kind: 'stdio', command: 'node', args: ['server.js'] }, settings);
 * ```
 */
export async function resolveTarget(
  spec: TargetSpec,
  settings: ClientSettings,
  ask?: AskInput,
): Promise<ResolvedTarget> {
  const headers = Object.fromEntries(settings.headers);
  switch (spec.kind) {
    case 'url':
      return { kind: 'http', url: spec.url, headers, legacySse: false };
    case 'stdio':
      return { kind: 'stdio', command: spec.command, args: spec.args, env: settings.env, cwd: settings.cwd };
    case 'config': {
      // Without --server: the only server of the file, or all of them behind an in-process gateway.
      const servers = spec.server === undefined ? await loadAllServers(spec.file, process.env, ask) : [];
      if (servers.length > 1) {
        const oneServerOnly = Object.keys(settings.env).length > 0 || settings.cwd !== undefined;
        if (oneServerOnly || settings.headers.length > 0) {
          throw usageError('-e, --cwd and --header apply to one server', 'Add --server NAME');
        }
        return { kind: 'gateway', file: spec.file, servers };
      }
      const entry = servers[0] ?? (await loadServerEntry(spec.file, spec.server, process.env, ask));
      if (entry.kind === 'url') {
        if (Object.keys(settings.env).length > 0 || settings.cwd !== undefined) {
          throw usageError(`Server "${entry.name}" is an HTTP server; -e and --cwd apply to stdio servers`);
        }
        return {
          kind: 'http',
          url: entry.url,
          headers: { ...entry.headers, ...headers },
          legacySse: entry.transport === 'sse',
          ...(entry.oauth ? { oauth: entry.oauth } : {}),
        };
      }
      if (settings.headers.length > 0) {
        throw usageError(
          `Server "${entry.name}" is a stdio server; --header applies to HTTP servers`,
          'Use -e KEY=VAL',
        );
      }
      return {
        kind: 'stdio',
        command: entry.command,
        args: entry.args,
        env: { ...entry.env, ...settings.env },
        cwd: settings.cwd ?? entry.cwd,
      };
    }
  }
}

/**
 * A one-line description of the target for messages: the URL, or the command line.
 *
 * @example
 * ```ts
 * describeTarget(target); // 'node server.js'
 * ```
 */
export function describeTarget(target: ResolvedTarget): string {
  if (target.kind === 'http') return target.url.href;
  if (target.kind === 'gateway') return `every server of ${target.file}`;
  return [target.command, ...target.args].map(shellQuote).join(' ');
}

/** Quotes a word for a POSIX shell when it needs it, so hints can be pasted back. */
function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * How a command resumes a dropped answer stream: a person is waiting, so a server that is gone
 * (connection refused) is given up after two attempts (0.5 + 0.75 s, or the server's `retry:`
 * times 1 and 1.5), not after the library's 13 s meant for long-lived clients.
 */
const CLI_RECONNECTION = {
  initialReconnectionDelay: 500,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 2,
} as const;

/** `fetch` that tells `onFailure` of every stream (GET) that failed at the network level (not aborted). */
function reportingFailures(onFailure: (error: unknown) => void): FetchLike {
  return async (url, init) => {
    try {
      return await fetch(url, init);
    } catch (error) {
      // A failed GET is a stream that will be retried; other requests fail on their own.
      if (init.method === 'GET' && !init.signal?.aborted) onFailure(error);
      throw error;
    }
  };
}

/**
 * Creates the transport for a target. A stdio server's stderr goes to `onStderr` (shown with
 * `--verbose`; its tail is quoted if the server dies either way).
 *
 * @example
 * ```ts
 * const transport = createTransport(target, (text) => process.stderr.write(text));
 * ```
 */
export function createTransport(
  target: ResolvedTarget,
  onStderr: ((text: string) => void) | undefined,
  onNetworkFailure?: (error: unknown) => void,
  authProvider?: AuthProvider,
): Transport {
  if (target.kind === 'gateway') {
    const { transport, status, serverOf } = gatewayTransport(target.servers, target.authProvider);
    target.status = status;
    target.serverOf = serverOf;
    return transport;
  }
  if (target.kind === 'stdio') {
    return new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: target.env,
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      stderr: 'pipe',
      ...(onStderr ? { onStderr } : {}),
    });
  }
  const options = {
    headers: target.headers,
    ...CLI_RECONNECTION,
    ...(onNetworkFailure ? { fetch: reportingFailures(onNetworkFailure) } : {}),
    ...(authProvider ? { authProvider } : {}),
  };
  return target.legacySse
    ? new SseClientTransport(target.url, options)
    : new HttpClientTransport(target.url, options);
}
