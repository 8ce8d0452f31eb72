/**
 * Config files on disk: read, with `${workspaceFolder}` and relative `cwd` resolved the way
 * VS Code and Claude Desktop do.
 * @module
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type AskInput,
  type ConfigSource,
  parseHostConfig,
  parseServerEntry,
  type ServerEntry,
} from '../config.js';
import { HostConfigError } from '../errors.js';
import { parseJsonc } from './jsonc.js';

/** Options of {@link loadHostConfig} and {@link loadServerEntry}. */
export interface LoadConfigOptions {
  /** What `${env:NAME}` reads. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Answers `${input:ID}` (a prompt, a secret store); without it such a variable is an error. */
  ask?: AskInput;
}

/**
 * Reads every server of a config file.
 *
 * @throws {HostConfigError} the file is missing or unreadable, or an entry is wrong.
 * @example
 * ```ts
 * const servers = await loadHostConfig('.vscode/mcp.json', { ask: promptUser });
 * ```
 */
export async function loadHostConfig(file: string, options: LoadConfigOptions = {}): Promise<ServerEntry[]> {
  return parseHostConfig(await configSource(file, options));
}

/**
 * Reads one server of a config file (the only one, when `name` is omitted).
 *
 * @throws {HostConfigError} as {@link loadHostConfig}, or when no such server is listed.
 * @example
 * ```ts
 * const entry = await loadServerEntry('claude_desktop_config.json', 'filesystem');
 * ```
 */
export async function loadServerEntry(
  file: string,
  name: string | undefined,
  options: LoadConfigOptions = {},
): Promise<ServerEntry> {
  return parseServerEntry(await configSource(file, options), name);
}

async function configSource(file: string, options: LoadConfigOptions): Promise<ConfigSource> {
  const dir = path.dirname(path.resolve(file));
  return {
    file,
    text: await readConfig(file),
    parse: parseJsonc,
    // VS Code's workspace folder: the folder holding `.vscode` (else the config file's own folder).
    workspaceFolder: path.basename(dir) === '.vscode' ? path.dirname(dir) : dir,
    env: options.env ?? process.env,
    ...(options.ask ? { ask: options.ask } : {}),
    resolvePath: (relative) => path.resolve(path.dirname(file), relative),
  };
}

async function readConfig(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new HostConfigError(`Config file ${file} does not exist`);
    if (code === 'EISDIR') throw new HostConfigError(`Config file ${file} is a directory`);
    throw new HostConfigError(`Could not read config file ${file}: ${code ?? String(error)}`);
  }
}
