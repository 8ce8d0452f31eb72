/**
 * The options of the command line (for Node's `util.parseArgs`), which verb takes which, and the
 * check that the options given fit the verb.
 * @module
 */

import { VERBS, type Verb } from './argTypes.js';
import { usageError } from './errors.js';

/** Every option `mcpkit` knows, as `util.parseArgs` takes them. */
export const OPTIONS = {
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
  out: { type: 'string', short: 'o' },
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
  'no-open': { type: 'boolean' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scope': { type: 'string' },
  folder: { type: 'string', multiple: true },
  watch: { type: 'string', multiple: true },
  'metrics-port': { type: 'string' },
  'rate-limit': { type: 'string' },
  'log-json': { type: 'boolean' },
  redis: { type: 'string' },
  upstreams: { type: 'string' },
  lanes: { type: 'string' },
  'session-idle': { type: 'string' },
  'sessions-per-client': { type: 'string' },
  'start-budget': { type: 'string' },
  'max-total-timeout': { type: 'string' },
  apps: { type: 'boolean' },
  ignore: { type: 'string', multiple: true },
  'approve-all': { type: 'boolean' },
} as const;

export type OptionName = keyof typeof OPTIONS;

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

/** The options each verb takes; any other is refused before anything starts. */
const OPTIONS_BY_VERB: Readonly<Record<Verb, readonly OptionName[]>> = {
  info: VERB_OPTIONS,
  list: VERB_OPTIONS,
  call: [...VERB_OPTIONS, 'args', 'task', 'out'],
  read: VERB_OPTIONS,
  get: [...VERB_OPTIONS, 'args'],
  complete: VERB_OPTIONS,
  ping: VERB_OPTIONS,
  watch: VERB_OPTIONS,
  replay: [...VERB_OPTIONS, 'ignore', 'approve-all'],
  login: ['help', 'verbose', 'timeout', 'header', 'config', 'server', ...LOGIN_OPTIONS],
  logout: ['help', 'config', 'server'],
  dev: ['help', 'stdio', 'http', 'port', 'host', 'watch'],
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
    'auth-scope',
    'folder',
    'metrics-port',
    'log-json',
    'rate-limit',
    'redis',
  ],
  gateway: [
    'help',
    'config',
    'stdio',
    'http',
    'port',
    'host',
    'era',
    'metrics-port',
    'log-json',
    'upstreams',
    'lanes',
    'session-idle',
    'sessions-per-client',
    'start-budget',
    'max-total-timeout',
    'apps',
  ],
  'auth-server': ['help', 'port'],
  console: [
    'help',
    'header',
    'env',
    'cwd',
    'config',
    'server',
    'era',
    'no-open',
    ...LOGIN_OPTIONS,
    'no-login',
  ],
};

/** The options as `util.parseArgs` returns them. */
export type Values = {
  [K in OptionName]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : unknown;
};

/** Refuses an option the verb does not take, naming the verbs that do. */
export function checkOptionsFit(verb: Verb, values: Values): void {
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
