/**
 * The CLI's OAuth token cache: one file per server (its tokens, and the client id given with
 * `--client-id`) and one per authorization server (the client registered there), under the
 * user's config directory. Files are mode 0600 in 0700 directories and replaced atomically
 * (written to a temporary file, then renamed), so a reader never sees half a file and two commands
 * working on different servers never overwrite each other's entries.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { StoredClient, StoredTokens, TokenStore } from '@mcpkit/auth/client';
import { CliError, ExitCode } from '../errors.js';

/** What the cache keeps about one server. */
export interface ServerEntry {
  readonly resource: string;
  readonly tokens?: StoredTokens;
  /** A pre-registered client given at `login` (`--client-id`, `--client-secret`), reused later. */
  readonly client?: StoredClient;
  /** The `--scope` given at `login`, asked for again by later logins. */
  readonly scope?: string;
}

/** What `login` remembers about a server besides its tokens. */
export type ServerSettings = Pick<ServerEntry, 'client' | 'scope'>;

interface IssuerEntry {
  readonly issuer: string;
  readonly client: StoredClient;
}

/**
 * The directory where mcpkit keeps per-user state: `$XDG_CONFIG_HOME/mcpkit` when set, else
 * `~/Library/Application Support/mcpkit` on macOS, `%APPDATA%\mcpkit` on Windows and
 * `~/.config/mcpkit` elsewhere.
 *
 * @example
 * ```ts
 * configDirectory({ XDG_CONFIG_HOME: '/tmp/cfg' }); // '/tmp/cfg/mcpkit'
 * ```
 */
export function configDirectory(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'mcpkit');
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'mcpkit');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'mcpkit');
  return path.join(home, '.config', 'mcpkit');
}

/**
 * A {@link TokenStore} on disk, plus what the CLI remembers per server.
 *
 * @example
 * ```ts
 * const cache = new FileTokenCache(configDirectory(process.env));
 * const provider = new OAuthClientProvider({ serverUrl, store: cache, redirect, redirectUri });
 * ```
 */
export class FileTokenCache implements TokenStore {
  private readonly serversDir: string;
  private readonly issuersDir: string;

  constructor(readonly directory: string) {
    this.serversDir = path.join(directory, 'auth', 'servers');
    this.issuersDir = path.join(directory, 'auth', 'issuers');
  }

  /** The file that holds what is cached for `resource` (whether or not it exists). */
  serverFile(resource: string): string {
    return path.join(this.serversDir, `${digest(resource)}.json`);
  }

  /** Everything cached for a server, if anything is. */
  async server(resource: string): Promise<ServerEntry | undefined> {
    const entry = await readJson<ServerEntry>(this.serverFile(resource));
    return entry?.resource === resource ? entry : undefined;
  }

  async loadTokens(resource: string): Promise<StoredTokens | undefined> {
    return (await this.server(resource))?.tokens;
  }

  async saveTokens(resource: string, tokens: StoredTokens | undefined): Promise<void> {
    const { tokens: _old, ...rest } = (await this.server(resource)) ?? { resource };
    await this.saveServer(tokens ? { ...rest, tokens } : rest);
  }

  /** Remembers the pre-registered client and scope a server was logged in with. */
  async saveServerSettings(resource: string, settings: ServerSettings): Promise<void> {
    await this.saveServer({ ...((await this.server(resource)) ?? { resource }), ...settings });
  }

  async loadClient(issuer: string): Promise<StoredClient | undefined> {
    const entry = await readJson<IssuerEntry>(path.join(this.issuersDir, `${digest(issuer)}.json`));
    return entry?.issuer === issuer ? entry.client : undefined;
  }

  async saveClient(issuer: string, client: StoredClient): Promise<void> {
    await writeAtomically(path.join(this.issuersDir, `${digest(issuer)}.json`), { issuer, client });
  }

  /**
   * The loopback port of the last login. Logins reuse it while it is free, so an authorization
   * server that matches redirect URIs exactly (not per RFC 8252 §7.3) keeps accepting the one
   * mcpkit registered.
   */
  async loopbackPort(): Promise<number | undefined> {
    const entry = await readJson<{ port?: unknown }>(path.join(this.directory, 'auth', 'loopback.json'));
    return Number.isInteger(entry?.port) ? (entry?.port as number) : undefined;
  }

  async saveLoopbackPort(port: number): Promise<void> {
    await writeAtomically(path.join(this.directory, 'auth', 'loopback.json'), { port });
  }

  /** Forgets a server: its tokens and the client id given for it. Resolves whether anything was cached. */
  async forget(resource: string): Promise<boolean> {
    const existed = (await this.server(resource)) !== undefined;
    await rm(this.serverFile(resource), { force: true });
    return existed;
  }

  private async saveServer(entry: ServerEntry): Promise<void> {
    if (entry.tokens === undefined && entry.client === undefined && entry.scope === undefined) {
      await rm(this.serverFile(entry.resource), { force: true });
      return;
    }
    await writeAtomically(this.serverFile(entry.resource), entry);
  }
}

/** A file name for a key (a URL): stable, short, and free of characters a file system refuses. */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

async function readJson<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined; // a damaged entry is treated as absent and replaced by the next login
  }
}

/**
 * Writes `value` as JSON to `file`: first to a temporary file created with mode 0600 (never
 * readable by others, even for a moment), then renamed over the old one.
 */
async function writeAtomically(file: string, value: unknown): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CliError(
      ExitCode.Usage,
      `Could not write the token cache in ${path.dirname(file)}: ${code}`,
      'Check that directory and its permissions, or point XDG_CONFIG_HOME elsewhere',
    );
  }
}
