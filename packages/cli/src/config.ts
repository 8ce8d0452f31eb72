/**
 * `--config FILE --server NAME`: servers described in the `mcpServers` JSON format that Claude
 * Desktop, Cursor and (as `servers`) VS Code use. The parsing lives in `@mcpkit/host`; this
 * turns its errors into usage errors.
 * @module
 */
import { type AskInput, HostConfigError, type ServerEntry } from '@mcpkit/host';
import { loadServerEntry as loadEntry, loadHostConfig } from '@mcpkit/host/node';
import { usageError } from './errors.js';

export type { AskInput, OAuthEntry, ServerEntry } from '@mcpkit/host';

/**
 * Reads `file` and returns the entry called `name` (or the only entry, when `name` is omitted).
 *
 * `cwd` is resolved against the file's directory. VS Code's variables are expanded in every
 * string: `${workspaceFolder}`, `${env:NAME}`, and `${input:ID}` (asked through `ask`, with the
 * file's `inputs` entry; without `ask` it is a usage error). Anything else is a usage error.
 *
 * @throws {CliError} a usage error naming the file, the entry and the problem.
 * @example
 * ```ts
 * const entry = await loadServerEntry('claude_desktop_config.json', 'filesystem');
 * ```
 */
export async function loadServerEntry(
  file: string,
  name: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  ask?: AskInput,
): Promise<ServerEntry> {
  return asUsageError(loadEntry(file, name, { env, ...(ask ? { ask } : {}) }));
}

/**
 * Reads every server of `file` (for `--config FILE` without `--server`).
 *
 * @throws {CliError} a usage error naming the file, the entry and the problem.
 * @example
 * ```ts
 * const servers = await loadAllServers('mcp.json');
 * ```
 */
export async function loadAllServers(
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  ask?: AskInput,
): Promise<ServerEntry[]> {
  return asUsageError(loadHostConfig(file, { env, ...(ask ? { ask } : {}) }));
}

async function asUsageError<T>(loading: Promise<T>): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    if (error instanceof HostConfigError) throw usageError(error.message, error.hint);
    throw error;
  }
}
