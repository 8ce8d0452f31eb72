/**
 * Starting a server process: Windows command resolution and readable failure messages.
 * @module
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Why a spawned server process is gone: it could not start, or it exited on its own.
 *
 * @example
 * ```ts
 * client.onClose((error) => {
 *   if (error instanceof StdioServerProcessError) console.error(error.message, error.stderrTail);
 * });
 * ```
 */
export class StdioServerProcessError extends Error {
  override name = 'StdioServerProcessError';

  constructor(
    message: string,
    /** The command as the caller gave it. */
    readonly command: string,
    /** The exit code, when the process exited normally. */
    readonly exitCode: number | null,
    /** The signal that ended the process, if any. */
    readonly signal: NodeJS.Signals | null,
    /** The last few KiB of the process's stderr, when it was piped. */
    readonly stderrTail: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Builds the error for a process that could not be started (ENOENT, EACCES, a missing cwd...). */
export function spawnFailure(
  command: string,
  cwd: string | undefined,
  cause: unknown,
): StdioServerProcessError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return new StdioServerProcessError(
    `Could not start the MCP server process "${command}": ${spawnFailureReason(code, cwd, cause)}`,
    command,
    null,
    null,
    '',
    { cause },
  );
}

function spawnFailureReason(code: string | undefined, cwd: string | undefined, cause: unknown): string {
  // Node reports a missing working directory as ENOENT on the command; tell the two apart.
  if (code === 'ENOENT' && cwd !== undefined && !existsSync(cwd)) {
    return `the working directory ${JSON.stringify(cwd)} does not exist`;
  }
  if (code === 'ENOENT') return 'ENOENT (command not found) — is it installed and on PATH?';
  if (code === 'EACCES') return 'EACCES (permission denied) — is the file executable?';
  if (code !== undefined) return code;
  return cause instanceof Error ? cause.message : String(cause);
}

/** How many characters of the last stderr line go into an exit message. */
const EXIT_MESSAGE_STDERR_CHARS = 300;

/** Builds the error for a process that exited while the transport was open. */
export function exitFailure(
  command: string,
  exitCode: number | null,
  signal: NodeJS.Signals | null,
  stderrTail: string,
): StdioServerProcessError {
  const how = signal !== null ? `was killed by signal ${signal}` : `exited with code ${exitCode}`;
  const lastLine = lastNonEmptyLine(stderrTail);
  const detail = lastLine === '' ? '' : `; last stderr output: ${lastLine}`;
  return new StdioServerProcessError(
    `MCP server process "${command}" ${how}${detail}`,
    command,
    exitCode,
    signal,
    stderrTail,
  );
}

function lastNonEmptyLine(text: string): string {
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!.trim();
    if (line !== '') {
      return line.length > EXIT_MESSAGE_STDERR_CHARS ? `${line.slice(0, EXIT_MESSAGE_STDERR_CHARS)}…` : line;
    }
  }
  return '';
}

/** What to pass to `child_process.spawn`. */
export interface SpawnPlan {
  readonly file: string;
  readonly args: string[];
  readonly windowsVerbatimArguments: boolean;
}

/** Where {@link planSpawn} looks for files; injectable so the Windows logic is testable anywhere. */
export interface SpawnHost {
  readonly platform: NodeJS.Platform;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  exists(file: string): boolean;
}

// cmd.exe expands % and reacts to quotes and line breaks even inside a quoted argument, so such
// arguments cannot be passed through a .cmd/.bat shim safely.
const UNSAFE_FOR_CMD = /["%\r\n\0]/;
const BATCH_FILE = /\.(?:cmd|bat)$/i;

/**
 * Decides how to spawn `command`.
 *
 * Off Windows, and for `.exe` files on Windows, the command runs as given with `shell: false`.
 * On Windows a command that resolves (through `PATH` and `PATHEXT`) to a `.cmd` or `.bat` shim,
 * such as `npx` or a globally installed npm package, cannot be spawned directly; it runs as
 * `cmd.exe /d /s /v:off /c "..."` with every argument quoted. Arguments containing `"`, `%` or a
 * line break are refused rather than risk cmd.exe interpreting them.
 */
export function planSpawn(
  command: string,
  args: readonly string[],
  host: SpawnHost = currentHost(),
): SpawnPlan {
  const direct: SpawnPlan = { file: command, args: [...args], windowsVerbatimArguments: false };
  if (host.platform !== 'win32') return direct;
  const resolved = findWindowsExecutable(command, host);
  if (resolved === undefined || !BATCH_FILE.test(resolved)) return direct;
  const line = [resolved, ...args].map(quoteForCmd).join(' ');
  const shell = envValue(host.env, 'COMSPEC') ?? 'cmd.exe';
  return { file: shell, args: ['/d', '/s', '/v:off', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

function currentHost(): SpawnHost {
  return {
    platform: process.platform,
    cwd: process.cwd(),
    env: process.env as Record<string, string>,
    exists: existsSync,
  };
}

function findWindowsExecutable(command: string, host: SpawnHost): string | undefined {
  const win = path.win32;
  const extensions = (envValue(host.env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const names = win.extname(command) === '' ? extensions.map((ext) => command + ext) : [command];
  const hasDirectory = command.includes('/') || command.includes('\\') || command.includes(':');
  const directories = hasDirectory
    ? [host.cwd]
    : [host.cwd, ...(envValue(host.env, 'PATH') ?? '').split(';').filter(Boolean)];
  for (const directory of directories) {
    for (const name of names) {
      const candidate = win.resolve(directory, name);
      if (host.exists(candidate)) return candidate;
    }
  }
  return undefined;
}

function quoteForCmd(arg: string): string {
  if (UNSAFE_FOR_CMD.test(arg)) {
    throw new Error(
      `Cannot pass the argument ${JSON.stringify(arg)} through a .cmd/.bat script safely: cmd.exe would ` +
        'interpret its quote, percent sign or line break. Run the underlying executable (e.g. node) instead.',
    );
  }
  // A backslash run before the closing quote would escape it for the C runtime's parser.
  let trailing = 0;
  while (trailing < arg.length && arg.charCodeAt(arg.length - 1 - trailing) === BACKSLASH) trailing++;
  return `"${arg}${'\\'.repeat(trailing)}"`;
}

const BACKSLASH = 0x5c;

function envValue(env: Readonly<Record<string, string>>, name: string): string | undefined {
  if (env[name] !== undefined) return env[name];
  const upper = name.toUpperCase();
  for (const key of Object.keys(env)) {
    if (key.toUpperCase() === upper) return env[key];
  }
  return undefined;
}
