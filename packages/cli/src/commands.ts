/**
 * The verbs that talk to a server, each given a connected client and returning an exit code.
 * @module
 */
import { callToolAndWait, type McpClient } from '@mcpkit/client';
import {
  type CallToolResult,
  type CompleteRequestParams,
  ErrorCode,
  McpError,
  type OutgoingRequestOptions,
  type ProgressUpdate,
  type Prompt,
  type ReadResourceResult,
  TASKS_EXTENSION,
  type Task,
  type Tool,
} from '@mcpkit/core';
import { formatIssues } from '@mcpkit/core/internal';
import { defaultValidator } from '@mcpkit/schema';
import type { ClientAction, ClientSettings, ListKindArg } from './args.js';
import { closestName } from './args.js';
import { buildPromptArguments, buildToolArguments, splitPairs } from './arguments.js';
import { CliError, ExitCode, type ExitCodeValue, usageError } from './errors.js';
import {
  type Listing,
  type OutputStream,
  renderCompletion,
  renderInfo,
  renderListing,
  renderPrompt,
  renderResource,
  renderToolResult,
  type Style,
  writeJson,
} from './output.js';

/** What a verb needs: the client, the options, where to write, and how to report progress. */
export interface VerbContext {
  readonly client: McpClient;
  readonly settings: ClientSettings;
  /** How the target is named in messages and hints (the URL, or `-- command`). */
  readonly targetHint: string;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly outStyle: Style;
  readonly errStyle: Style;
  /** Aborted by Ctrl-C or the `--timeout` deadline. */
  readonly signal: AbortSignal;
  /** Draws the progress bar (a no-op when stderr is not a terminal). */
  readonly onProgress: (update: ProgressUpdate) => void;
  /** Removes the progress bar before anything else is written. */
  readonly clearProgress: () => void;
  /** Says something on stderr. */
  readonly notice: (text: string) => void;
  /** With `--config FILE` and no `--server`: the state of each server of the file. */
  readonly servers?: () => ReadonlyArray<{ server: string; state: string; lastError?: string }>;
}

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
  }
}

function requestOptions(context: VerbContext, withProgress = false): OutgoingRequestOptions {
  const options: OutgoingRequestOptions = { signal: context.signal };
  const timeout = context.settings.timeoutMs;
  if (timeout !== undefined) {
    options.timeout = timeout;
    options.maxTotalTimeout = timeout;
  }
  if (withProgress) options.onProgress = context.onProgress;
  return options;
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

/** The servers behind `--config FILE`, one per line with its state (and why it failed). */
function renderServers(
  servers: ReadonlyArray<{ server: string; state: string; lastError?: string }>,
  style: Style,
): string {
  const width = Math.max(...servers.map((s) => s.server.length));
  const lines = servers.map(({ server, state, lastError }) => {
    const shown = state === 'ready' ? style.green(state) : state === 'failed' ? style.red(state) : state;
    return `  ${server.padEnd(width)}  ${shown}${lastError ? style.dim(` (${lastError})`) : ''}`;
  });
  return `\n${style.bold('Servers')}\n${lines.join('\n')}\n`;
}

/** Looks up a tool or prompt by name; an unknown name is a usage error with the closest match. */
async function findNamed<K extends 'tools' | 'prompts'>(
  kind: K,
  name: string,
  context: VerbContext,
): Promise<K extends 'tools' ? Tool : Prompt> {
  if (!context.client.serverCapabilities?.[kind]) {
    throw usageError(`The server offers no ${kind}`, `See what it offers: mcpkit info ${context.targetHint}`);
  }
  const items: ReadonlyArray<Tool | Prompt> =
    kind === 'tools' ? await context.client.tools() : await context.client.prompts();
  const item = items.find((candidate) => candidate.name === name);
  if (item) return item as K extends 'tools' ? Tool : Prompt;
  throw usageError(
    `The server has no ${kind.slice(0, -1)} "${name}"`,
    notFoundHint(
      name,
      items.map((candidate) => candidate.name),
      kind,
      context,
    ),
  );
}

function notFoundHint(name: string, names: readonly string[], kind: string, context: VerbContext): string {
  const guess = closestName(name, names);
  const known =
    names.length === 0
      ? `It has no ${kind}.`
      : `Its ${kind}: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`;
  return `${guess ? `Did you mean "${guess}"? ` : ''}${known} (mcpkit list ${kind} ${context.targetHint})`;
}

async function call(
  action: Extract<ClientAction, { verb: 'call' }>,
  context: VerbContext,
): Promise<ExitCodeValue> {
  const { client } = context;
  const { tool, missing } = await toolForCall(action.tool, context);
  const args = buildToolArguments(tool, action.pairs, action.argsJson);
  const support = tool.execution?.taskSupport ?? 'forbidden';
  if (action.task && support === 'forbidden') {
    throw usageError(
      `Tool "${tool.name}" cannot run as a task (its execution.taskSupport is "forbidden")`,
      'Call it without --task',
    );
  }
  let result: CallToolResult;
  if (action.task || support === 'required') {
    if (!serverRunsToolTasks(client))
      throw usageError(
        `Tool "${tool.name}" wants a task, but the server does not declare task support for tools/call`,
      );
    result = await callToolAndWait(client, tool.name, args, {
      signal: context.signal,
      onProgress: context.onProgress,
      onStatus: (task) => reportTask(task, context),
      ...(context.settings.timeoutMs === undefined ? {} : { resultTimeout: context.settings.timeoutMs }),
    });
  } else {
    result = await client.callTool(tool.name, args, requestOptions(context, true)).catch((error: unknown) => {
      // An unlisted tool the server does not know either: the listing's error and hint.
      if (missing && error instanceof McpError && error.code === ErrorCode.InvalidParams) throw missing;
      throw error;
    });
  }
  context.clearProgress();
  // Some servers (server-everything) answer an unknown tool with an error result, not an error.
  if (missing && result.isError === true) throw missing;
  expectList(result, 'content', 'tools/call');
  const code = printToolResult(tool.name, result, context);
  checkStructuredOutput(tool, result);
  return code;
}

/** Whether the server runs `tools/call` as tasks: the 2025 capability, or the 2026-07-28 extension. */
function serverRunsToolTasks(client: McpClient): boolean {
  const capabilities = client.serverCapabilities;
  if (client.era === '2026') {
    const extensions = capabilities?.extensions as Record<string, unknown> | undefined;
    return extensions?.[TASKS_EXTENSION] !== undefined;
  }
  return capabilities?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * The tool to call: the listed one, or, when the listing does not show it, a stand-in with an open
 * input schema. A server may hide a tool the caller's token lacks the scope for and answer a call
 * to it with `403 insufficient_scope`, which the OAuth step-up recovers from; so the call is still
 * made, and only a server that does not know the tool either gets the listing's error.
 */
async function toolForCall(name: string, context: VerbContext): Promise<{ tool: Tool; missing?: CliError }> {
  try {
    return { tool: await findNamed('tools', name, context) };
  } catch (error) {
    if (!(error instanceof CliError) || !context.client.serverCapabilities?.tools) throw error;
    return { tool: { name, inputSchema: { type: 'object' } }, missing: error };
  }
}

/**
 * A tool with an `outputSchema` must return matching `structuredContent`. The result is printed
 * first, so the user sees what the server sent; the mismatch is then a protocol error.
 */
function checkStructuredOutput(tool: Tool, result: CallToolResult): void {
  if (!tool.outputSchema || result.isError) return;
  const problem = structuredOutputProblem(tool.outputSchema, result.structuredContent);
  if (problem === undefined) return;
  throw new CliError(
    ExitCode.Connection,
    `Protocol error: tool "${tool.name}" declares an outputSchema, but ${problem}`,
  );
}

function structuredOutputProblem(schema: object, structured: unknown): string | undefined {
  if (structured === undefined) return 'it returned no structuredContent';
  let check: ReturnType<ReturnType<typeof defaultValidator>['compile']>;
  try {
    check = defaultValidator().compile(schema as Record<string, unknown>);
  } catch {
    // A schema this validator cannot compile (an unknown dialect): nothing to say.
    return undefined;
  }
  const verdict = check(structured);
  if (verdict.valid) return undefined;
  const issues = formatIssues(verdict.issues, 'inline');
  return `its structuredContent does not match it (${issues})`;
}

/**
 * Checks the one member a verb's output depends on, so a server that breaks the protocol is
 * reported as such (exit 3) rather than crashing the renderer.
 */
function expectList(result: unknown, member: string, method: string): void {
  const value = (result as Record<string, unknown> | null)?.[member];
  if (!Array.isArray(value)) {
    throw new CliError(
      ExitCode.Connection,
      `Protocol error: the server's answer to ${method} has no "${member}" list`,
      'The server does not follow the MCP specification here; rerun with --verbose to see its answer',
    );
  }
}

function reportTask(task: Task, context: VerbContext): void {
  context.clearProgress();
  const message = task.statusMessage ? `: ${task.statusMessage}` : '';
  context.notice(`Task ${task.taskId} is ${task.status.replace('_', ' ')}${message}`);
}

function printToolResult(name: string, result: CallToolResult, context: VerbContext): ExitCodeValue {
  if (context.settings.json) {
    writeJson(context.stdout, result);
  } else if (result.isError) {
    context.stderr.write(
      `${context.errStyle.red(`Tool "${name}" reported an error:`)}\n${renderToolResult(result, context.errStyle)}`,
    );
  } else {
    context.stdout.write(renderToolResult(result, context.outStyle));
  }
  return result.isError ? ExitCode.ToolError : ExitCode.Success;
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
