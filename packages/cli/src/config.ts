/**
 * `--config FILE --server NAME`: servers described in the `mcpServers` JSON format that Claude
 * Desktop, Cursor and (as `servers`) VS Code use.
 * @module
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isRecord } from '@mcpkit/core/internal';
import { usageError } from './errors.js';

/**
 * One server entry of a config file, checked and resolved.
 *
 * @example
 * ```ts
 * const entry: ServerEntry = { kind: 'stdio', name: 'demo', command: 'npx', args: ['mcpkit', 'serve', '--stdio'], env: {} };
 * ```
 */
export type ServerEntry =
  | {
      readonly kind: 'stdio';
      readonly name: string;
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | {
      readonly kind: 'url';
      readonly name: string;
      readonly url: URL;
      readonly headers: Readonly<Record<string, string>>;
      /** `sse` when the entry says the server speaks only the legacy HTTP+SSE transport. */
      readonly transport: 'auto' | 'sse';
    };

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'streamable_http']);

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
  const document = parseJson(file, await readConfig(file));
  const servers = serversOf(file, document);
  const names = Object.keys(servers);
  if (names.length === 0) throw usageError(`${file} lists no servers`, 'Add one under "mcpServers"');
  const chosen = name ?? (names.length === 1 ? names[0]! : undefined);
  if (chosen === undefined) {
    throw usageError(
      `${file} lists ${names.length} servers; choose one with --server`,
      `Servers: ${names.join(', ')}`,
    );
  }
  if (!Object.hasOwn(servers, chosen)) {
    throw usageError(`${file} has no server named "${chosen}"`, `Servers: ${names.join(', ')}`);
  }
  const where = `${file}: server "${chosen}"`;
  const scope = { file, server: chosen, env, document: document as Record<string, unknown>, ask };
  return checkEntry(where, chosen, await expandVariables(scope, servers[chosen], ''), path.dirname(file));
}

async function readConfig(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw usageError(`Config file ${file} does not exist`);
    if (code === 'EISDIR') throw usageError(`Config file ${file} is a directory`);
    throw usageError(`Could not read config file ${file}: ${code ?? String(error)}`);
  }
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw usageError(
      `${file} is not valid JSON: ${message}${locate(message, text)}`,
      'Check for trailing commas and comments, which JSON does not allow',
    );
  }
}

/** Turns V8's "at position N" into a line and column a person can jump to. */
function locate(message: string, text: string): string {
  const match = /at position (\d+)/.exec(message);
  if (!match) return '';
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}

function serversOf(file: string, document: unknown): Record<string, unknown> {
  if (!isRecord(document)) throw usageError(`${file} must hold a JSON object with "mcpServers"`);
  const servers = document.mcpServers ?? document.servers;
  if (servers === undefined) {
    throw usageError(
      `${file} has no "mcpServers" object`,
      'Expected: { "mcpServers": { "NAME": { "command": … } } }',
    );
  }
  if (!isRecord(servers)) throw usageError(`${file}: "mcpServers" must be an object of named servers`);
  return servers;
}

function checkEntry(where: string, name: string, entry: unknown, baseDir: string): ServerEntry {
  if (!isRecord(entry)) throw usageError(`${where} must be an object`);
  const type = optionalString(where, entry, 'type');
  if (entry.command !== undefined && entry.url !== undefined) {
    throw usageError(`${where} has both "command" and "url"; keep one`);
  }
  if (entry.url !== undefined || (type !== undefined && type !== 'stdio')) {
    return urlEntry(where, name, entry, type);
  }
  const command = optionalString(where, entry, 'command');
  if (command === undefined || command === '') {
    throw usageError(`${where} needs "command" (a stdio server) or "url" (an HTTP server)`);
  }
  const cwd = optionalString(where, entry, 'cwd');
  return {
    kind: 'stdio',
    name,
    command,
    args: stringList(where, entry.args, 'args'),
    env: stringRecord(where, entry.env, 'env'),
    ...(cwd === undefined ? {} : { cwd: path.resolve(baseDir, cwd) }),
  };
}

function urlEntry(
  where: string,
  name: string,
  entry: Record<string, unknown>,
  type: string | undefined,
): ServerEntry {
  if (type !== undefined && type !== 'sse' && !HTTP_TYPES.has(type)) {
    throw usageError(`${where}: unknown "type" ${JSON.stringify(type)}`, 'Use "stdio", "http" or "sse"');
  }
  const text = optionalString(where, entry, 'url');
  if (text === undefined) throw usageError(`${where} has type "${type}" but no "url"`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${where}: "url" is not a valid URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${where}: "url" must be http:// or https://, got ${JSON.stringify(text)}`);
  }
  return {
    kind: 'url',
    name,
    url,
    headers: stringRecord(where, entry.headers, 'headers'),
    transport: type === 'sse' ? 'sse' : 'auto',
  };
}

function optionalString(where: string, entry: Record<string, unknown>, key: string): string | undefined {
  const value = entry[key];
  if (value === undefined || typeof value === 'string') return value;
  throw usageError(`${where}: "${key}" must be a string`);
}

function stringList(where: string, value: unknown, key: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw usageError(`${where}: "${key}" must be an array of strings`);
}

function stringRecord(where: string, value: unknown, key: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw usageError(`${where}: "${key}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string') out[name] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[name] = String(item);
    else throw usageError(`${where}: "${key}.${name}" must be a string`);
  }
  return out;
}

/**
 * Asks the user for the value of an `${input:ID}` variable (on a terminal), as VS Code does from
 * the config file's `inputs` entry.
 *
 * @example
 * ```ts
 * const ask: AskInput = async ({ description }) => prompt(description);
 * ```
 */
export type AskInput = (input: {
  readonly id: string;
  readonly description: string;
  readonly password: boolean;
}) => Promise<string>;

/** Where variables are resolved: the environment, the workspace folder, the file's `inputs`. */
interface VariableScope {
  readonly file: string;
  readonly server: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly document: Record<string, unknown>;
  readonly ask: AskInput | undefined;
}

/** `${…}` with a bounded body, so matching stays linear. */
const VARIABLE = /\$\{([^{}]{1,200})\}/g;

/**
 * Expands the VS Code variables in every string of a server entry: `${workspaceFolder}`,
 * `${env:NAME}` and `${input:ID}`. Anything else is a usage error naming the variable, the file,
 * the server and the field; nothing is passed on literally.
 */
async function expandVariables(scope: VariableScope, value: unknown, field: string): Promise<unknown> {
  if (typeof value === 'string') {
    const values = new Map<string, string>();
    for (const [, name] of value.matchAll(VARIABLE)) {
      if (!values.has(name!)) values.set(name!, await resolveVariable(scope, name!, field));
    }
    return values.size === 0 ? value : value.replace(VARIABLE, (_whole, name: string) => values.get(name)!);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [index, item] of value.entries())
      out.push(await expandVariables(scope, item, `${field}[${index}]`));
    return out;
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = await expandVariables(scope, item, field === '' ? key : `${field}.${key}`);
    }
    return out;
  }
  return value;
}

async function resolveVariable(scope: VariableScope, name: string, field: string): Promise<string> {
  const where = `${scope.file}: server "${scope.server}", "${field}"`;
  if (name === 'workspaceFolder') return workspaceFolder(scope.file);
  if (name.startsWith('env:')) {
    const found = scope.env[name.slice(4)];
    if (found === undefined) throw usageError(`${where} uses \${${name}}, but ${name.slice(4)} is not set`);
    return found;
  }
  if (name.startsWith('input:')) return askInput(scope, name.slice(6), where);
  throw usageError(
    `${where} uses \${${name}}, which mcpkit cannot expand`,
    `Supported: \${workspaceFolder}, \${env:NAME} and \${input:ID}`,
  );
}

/** VS Code's workspace folder: the folder holding `.vscode` (else the config file's own folder). */
function workspaceFolder(file: string): string {
  const dir = path.dirname(path.resolve(file));
  return path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
}

async function askInput(scope: VariableScope, id: string, where: string): Promise<string> {
  const inputs = Array.isArray(scope.document.inputs) ? scope.document.inputs : [];
  const input = inputs.find((item): item is Record<string, unknown> => isRecord(item) && item.id === id);
  if (!input)
    throw usageError(`${where} uses \${input:${id}}, but ${scope.file} has no "inputs" entry "${id}"`);
  if (!scope.ask) {
    throw usageError(
      `${where} uses \${input:${id}}, which must be typed on a terminal`,
      `Run mcpkit on a terminal, or replace \${input:${id}} with \${env:NAME} and set NAME`,
    );
  }
  const description = typeof input.description === 'string' ? input.description : id;
  return scope.ask({ id, description, password: input.password === true });
}
