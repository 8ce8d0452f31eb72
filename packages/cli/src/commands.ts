/**
 * The verbs that talk to a server, each given a connected client and returning an exit code
 * (`call` is in `callVerb.ts`; what every verb is given, in `verbContext.ts`).
 * @module
 */
import { type CompleteRequestParams, ErrorCode, McpError, type ReadResourceResult } from '@mcpkit/core';
import type { ClientAction, ListKindArg } from './args.js';
import { buildPromptArguments, splitPairs } from './arguments.js';
import { call } from './callVerb.js';
import { ExitCode, type ExitCodeValue, usageError } from './errors.js';
import {
  type Listing,
  renderCompletion,
  renderInfo,
  renderListing,
  renderPrompt,
  renderResource,
  type Style,
  writeJson,
} from './output.js';
import { expectList, findNamed, requestOptions, type VerbContext } from './verbContext.js';
import { watch } from './watchVerb.js';

export type { VerbContext } from './verbContext.js';

/**
 * Runs one verb against a connected client.
 *
 * @example
 * ```ts
 * const code = await runVerb({ verb: 'ping' }, context);
 * ```
 */
export async function runVerb(
  action: Exclude<ClientAction, { verb: 'login' }>,
  context: VerbContext,
): Promise<ExitCodeValue> {
  switch (action.verb) {
    case 'info':
      return info(context);
    case 'ping':
      return ping(context);
    case 'list':
      return list(action.kind, context);
    case 'call':
      return call(action, context);
    case 'read':
      return read(action.uri, context);
    case 'get':
      return getPrompt(action, context);
    case 'complete':
      return complete(action, context);
    case 'watch':
      return watch(action, context);
    case 'replay': {
      const { replay } = await import('./replayVerb.js');
      return replay(action, context);
    }
  }
}

function info(context: VerbContext): ExitCodeValue {
  const result = context.client.serverResult!;
  if (context.settings.json) writeJson(context.stdout, result);
  else context.stdout.write(renderInfo(result, context.outStyle));
  return ExitCode.Success;
}

async function ping(context: VerbContext): Promise<ExitCodeValue> {
  const started = performance.now();
  await context.client.ping(requestOptions(context));
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  if (context.settings.json) writeJson(context.stdout, { latencyMs });
  else
    context.stdout.write(
      `${context.outStyle.green('pong')} from ${context.client.serverInfo?.name ?? 'the server'} in ${latencyMs} ms\n`,
    );
  return ExitCode.Success;
}

const CAPABILITY_OF: Readonly<Record<ListKindArg, 'tools' | 'resources' | 'prompts'>> = {
  tools: 'tools',
  resources: 'resources',
  templates: 'resources',
  prompts: 'prompts',
};

async function list(kind: ListKindArg | undefined, context: VerbContext): Promise<ExitCodeValue> {
  const { client } = context;
  const capabilities = client.serverCapabilities ?? {};
  const kinds = kind ? [kind] : (['tools', 'resources', 'templates', 'prompts'] as const);
  const listing: Listing = {};
  for (const one of kinds) {
    const supported = capabilities[CAPABILITY_OF[one]] !== undefined;
    if (!supported && kind) context.notice(`The server does not offer ${CAPABILITY_OF[one]}.`);
    if (one === 'tools') listing.tools = supported ? await client.tools() : [];
    if (one === 'resources') listing.resources = supported ? await client.resources() : [];
    if (one === 'templates') listing.resourceTemplates = supported ? await client.resourceTemplates() : [];
    if (one === 'prompts') listing.prompts = supported ? await client.prompts() : [];
  }
  const servers = context.servers?.();
  const serverOf = context.serverOf;
  if (serverOf) {
    // Behind --config FILE: which server offers each tool and prompt (a SERVER column, a field).
    if (listing.tools)
      listing.tools = listing.tools.map((tool) => withServer(tool, serverOf('tools', tool.name)));
    if (listing.prompts)
      listing.prompts = listing.prompts.map((prompt) => withServer(prompt, serverOf('prompts', prompt.name)));
  }
  if (context.settings.json) {
    writeJson(context.stdout, servers ? { ...listing, servers } : listing);
    return ExitCode.Success;
  }
  // In the human view, hide what the server does not support at all, unless it was asked for.
  const shown: Listing = kind ? listing : {};
  if (!kind) {
    if (capabilities.tools) shown.tools = listing.tools;
    if (capabilities.resources) {
      shown.resources = listing.resources;
      shown.resourceTemplates = listing.resourceTemplates;
    }
    if (capabilities.prompts) shown.prompts = listing.prompts;
  }
  context.stdout.write(
    renderListing(shown, context.outStyle, context.stdout.isTTY ? context.stdout.columns : undefined),
  );
  if (servers) context.stdout.write(renderServers(servers, context.outStyle));
  return ExitCode.Success;
}

function withServer<T extends object>(item: T, server: string | undefined): T {
  return server === undefined ? item : { ...item, server };
}

/** How many of a failed server's last stderr lines `list --config` shows (as `--server` shows them). */
const STDERR_LINES = 8;

/** The last lines of a server's stderr, indented under its state. */
function stderrTail(stderr: string, style: Style): string {
  const lines = stderr.trimEnd().split('\n').slice(-STDERR_LINES);
  return lines.map((text) => style.dim(`      ${text}`)).join('\n');
}

/** The servers behind `--config FILE`, one per line with its state (and why it failed). */
function renderServers(
  servers: ReadonlyArray<{ server: string; state: string; lastError?: string; stderr?: string }>,
  style: Style,
): string {
  const width = Math.max(...servers.map((s) => s.server.length));
  const lines = servers.map(({ server, state, lastError, stderr }) => {
    const shown = state === 'ready' ? style.green(state) : state === 'failed' ? style.red(state) : state;
    // Past its start budget: listed once it is ready (a gateway then says the list changed).
    const why = state === 'starting' ? 'still starting: not listed above' : lastError;
    const line = `  ${server.padEnd(width)}  ${shown}${why ? style.dim(` (${why})`) : ''}`;
    return stderr ? `${line}\n${stderrTail(stderr, style)}` : line;
  });
  return `\n${style.bold('Servers')}\n${lines.join('\n')}\n`;
}

async function read(uri: string, context: VerbContext): Promise<ExitCodeValue> {
  const result = await context.client
    .readResource(uri, requestOptions(context, true))
    .catch((error: unknown) => {
      // 2026-07-28 says -32602 where 2025 said -32002 for an unknown resource: the same failure.
      if (
        context.client.era === '2026' &&
        error instanceof McpError &&
        error.code === ErrorCode.InvalidParams
      )
        throw new McpError(ErrorCode.ResourceNotFound, error.message, error.data);
      throw error;
    });
  context.clearProgress();
  expectList(result, 'contents', 'resources/read');
  if (context.settings.json) writeJson(context.stdout, result);
  else if (!context.stdout.isTTY && isSingleBlob(result))
    context.stdout.write(Buffer.from(result.contents[0].blob, 'base64'));
  else context.stdout.write(renderResource(result, context.outStyle));
  return ExitCode.Success;
}

/** One binary content: piped stdout gets its bytes, so `mcpkit read … > file.png` works. */
function isSingleBlob(
  result: ReadResourceResult,
): result is ReadResourceResult & { contents: [{ blob: string }] } {
  const [first, ...rest] = result.contents;
  return rest.length === 0 && first !== undefined && typeof (first as { blob?: unknown }).blob === 'string';
}

async function getPrompt(
  action: Extract<ClientAction, { verb: 'get' }>,
  context: VerbContext,
): Promise<ExitCodeValue> {
  const prompt = await findNamed('prompts', action.prompt, context);
  const args = buildPromptArguments(prompt, action.pairs, action.argsJson);
  const result = await context.client.getPrompt(prompt.name, args, requestOptions(context, true));
  context.clearProgress();
  expectList(result, 'messages', 'prompts/get');
  if (context.settings.json) writeJson(context.stdout, result);
  else context.stdout.write(renderPrompt(result, context.outStyle));
  return ExitCode.Success;
}

/**
 * Refuses, as a usage error, a prompt the server does not have or an argument the prompt or the
 * listed template does not take: the server would answer with an error or nothing at all.
 */
async function checkCompletionArgument(
  ref: string,
  isTemplate: boolean,
  name: string,
  context: VerbContext,
): Promise<void> {
  let names: string[];
  let what: string;
  if (isTemplate) {
    if (!context.client.serverCapabilities?.resources) return;
    const template = (await context.client.resourceTemplates()).find((item) => item.uriTemplate === ref);
    // A URI the server does not list may still be one it completes; let the server judge it.
    if (!template) return;
    names = templateVariables(template.uriTemplate);
    what = `The template ${ref}`;
  } else {
    const prompt = await findNamed('prompts', ref, context);
    names = (prompt.arguments ?? []).map((argument) => argument.name);
    what = `The prompt "${ref}"`;
  }
  if (names.includes(name)) return;
  throw usageError(
    `${what} has no argument "${name}"`,
    names.length === 0
      ? 'It takes no arguments, so there is nothing to complete'
      : `Its arguments: ${names.join(', ')}`,
  );
}

/** The variable names of an RFC 6570 template: `{category}`, `{+path}`, `{?a,b*}`, `{x:3}`. */
function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression] of template.matchAll(/\{([^{}]*)\}/g)) {
    for (const spec of expression!.replace(/^[+#./;?&]/, '').split(',')) {
      const variable = spec.replace(/\*$/, '').split(':')[0]!.trim();
      if (variable) names.push(variable);
    }
  }
  return names;
}

/**
 * `complete REF NAME=PARTIAL [name=value…]`: REF is a template URI when it contains `://` or
 * `{`, otherwise a prompt name; the first pair is the argument being completed, the others are
 * arguments already chosen.
 */
async function complete(
  action: Extract<ClientAction, { verb: 'complete' }>,
  context: VerbContext,
): Promise<ExitCodeValue> {
  if (!context.client.serverCapabilities?.completions) {
    throw usageError(
      'The server does not offer completions',
      `See what it offers: mcpkit info ${context.targetHint}`,
    );
  }
  const isTemplate = action.ref.includes('://') || action.ref.includes('{');
  const [[name, value], ...known] = splitPairs(action.pairs) as [
    [string, string],
    ...Array<[string, string]>,
  ];
  await checkCompletionArgument(action.ref, isTemplate, name, context);
  const params: CompleteRequestParams = {
    ref: isTemplate ? { type: 'ref/resource', uri: action.ref } : { type: 'ref/prompt', name: action.ref },
    argument: { name, value },
  };
  if (known.length > 0) params.context = { arguments: Object.fromEntries(known) };
  const result = await context.client.complete(params, requestOptions(context));
  expectList(result.completion, 'values', 'completion/complete');
  if (context.settings.json) writeJson(context.stdout, result);
  else context.stdout.write(renderCompletion(result, context.outStyle));
  return ExitCode.Success;
}
