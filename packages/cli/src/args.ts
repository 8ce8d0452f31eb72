/**
 * The command-line grammar: `mcpkit VERB [OPTIONS] [TARGET] [VERB-ARGS…] [-- COMMAND…]`.
 *
 * Options are parsed by Node's `util.parseArgs`; this module only decides what the positionals
 * mean and checks that the options fit the verb, so every mistake is reported before anything is
 * started or sent.
 * @module
 */
import { parseArgs } from 'node:util';
import { checkOptionsFit, OPTIONS, type Values } from './argOptions.js';
import { type ParsedCommand, VERBS, type Verb } from './argTypes.js';
import { closest } from './argValues.js';
import { clientAction, clientSettings, splitTarget, VERB_USAGE } from './clientArgs.js';
import { attachDashValues } from './dashValues.js';
import { devSettings } from './dev/args.js';
import { usageError } from './errors.js';
import {
  authServerSettings,
  GATEWAY_HINT,
  gatewaySettings,
  SERVE_HINT,
  serveSettings,
} from './serverArgs.js';

const CONSOLE_HINT = 'mcpkit console [URL | --config FILE | -- COMMAND ARGS…]';

export type {
  AuthSettings,
  ClientAction,
  ClientSettings,
  DevSettings,
  GatewaySettings,
  ListKindArg,
  ParsedCommand,
  ServeSettings,
  TargetSpec,
  Verb,
} from './argTypes.js';
export { LIST_KINDS, VERBS } from './argTypes.js';
export { closest as closestName, parseDuration, parseServerUrl } from './argValues.js';
export { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, parseRateLimit } from './serverArgs.js';

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
  if (verb === 'auth-server') {
    if (rest.length > 0 || after !== undefined)
      throw usageError('"auth-server" takes no arguments', 'mcpkit auth-server [--port 9000]');
    return { kind: 'auth-server', authServer: authServerSettings(values) };
  }
  if (verb === 'gateway') {
    if (rest.length > 0 || after !== undefined)
      throw usageError('"gateway" takes no arguments', GATEWAY_HINT);
    return { kind: 'gateway', gateway: gatewaySettings(values) };
  }
  if (verb === 'dev') return { kind: 'dev', dev: devSettings(rest, after, values) };
  // The file comes first; without a server after it, it would be taken for one.
  if (verb === 'replay' && after === undefined && values.config === undefined && rest.length < 2)
    throw usageError(
      '"replay" needs the saved session and a server to replay it against',
      `Usage: ${VERB_USAGE.replay}`,
    );
  const { target, verbArgs } = splitTarget(verb, rest, after, values);
  if (verb === 'console') {
    if (verbArgs.length > 0)
      throw usageError(`Unexpected argument "${verbArgs[0]}" for "console"`, CONSOLE_HINT);
    return {
      kind: 'console',
      target,
      settings: clientSettings(values, target),
      open: values['no-open'] !== true,
    };
  }
  const settings = clientSettings(values, target);
  if ((verb === 'login' || verb === 'logout') && target.kind === 'stdio') {
    throw usageError(`"${verb}" applies to HTTP servers; a stdio server has no login`, VERB_USAGE[verb]);
  }
  const action = clientAction(verb, verbArgs, values);
  return action.verb === 'logout'
    ? { kind: 'logout', target, settings }
    : { kind: 'client', action, target, settings };
}

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
      args: attachDashValues(argv),
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

/** Other words people reach for, and the verb they mean. */
const VERB_ALIASES: Readonly<Record<string, Verb>> = { subscribe: 'watch' };

function parseVerb(word: string): Verb {
  if ((VERBS as readonly string[]).includes(word)) return word as Verb;
  const alias = VERB_ALIASES[word];
  if (alias) return alias;
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
