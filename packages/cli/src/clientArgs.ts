/**
 * The verbs that talk to a server (`info`, `list`, `call`, `read`, `get`, `complete`, `ping`,
 * `login`, `logout`): the target (URL, a command after `--`, or a config entry), the settings
 * shared by them, and what each verb's own arguments mean.
 * @module
 */

import type { Values } from './argOptions.js';
import type { ClientAction, ClientSettings, ListKindArg, TargetSpec, Verb } from './argTypes.js';
import { LIST_KINDS } from './argTypes.js';
import {
  isHttpUrl,
  parseDuration,
  parseEnv,
  parseEra,
  parseHeader,
  parseLogLevel,
  parseServerUrl,
} from './argValues.js';
import { usageError } from './errors.js';

const TARGET_HINT =
  'Give a server URL (http://127.0.0.1:3000/mcp), a command after `--` (-- node server.js), or --config FILE --server NAME';

/** The server a client verb talks to, and the verb's own arguments. */
export function splitTarget(
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
    // `call URL add a=1 -- node x.js` names two servers; silently taking one would hide a mistake.
    const url = rest.find(isHttpUrl);
    if (url !== undefined) {
      throw usageError(
        `Give either a URL (${url}) or a command after \`--\`, not both`,
        `mcpkit ${verb} ${url} … or mcpkit ${verb} … -- ${after.join(' ')}`,
      );
    }
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

/** The settings every client verb shares, checked against the target. */
export function clientSettings(values: Values, target: TargetSpec): ClientSettings {
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

/** What a client verb is asked to do, from its own arguments. */
export function clientAction(
  verb: Exclude<Verb, 'serve' | 'gateway' | 'auth-server' | 'console' | 'dev'>,
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
        out: values.out as string | undefined,
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
    case 'watch':
      return { verb, uris: args };
    case 'replay':
      noMoreArgs(verb, args, 1);
      return {
        verb,
        file: need(verb, args[0], 'FILE (a session the console saved)'),
        ignore: values.ignore ?? [],
        approveAll: values['approve-all'] === true,
      };
  }
}

const COMPLETE_EXAMPLE = 'Example: mcpkit complete http://127.0.0.1:3000/mcp greet name=A';

export const VERB_USAGE: Readonly<
  Record<Exclude<Verb, 'serve' | 'gateway' | 'auth-server' | 'console' | 'dev'>, string>
> = {
  info: 'mcpkit info TARGET',
  ping: 'mcpkit ping TARGET',
  watch: 'mcpkit watch TARGET [URI…]',
  login: 'mcpkit login URL [--client-id ID] [--client-secret SECRET] [--scope SCOPE]',
  logout: 'mcpkit logout URL',
  list: 'mcpkit list TARGET [tools|resources|templates|prompts]',
  call: 'mcpkit call TARGET TOOL [key=value …] [--args JSON] [--out DIR]',
  read: 'mcpkit read TARGET URI',
  get: 'mcpkit get TARGET PROMPT [key=value …]',
  complete: 'mcpkit complete TARGET PROMPT|TEMPLATE-URI NAME=PARTIAL [name=value …]',
  replay: 'mcpkit replay FILE TARGET [--ignore PATH …] [--approve-all] [--json]',
};

function need(
  verb: Exclude<Verb, 'serve' | 'gateway' | 'auth-server' | 'console' | 'dev'>,
  value: string | undefined,
  what: string,
): string {
  if (value === undefined || value === '') {
    throw usageError(`"${verb}" needs a ${what}`, `Usage: ${VERB_USAGE[verb]}`);
  }
  return value;
}

function noMoreArgs(
  verb: Exclude<Verb, 'serve' | 'gateway' | 'auth-server' | 'console' | 'dev'>,
  args: string[],
  max: number,
): void {
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
