/**
 * Reading the config files people already have: `mcpServers` (Claude Desktop, Cursor, Windsurf,
 * Cline) and VS Code's `servers` with `type`, `inputs` and variables.
 * @module
 */

import { readConfigDocument } from './config/document.js';
import { checkEntry } from './config/entry.js';
import type { ConfigSource, ServerEntry } from './config/types.js';
import { expandVariables, type VariableScope } from './config/variables.js';
import { HostConfigError } from './errors.js';

export type { AskInput, ConfigSource, OAuthEntry, ServerEntry } from './config/types.js';

/**
 * Every server of a config file, checked and expanded, in the file's order. Each `${input:ID}`
 * is asked once (through `source.ask`) however many servers use it.
 *
 * @throws {HostConfigError} naming the file, the server and the field.
 * @example
 * ```ts
 * const servers = await parseHostConfig({ file: 'mcp.json', text, workspaceFolder: '/w', env: {} });
 * ```
 */
export async function parseHostConfig(source: ConfigSource): Promise<ServerEntry[]> {
  const { document, servers } = readConfigDocument(source.file, source.text, source.parse);
  const answers = new Map<string, Promise<string>>();
  const entries: ServerEntry[] = [];
  for (const name of Object.keys(servers))
    entries.push(await resolveEntry(source, document, servers, name, answers));
  return entries;
}

/**
 * One server of a config file (or the only one, when `name` is omitted). Only that entry's
 * variables are expanded, so nobody is asked for another server's inputs.
 *
 * @throws {HostConfigError} no such server, several and none chosen, or a bad entry.
 * @example
 * ```ts
 * const entry = await parseServerEntry(source, 'filesystem');
 * ```
 */
export async function parseServerEntry(source: ConfigSource, name?: string): Promise<ServerEntry> {
  const { document, servers } = readConfigDocument(source.file, source.text, source.parse);
  const names = Object.keys(servers);
  const { file } = source;
  if (names.length === 0) throw new HostConfigError(`${file} lists no servers`, 'Add one under "mcpServers"');
  const chosen = name ?? (names.length === 1 ? names[0]! : undefined);
  if (chosen === undefined) {
    throw new HostConfigError(
      `${file} lists ${names.length} servers; choose one with --server`,
      `Servers: ${names.join(', ')}`,
    );
  }
  if (!Object.hasOwn(servers, chosen)) {
    throw new HostConfigError(`${file} has no server named "${chosen}"`, `Servers: ${names.join(', ')}`);
  }
  return resolveEntry(source, document, servers, chosen, new Map());
}

async function resolveEntry(
  source: ConfigSource,
  document: Record<string, unknown>,
  servers: Record<string, unknown>,
  name: string,
  answers: Map<string, Promise<string>>,
): Promise<ServerEntry> {
  const scope: VariableScope = { source, server: name, document, answers };
  const expanded = await expandVariables(scope, servers[name], '');
  return checkEntry(`${source.file}: server "${name}"`, name, expanded, source.resolvePath);
}
