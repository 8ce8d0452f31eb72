/**
 * Checks one expanded server entry and turns it into a {@link ServerEntry}.
 * @module
 */
import { HostConfigError } from '../errors.js';
import {
  isRecord,
  optionalBoolean,
  optionalPositive,
  optionalString,
  stringList,
  stringRecord,
} from './fields.js';
import { checkOAuth } from './oauth.js';
import type { ServerEntry } from './types.js';

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'streamable_http']);

/**
 * Checks an entry whose variables are expanded. `where` names the file and the server.
 *
 * @throws {HostConfigError} naming the file, the server and the field.
 * @example
 * ```ts
 * const entry = checkEntry('mcp.json: server "demo"', 'demo', { command: 'node', args: ['s.js'] });
 * ```
 */
export function checkEntry(
  where: string,
  name: string,
  entry: unknown,
  resolvePath: (path: string) => string = (path) => path,
): ServerEntry {
  if (!isRecord(entry)) throw new HostConfigError(`${where} must be an object`);
  const type = optionalString(where, entry, 'type');
  if (entry.command !== undefined && entry.url !== undefined) {
    throw new HostConfigError(`${where} has both "command" and "url"; keep one`);
  }
  if (entry.envFile !== undefined) {
    // Ignoring it would start the server without its variables: refuse instead, and say what works.
    throw new HostConfigError(
      `${where}: "envFile" is not supported`,
      `List the variables under "env"; use \${env:NAME} for secrets`,
    );
  }
  const timeout = optionalPositive(where, entry, 'timeout');
  const startBudget = optionalPositive(where, entry, 'startBudget');
  const login = entry.oauth === undefined ? (entry.auth === undefined ? undefined : 'auth') : 'oauth';
  if (login && entry.url === undefined && (type === undefined || type === 'stdio')) {
    throw new HostConfigError(
      `${where}: "${login}" applies to HTTP servers ("url"); a stdio server has no login`,
    );
  }
  const common = {
    name,
    disabled: optionalBoolean(where, entry, 'disabled'),
    autoApprove: stringList(where, entry.autoApprove, 'autoApprove'),
    ...(timeout === undefined ? {} : { timeoutMs: timeout * 1000 }),
    ...(startBudget === undefined ? {} : { startBudgetMs: startBudget * 1000 }),
  };
  if (entry.url !== undefined || (type !== undefined && type !== 'stdio')) {
    return { ...common, ...urlEntry(where, entry, type) };
  }
  const command = optionalString(where, entry, 'command');
  if (command === undefined || command === '') {
    throw new HostConfigError(`${where} needs "command" (a stdio server) or "url" (an HTTP server)`);
  }
  const cwd = optionalString(where, entry, 'cwd');
  return {
    ...common,
    kind: 'stdio',
    command,
    args: stringList(where, entry.args, 'args'),
    env: stringRecord(where, entry.env, 'env'),
    ...(cwd === undefined ? {} : { cwd: resolvePath(cwd) }),
  };
}

function urlEntry(where: string, entry: Record<string, unknown>, type: string | undefined) {
  if (type !== undefined && type !== 'sse' && !HTTP_TYPES.has(type)) {
    throw new HostConfigError(
      `${where}: unknown "type" ${JSON.stringify(type)}`,
      'Use "stdio", "http" or "sse"',
    );
  }
  const text = optionalString(where, entry, 'url');
  if (text === undefined) throw new HostConfigError(`${where} has type "${type}" but no "url"`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HostConfigError(`${where}: "url" is not a valid URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HostConfigError(`${where}: "url" must be http:// or https://, got ${JSON.stringify(text)}`);
  }
  const oauth = checkOAuth(where, entry);
  return {
    kind: 'url' as const,
    url,
    headers: stringRecord(where, entry.headers, 'headers'),
    transport: type === 'sse' ? ('sse' as const) : ('auto' as const),
    ...(oauth === undefined ? {} : { oauth }),
  };
}
