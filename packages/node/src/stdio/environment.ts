/**
 * The environment a spawned MCP server sees.
 *
 * A server is third-party code. By default it gets only what a program needs to run (paths, user,
 * locale, temp dir) and nothing the parent happens to hold, such as API keys and tokens. Callers
 * pass what the server needs explicitly.
 * @module
 */

const POSIX_VARS = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TZ',
] as const;

const WINDOWS_VARS = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
] as const;

/**
 * The parent's environment variables a spawned server inherits by default on this platform.
 *
 * @example
 * ```ts
 * new StdioClientTransport({
 *   command: 'my-server',
 *   inheritEnv: [...DEFAULT_INHERITED_ENV_VARS, 'HTTPS_PROXY'],
 * });
 * ```
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = Object.freeze(
  process.platform === 'win32' ? [...WINDOWS_VARS] : [...POSIX_VARS],
);

/**
 * The default environment for a spawned server: the {@link DEFAULT_INHERITED_ENV_VARS} that are
 * set in this process. Values starting with `()` (exported shell functions) are skipped.
 *
 * @example
 * ```ts
 * const env = { ...getDefaultEnvironment(), API_KEY: process.env.API_KEY ?? '' };
 * ```
 */
export function getDefaultEnvironment(): Record<string, string> {
  return pickEnvironment(DEFAULT_INHERITED_ENV_VARS);
}

/**
 * What a spawned server inherits: see `StdioClientOptions.inheritEnv`.
 *
 * @example
 * ```ts
 * const inherit: InheritEnv = [...DEFAULT_INHERITED_ENV_VARS, 'HTTPS_PROXY', 'NO_PROXY'];
 * ```
 */
export type InheritEnv = boolean | readonly string[];

/**
 * Builds the child's environment: the inherited part, then `extra` on top (an `undefined` value
 * removes an inherited variable).
 */
export function buildChildEnvironment(
  inherit: InheritEnv | undefined,
  extra: Readonly<Record<string, string | undefined>> | undefined,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env = inheritedEnvironment(inherit);
  if (!extra) return env;
  for (const [name, value] of Object.entries(extra)) {
    // Windows names are case-insensitive: "Path" from the caller must replace "PATH", not sit
    // beside it with the child picking one at random.
    if (platform === 'win32') removeCaseInsensitive(env, name);
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function inheritedEnvironment(inherit: InheritEnv | undefined): Record<string, string> {
  if (inherit === undefined) return getDefaultEnvironment();
  if (inherit === false) return {};
  if (inherit === true) return pickEnvironment(Object.keys(process.env));
  return pickEnvironment(inherit);
}

function pickEnvironment(names: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = process.env[name];
    if (value === undefined || value.startsWith('()')) continue;
    env[name] = value;
  }
  return env;
}

function removeCaseInsensitive(env: Record<string, string>, name: string): void {
  const upper = name.toUpperCase();
  for (const key of Object.keys(env)) {
    if (key.toUpperCase() === upper) delete env[key];
  }
}
