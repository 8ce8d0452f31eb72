/**
 * The command-line grammar: `mcpkit VERB [OPTIONS] [TARGET] [VERB-ARGS…] [-- COMMAND…]`.
 *
 * Options are parsed by Node's `util.parseArgs`; this module only decides what the positionals
 * mean and checks that the options fit the verb, so every mistake is reported before anything is
 * started or sent.
 * @module
 */
import { parseArgs } from 'node:util';
import { LOGGING_LEVELS, type LoggingLevel } from '@mcpkit/core';
import { usageError } from './errors.js';

/** The verbs `mcpkit` understands. */
export const VERBS = [
  'info',
  'list',
  'call',
  'read',
  'get',
  'complete',
  'ping',
  'login',
  'logout',
  'serve',
  'gateway',
] as const;

/** One of {@link VERBS}. */
export type Verb = (typeof VERBS)[number];

/** What `list` can list. */
export const LIST_KINDS = ['tools', 'resources', 'templates', 'prompts'] as const;

/** One of {@link LIST_KINDS}. */
export type ListKindArg = (typeof LIST_KINDS)[number];

/**
 * The server to talk to, as given on the command line (a config entry is resolved later).
 *
 * @example
 * ```ts
 * const target: TargetSpec = { kind: 'stdio', command: 'node', args: ['server.js'] };
 * ```
 */
export type TargetSpec =
  | { readonly kind: 'url'; readonly url: URL }
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'config'; readonly file: string; readonly server: string | undefined };

/**
 * Options shared by every verb that talks to a server.
 *
 * @example
 * ```ts
 * const { settings } = parseCommandLine(['ping', '--json', 'http://127.0.0.1:3000/mcp']) as { settings: ClientSettings };
 * settings.json; // true
 * ```
 */
export interface ClientSettings {
  readonly json: boolean;
  readonly verbose: boolean;
  /** The whole command's deadline, in ms. */
  readonly timeoutMs: number | undefined;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly samplingCommand: string | undefined;
  readonly roots: readonly string[];
  readonly logLevel: LoggingLevel | undefined;
  /** `--era`: which protocol era to speak (`auto` probes for 2026-07-28). */
  readonly era: 'auto' | '2026' | '2025';
  /** OAuth settings for an HTTP server that asks for a login. */
  readonly auth: AuthSettings;
}

/**
 * How the CLI logs in to a server that asks for it (`--client-id`, `--client-secret`, `--scope`,
 * `--no-login`).
 *
 * @example
 * ```ts
 * const auth: AuthSettings = { clientId: 'my-app', clientSecret: undefined, scope: 'mcp:read', login: true };
 * ```
 */
export interface AuthSettings {
  /** A pre-registered client id (else the one remembered from `login`, else dynamic registration). */
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** Scope to ask for when the server names none. */
  readonly scope: string | undefined;
  /** False with `--no-login`: never open a browser, exit 3 instead. */
  readonly login: boolean;
}

/**
 * What `serve` was asked to do.
 *
 * @example
 * ```ts
 * const settings: ServeSettings = { transport: 'http', port: 3000, host: '127.0.0.1', stateless: false, jsonResponse: false, folders: [] };
 * ```
 */
export interface ServeSettings {
  readonly transport: 'stdio' | 'http';
  readonly port: number;
  readonly host: string;
  readonly stateless: boolean;
  readonly jsonResponse: boolean;
  /** With `--auth-issuer`: serve as an OAuth protected resource of this authorization server. */
  readonly authIssuer?: string;
  /** The audience tokens must name (default: the server's own `/mcp` URL). */
  readonly authAudience?: string;
  /** Directories served read-only next to the demo's resources (`--folder`, repeatable). */
  readonly folders: readonly string[];
  /** With `--metrics-port`: serve Prometheus metrics on this port of 127.0.0.1. */
  readonly metricsPort?: number;
  /** `--log-json`: structured log events as JSON lines on stderr. */
  readonly logJson?: boolean;
  /** `--rate-limit`: requests per second and burst per client; absent when not limited. */
  readonly rateLimit?: { readonly rate: number; readonly burst: number };
  /** With `--redis`: run as one node of a cluster whose sessions, events and tasks live in this Redis. */
  readonly redis?: string;
}

/**
 * A verb that talks to a server, with its own arguments.
 *
 * @example
 * ```ts
 * const action: ClientAction = { verb: 'read', uri: 'demo://readme' };
 * ```
 */
export type ClientAction =
  | { readonly verb: 'info' }
  | { readonly verb: 'ping' }
  | { readonly verb: 'list'; readonly kind: ListKindArg | undefined }
  | {
      readonly verb: 'call';
      readonly tool: string;
      readonly pairs: readonly string[];
      readonly argsJson: string | undefined;
      readonly task: boolean;
    }
  | { readonly verb: 'read'; readonly uri: string }
  | {
      readonly verb: 'get';
      readonly prompt: string;
      readonly pairs: readonly string[];
      readonly argsJson: string | undefined;
    }
  | { readonly verb: 'complete'; readonly ref: string; readonly pairs: readonly string[] }
  | { readonly verb: 'login' };

/**
 * `mcpkit gateway`: every server of a config file served as one MCP server.
 *
 * @example
 * ```ts
 * const settings: GatewaySettings = { config: 'mcp.json', transport: 'http', port: 3000, host: '127.0.0.1' };
 * ```
 */
export interface GatewaySettings {
  readonly config: string;
  readonly transport: 'stdio' | 'http';
  readonly port: number;
  readonly host: string;
  /** The revision spoken to HTTP upstreams (`--era`); the front serves both eras regardless. */
  readonly era?: 'auto' | '2026' | '2025';
  /** With `--metrics-port`: serve Prometheus metrics on this port of 127.0.0.1. */
  readonly metricsPort?: number;
  /** `--log-json`: structured log events as JSON lines on stderr. */
  readonly logJson?: boolean;
}

/**
 * A fully parsed command line.
 *
 * @example
 * ```ts
 * const parsed: ParsedCommand = parseCommandLine(['--version']); // { kind: 'version' }
 * ```
 */
export type ParsedCommand =
  | { readonly kind: 'help'; readonly verb: Verb | undefined }
  | { readonly kind: 'version' }
  | { readonly kind: 'serve'; readonly serve: ServeSettings }
  | { readonly kind: 'gateway'; readonly gateway: GatewaySettings }
  | { readonly kind: 'logout'; readonly target: TargetSpec; readonly settings: ClientSettings }
  | {
      readonly kind: 'client';
      readonly action: ClientAction;
      readonly target: TargetSpec;
      readonly settings: ClientSettings;
    };

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  timeout: { type: 'string', short: 't' },
  header: { type: 'string', short: 'H', multiple: true },
  env: { type: 'string', short: 'e', multiple: true },
  cwd: { type: 'string' },
  config: { type: 'string', short: 'c' },
  server: { type: 'string', short: 's' },
  'sampling-command': { type: 'string' },
  root: { type: 'string', multiple: true },
  'log-level': { type: 'string' },
  era: { type: 'string' },
  args: { type: 'string' },
  task: { type: 'boolean' },
  stdio: { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  stateless: { type: 'boolean' },
  'json-response': { type: 'boolean' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  scope: { type: 'string' },
  'no-login': { type: 'boolean' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  folder: { type: 'string', multiple: true },
  'metrics-port': { type: 'string' },
  'rate-limit': { type: 'string' },
  'log-json': { type: 'boolean' },
  redis: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;

const CLIENT_OPTIONS: readonly OptionName[] = [
  'help',
  'json',
  'verbose',
  'timeout',
  'header',
  'env',
  'cwd',
  'config',
  'server',
  'sampling-command',
  'root',
  'log-level',
  'era',
];

/** How a verb logs in to a server that asks for it. */
const LOGIN_OPTIONS: readonly OptionName[] = ['client-id', 'client-secret', 'scope'];
const VERB_OPTIONS: readonly OptionName[] = [...CLIENT_OPTIONS, ...LOGIN_OPTIONS, 'no-login'];

const OPTIONS_BY_VERB: Readonly<Record<Verb, readonly OptionName[]>> = {
  info: VERB_OPTIONS,
  list: VERB_OPTIONS,
  call: [...VERB_OPTIONS, 'args', 'task'],
  read: VERB_OPTIONS,
  get: [...VERB_OPTIONS, 'args'],
  complete: VERB_OPTIONS,
  ping: VERB_OPTIONS,
  login: ['help', 'verbose', 'timeout', 'header', 'config', 'server', ...LOGIN_OPTIONS],
  logout: ['help', 'config', 'server'],
  serve: [
    'help',
    'stdio',
    'http',
    'port',
    'host',
    'stateless',
    'json-response',
    'auth-issuer',
    'auth-audience',
    'folder',
    'metrics-port',
    'log-json',
    'rate-limit',
    'redis',
  ],
  gateway: ['help', 'config', 'stdio', 'http', 'port', 'host', 'era', 'metrics-port', 'log-json'],
};

/** The demo server's default address, as the quickstart documents it. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3000;

type Values = { [K in OptionName]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : unknown };

/**
 * Parses `argv` (without `node` and the script) into a command, or throws a usage `CliError`.
 *
 * @example
 * ```ts
 * parseCommandLine(['call', 'echo', 'text=hi', '--', 'node', 'server.js']);
 * // { kind: 'client', action: { verb: 'call', tool: 'echo', pairs: ['text=hi'], ... },
 * //   target: { kind: 'stdio', command: 'node', args: ['server.js'] }, settings: { ... } }
 * ```
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  const { values, before, after } = tokenize(argv);
  const [first, ...rest] = before;
  if (first === undefined || first === 'help') {
    if (after !== undefined) throw usageError('Give a verb before `--`', 'mcpkit --help');
    if (values.version) return { kind: 'version' };
    return { kind: 'help', verb: first === 'help' ? helpTopic(rest[0]) : undefined };
  }
  const verb = parseVerb(first);
  if (values.help) return { kind: 'help', verb };
  checkOptionsFit(verb, values);
  if (verb === 'serve') {
    if (rest.length > 0 || after !== undefined) {
      throw usageError(
        `"serve" takes no arguments, got "${[...rest, ...(after ?? [])].join(' ')}"`,
        SERVE_HINT,
      );
    }
    return { kind: 'serve', serve: serveSettings(values) };
  }
  if (verb === 'gateway') {
    if (rest.length > 0 || after !== undefined)
      throw usageError('"gateway" takes no arguments', GATEWAY_HINT);
    return { kind: 'gateway', gateway: gatewaySettings(values) };
  }
  const { target, verbArgs } = splitTarget(verb, rest, after, values);
  const settings = clientSettings(values, target);
  if ((verb === 'login' || verb === 'logout') && target.kind === 'stdio') {
    throw usageError(`"${verb}" applies to HTTP servers; a stdio server has no login`, VERB_USAGE[verb]);
  }
  const action = clientAction(verb, verbArgs, values);
  return action.verb === 'logout'
    ? { kind: 'logout', target, settings }
    : { kind: 'client', action, target, settings };
}

const SERVE_HINT = 'mcpkit serve --http --port 3000, or mcpkit serve --stdio';

function tokenize(argv: readonly string[]): {
  values: Values;
  before: string[];
  after: string[] | undefined;
} {
  const parsed = parseOrExplain(argv);
  const terminator = parsed.tokens.find((token) => token.kind === 'option-terminator');
  const before: string[] = [];
  const after: string[] = [];
  for (const token of parsed.tokens) {
    if (token.kind !== 'positional') continue;
    (terminator && token.index > terminator.index ? after : before).push(token.value);
  }
  return { values: parsed.values as Values, before, after: terminator ? after : undefined };
}

function parseOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw usageError(describeParseError(error), 'mcpkit --help');
  }
}

/** parseArgs messages are good but mention "positional" and code names; keep the first line. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? message;
  return firstLine.replace(/^Unknown option '([^']*)'.*$/, 'Unknown option "$1"');
}

function parseVerb(word: string): Verb {
  if ((VERBS as readonly string[]).includes(word)) return word as Verb;
  const guess = closest(word, VERBS);
  if (word.includes('://') || word.startsWith('-')) {
    throw usageError(`Give a verb first, before "${word}"`, `Verbs: ${VERBS.join(', ')}. Try: mcpkit --help`);
  }
  throw usageError(
    `Unknown verb "${word}"`,
    guess ? `Did you mean "${guess}"? Verbs: ${VERBS.join(', ')}` : `Verbs: ${VERBS.join(', ')}`,
  );
}

function helpTopic(word: string | undefined): Verb | undefined {
  return word === undefined ? undefined : parseVerb(word);
}

function checkOptionsFit(verb: Verb, values: Values): void {
  const allowed = OPTIONS_BY_VERB[verb];
  for (const name of Object.keys(values) as OptionName[]) {
    if (values[name] === undefined || allowed.includes(name)) continue;
    if (name === 'version') throw usageError('--version takes no verb', 'mcpkit --version');
    const users = VERBS.filter((candidate) => OPTIONS_BY_VERB[candidate].includes(name));
    throw usageError(
      `--${name} does not apply to "${verb}"`,
      `--${name} is an option of: ${users.join(', ')}. Try: mcpkit ${verb} --help`,
    );
  }
}

function serveSettings(values: Values): ServeSettings {
  if (values.stdio && values.http) throw usageError('Choose one of --stdio and --http', SERVE_HINT);
  const transport = values.stdio ? 'stdio' : 'http';
  if (transport === 'stdio') {
    for (const name of ['port', 'host', 'stateless', 'json-response', 'auth-issuer', 'redis'] as const) {
      if (values[name] !== undefined) throw usageError(`--${name} applies to --http only`, SERVE_HINT);
    }
  }
  const authIssuer = optionalUrl(values, 'auth-issuer');
  const authAudience = optionalUrl(values, 'auth-audience');
  if (authAudience !== undefined && authIssuer === undefined) {
    throw usageError('--auth-audience needs --auth-issuer', 'mcpkit serve --http --auth-issuer URL');
  }
  const redis = values.redis as string | undefined;
  if (redis !== undefined && !/^rediss?:\/\//.test(redis)) {
    throw usageError(`--redis expects a redis:// or rediss:// URL, got "${redis}"`);
  }
  if (redis !== undefined && values.stateless === true) {
    throw usageError(
      '--redis and --stateless exclude each other',
      'a stateless server keeps no state to share',
    );
  }
  const settings: ServeSettings = {
    transport,
    port: values.port === undefined ? DEFAULT_HTTP_PORT : parsePort(values.port as string, 'port'),
    host: (values.host as string | undefined) ?? DEFAULT_HTTP_HOST,
    stateless: values.stateless === true,
    jsonResponse: values['json-response'] === true,
    ...(authIssuer === undefined ? {} : { authIssuer }),
    ...(authAudience === undefined ? {} : { authAudience }),
    folders: (values.folder as string[] | undefined) ?? [],
    ...observing(values),
    ...(redis === undefined ? {} : { redis }),
  };
  const limit = values['rate-limit'] as string | undefined;
  return limit === undefined ? settings : { ...settings, rateLimit: parseRateLimit(limit) };
}

/** `N/s` or `N/m`, optionally `,burst=B` (default twice the per-second rate, at least 1). */
const RATE_LIMIT = /^(\d{1,9}(?:\.\d{1,9})?)\/(s|m)(?:,burst=(\d{1,9}))?$/;

/**
 * Parses `--rate-limit`: `20/s` (20 per second, bursts of 40), `20/s,burst=5`, `30/m`.
 *
 * @throws {CliError} a usage error for anything else.
 * @example
 * ```ts
 * parseRateLimit('20/s,burst=40'); // { rate: 20, burst: 40 }
 * ```
 */
export function parseRateLimit(text: string): { rate: number; burst: number } {
  const match = RATE_LIMIT.exec(text);
  const count = Number(match?.[1]);
  if (!match || !(count > 0)) {
    throw usageError(
      `--rate-limit must look like 20/s, 20/s,burst=40 or 30/m, got "${text.slice(0, 40)}"`,
      'mcpkit serve --rate-limit 20/s',
    );
  }
  const rate = match[2] === 'm' ? count / 60 : count;
  const burst = match[3] === undefined ? Math.max(1, rate * 2) : Number(match[3]);
  if (burst < 1)
    throw usageError('--rate-limit: burst must be at least 1', 'mcpkit serve --rate-limit 20/s,burst=40');
  return { rate, burst };
}

const GATEWAY_HINT = 'mcpkit gateway --config mcp.json --stdio, or --http [--port N --host H]';

function gatewaySettings(values: Values): GatewaySettings {
  const config = values.config as string | undefined;
  if (config === undefined) throw usageError('"gateway" needs --config FILE', GATEWAY_HINT);
  if (values.stdio === values.http) throw usageError('Choose one of --stdio and --http', GATEWAY_HINT);
  if (values.stdio && (values.port !== undefined || values.host !== undefined)) {
    throw usageError('--port and --host apply to --http only', GATEWAY_HINT);
  }
  return {
    config,
    transport: values.stdio ? 'stdio' : 'http',
    port: values.port === undefined ? DEFAULT_HTTP_PORT : parsePort(values.port as string, 'port'),
    host: (values.host as string | undefined) ?? DEFAULT_HTTP_HOST,
    era: parseEra(values.era as string | undefined, '2025'),
    ...observing(values),
  };
}

/** `--metrics-port N` and `--log-json`, when given. */
function observing(values: Values): { metricsPort?: number; logJson?: boolean } {
  const text = values['metrics-port'] as string | undefined;
  return {
    ...(text === undefined ? {} : { metricsPort: parsePort(text, 'metrics-port') }),
    ...(values['log-json'] === true ? { logJson: true } : {}),
  };
}

function optionalUrl(values: Values, name: 'auth-issuer' | 'auth-audience'): string | undefined {
  const text = values[name] as string | undefined;
  if (text === undefined) return undefined;
  if (!isHttpUrl(text)) throw usageError(`--${name} expects an http(s) URL, got "${text}"`);
  return text;
}

function parsePort(text: string, name: 'port' | 'metrics-port'): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port > 65535) {
    throw usageError(
      `--${name} must be a number from 0 to 65535, got "${text}"`,
      `Use --${name} 0 for any free port`,
    );
  }
  return port;
}

const TARGET_HINT =
  'Give a server URL (http://127.0.0.1:3000/mcp), a command after `--` (-- node server.js), or --config FILE --server NAME';

function splitTarget(
  verb: Verb,
  rest: string[],
  after: string[] | undefined,
  values: Values,
): { target: TargetSpec; verbArgs: string[] } {
  const config = values.config as string | undefined;
  const server = values.server as string | undefined;
  if (server !== undefined && config === undefined) {
    throw usageError('--server needs --config FILE', `mcpkit ${verb} --config mcp.json --server NAME`);
  }
  if (after !== undefined) {
    if (config !== undefined)
      throw usageError('Give either --config or a command after `--`, not both', TARGET_HINT);
    const [command, ...args] = after;
    if (command === undefined || command === '') {
      throw usageError(
        '`--` must be followed by the command that starts the server',
        `mcpkit ${verb} -- node server.js`,
      );
    }
    return { target: { kind: 'stdio', command, args }, verbArgs: rest };
  }
  if (config !== undefined) return { target: { kind: 'config', file: config, server }, verbArgs: rest };
  const [candidate, ...verbArgs] = rest;
  if (candidate === undefined) throw usageError(`"${verb}" needs a server to talk to`, TARGET_HINT);
  // The URL may come after the verb's own arguments (`call add URL a=1`): take it from there.
  const late = candidate.includes('://') ? -1 : rest.findIndex(isHttpUrl);
  if (late > 0) {
    return {
      target: { kind: 'url', url: parseServerUrl(rest[late]!, verb) },
      verbArgs: rest.filter((_, index) => index !== late),
    };
  }
  return { target: { kind: 'url', url: parseServerUrl(candidate, verb) }, verbArgs };
}

function isHttpUrl(word: string): boolean {
  return /^https?:\/\//i.test(word) && URL.canParse(word);
}

/**
 * Parses the URL of an HTTP server, with a suggestion when it is almost one.
 *
 * @example
 * ```ts
 * parseServerUrl('http://127.0.0.1:3000/mcp').port; // '3000'
 * parseServerUrl('localhost:3000/mcp'); // throws: ... Did you mean http://localhost:3000/mcp?
 * ```
 */
export function parseServerUrl(text: string, verb = 'list'): URL {
  let url: URL | undefined;
  if (text.includes('://')) {
    try {
      url = new URL(text);
    } catch {
      throw usageError(`"${text}" is not a valid URL`, 'A server URL looks like http://127.0.0.1:3000/mcp');
    }
  }
  if (url === undefined) {
    const looksLikeHost = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d+)?(\/|$)/.test(text);
    const hint = looksLikeHost
      ? `Did you mean http://${text}?`
      : `To start a server over stdio, put its command after \`--\`: mcpkit ${verb} -- ${text} …`;
    throw usageError(`"${text}" is not a server URL`, hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(
      `"${text}" is not an http or https URL`,
      'MCP servers over the network use http:// or https://',
    );
  }
  return url;
}

function clientSettings(values: Values, target: TargetSpec): ClientSettings {
  const headers = (values.header ?? []).map(parseHeader);
  const env = parseEnv(values.env ?? []);
  const cwd = values.cwd as string | undefined;
  if (target.kind === 'url') {
    if (Object.keys(env).length > 0) {
      throw usageError(
        '-e sets environment variables of a stdio server; this target is a URL',
        'Use --header K:V for HTTP',
      );
    }
    if (cwd !== undefined) throw usageError('--cwd applies to a stdio server; this target is a URL');
  }
  if (target.kind === 'stdio' && headers.length > 0) {
    throw usageError(
      '--header applies to HTTP servers; this target is a stdio command',
      'Use -e KEY=VAL for stdio',
    );
  }
  return {
    json: values.json === true,
    verbose: values.verbose === true,
    timeoutMs: values.timeout === undefined ? undefined : parseDuration(values.timeout as string),
    headers,
    env,
    cwd,
    samplingCommand: values['sampling-command'] as string | undefined,
    roots: values.root ?? [],
    logLevel: parseLogLevel(values['log-level'] as string | undefined),
    era: parseEra(values.era as string | undefined, 'auto'),
    auth: {
      clientId: values['client-id'] as string | undefined,
      clientSecret: values['client-secret'] as string | undefined,
      scope: values.scope as string | undefined,
      login: values['no-login'] !== true,
    },
  };
}

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseHeader(text: string): readonly [string, string] {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  if (colon < 0 || !HEADER_NAME.test(name)) {
    throw usageError(
      `--header expects NAME:VALUE, got "${text}"`,
      'Example: --header "Authorization: Bearer TOKEN"',
    );
  }
  return [name, text.slice(colon + 1).trim()];
}

function parseEnv(entries: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    if (equals <= 0) throw usageError(`-e expects KEY=VALUE, got "${entry}"`, 'Example: -e API_KEY=secret');
    env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return env;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)?$/;
const DURATION_UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/**
 * Parses a duration: a number of seconds, or a number with `ms`, `s` or `m`.
 *
 * @example
 * ```ts
 * parseDuration('30'); // 30000
 * parseDuration('250ms'); // 250
 * ```
 */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  const ms = match ? Number(match[1]) * (DURATION_UNIT_MS[match[2] ?? 's'] ?? 1000) : Number.NaN;
  if (!(ms > 0) || !Number.isFinite(ms)) {
    throw usageError(`--timeout expects a duration such as 30, 30s, 500ms or 2m; got "${text}"`);
  }
  return Math.ceil(ms);
}

function parseLogLevel(text: string | undefined): LoggingLevel | undefined {
  if (text === undefined) return undefined;
  if ((LOGGING_LEVELS as readonly string[]).includes(text)) return text as LoggingLevel;
  throw usageError(`--log-level must be one of ${LOGGING_LEVELS.join(', ')}; got "${text}"`);
}

function clientAction(
  verb: Exclude<Verb, 'serve' | 'gateway'>,
  args: string[],
  values: Values,
): ClientAction | { readonly verb: 'logout' } {
  const argsJson = values.args as string | undefined;
  switch (verb) {
    case 'info':
    case 'ping':
    case 'login':
    case 'logout':
      noMoreArgs(verb, args, 0);
      return { verb };
    case 'list':
      noMoreArgs(verb, args, 1);
      return { verb, kind: args[0] === undefined ? undefined : parseListKind(args[0]) };
    case 'call':
      return {
        verb,
        tool: need(verb, args[0], 'TOOL'),
        pairs: args.slice(1),
        argsJson,
        task: values.task === true,
      };
    case 'read':
      noMoreArgs(verb, args, 1);
      return { verb, uri: need(verb, args[0], 'URI') };
    case 'get':
      return { verb, prompt: need(verb, args[0], 'PROMPT'), pairs: args.slice(1), argsJson };
    case 'complete': {
      const ref = need(verb, args[0], 'PROMPT|TEMPLATE-URI');
      if (args.length < 2) {
        throw usageError(
          '"complete" needs the argument to complete, as NAME=PARTIAL-VALUE',
          COMPLETE_EXAMPLE,
        );
      }
      return { verb, ref, pairs: args.slice(1) };
    }
  }
}

const COMPLETE_EXAMPLE = 'Example: mcpkit complete http://127.0.0.1:3000/mcp greet name=A';

const VERB_USAGE: Readonly<Record<Exclude<Verb, 'serve' | 'gateway'>, string>> = {
  info: 'mcpkit info TARGET',
  ping: 'mcpkit ping TARGET',
  login: 'mcpkit login URL [--client-id ID] [--client-secret SECRET] [--scope SCOPE]',
  logout: 'mcpkit logout URL',
  list: 'mcpkit list TARGET [tools|resources|templates|prompts]',
  call: 'mcpkit call TARGET TOOL [key=value …] [--args JSON]',
  read: 'mcpkit read TARGET URI',
  get: 'mcpkit get TARGET PROMPT [key=value …]',
  complete: 'mcpkit complete TARGET PROMPT|TEMPLATE-URI NAME=PARTIAL [name=value …]',
};

function need(verb: Exclude<Verb, 'serve' | 'gateway'>, value: string | undefined, what: string): string {
  if (value === undefined || value === '') {
    throw usageError(`"${verb}" needs a ${what}`, `Usage: ${VERB_USAGE[verb]}`);
  }
  return value;
}

function noMoreArgs(verb: Exclude<Verb, 'serve' | 'gateway'>, args: string[], max: number): void {
  if (args.length <= max) return;
  throw usageError(
    `Unexpected argument "${args[max]}" for "${verb}"`,
    `Usage: ${VERB_USAGE[verb]}. A stdio command goes after \`--\`.`,
  );
}

const LIST_KIND_ALIASES: Readonly<Record<string, ListKindArg>> = {
  tool: 'tools',
  resource: 'resources',
  template: 'templates',
  'resource-templates': 'templates',
  prompt: 'prompts',
};

function parseListKind(word: string): ListKindArg {
  if ((LIST_KINDS as readonly string[]).includes(word)) return word as ListKindArg;
  const alias = LIST_KIND_ALIASES[word];
  if (alias) return alias;
  throw usageError(`"list" can list ${LIST_KINDS.join(', ')}; got "${word}"`, `Usage: ${VERB_USAGE.list}`);
}

/** The candidate nearest to `word` by edit distance, if it is a plausible typo. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= 2 ? best : undefined;
}

function editDistance(a: string, b: string): number {
  if (a.length > 64) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

export { closest as closestName };

/**
 * `--era auto|2026|2025`; `fallback` when absent: `auto` (the client's default) for the commands,
 * `2025` for the gateway's upstreams (the host's default: its policies rest on 2025 sessions).
 */
function parseEra(text: string | undefined, fallback: 'auto' | '2025'): 'auto' | '2026' | '2025' {
  if (text === undefined) return fallback;
  if (text === 'auto' || text === '2026' || text === '2025') return text;
  throw usageError(`--era must be auto, 2026 or 2025; got "${text}"`);
}
