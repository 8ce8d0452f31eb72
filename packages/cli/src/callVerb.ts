/**
 * The \`call\` verb: arguments built from the tool's schema, run at once or as a task, the result
 * printed, and a declared \`outputSchema\` checked.
 * @module
 */
import { callToolAndWait, type McpClient } from '@mcpkit/client';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  TASKS_EXTENSION,
  type Task,
  type Tool,
} from '@mcpkit/core';
import { formatIssues } from '@mcpkit/core/internal';
import { UNAVAILABLE_META } from '@mcpkit/host';
import { defaultValidator } from '@mcpkit/schema';
import type { ClientAction } from './args.js';
import { buildToolArguments } from './arguments.js';
import { CliError, ExitCode, type ExitCodeValue, usageError } from './errors.js';
import { renderToolResult, writeJson } from './output.js';
import { saveBinaryContent } from './savedContent.js';
import { expectList, findNamed, requestOptions, type VerbContext } from './verbContext.js';

export async function call(
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
  const saved = action.out ? await saveBinaryContent(result, action.out, tool.name) : undefined;
  const code = printToolResult(tool.name, result, context, saved);
  checkStructuredOutput(tool, result);
  // A server behind a gateway (`--config` with several servers) that died or could not start:
  // a connection failure, as with `--server`, not the tool's own error.
  if (code === ExitCode.ToolError && result._meta?.[UNAVAILABLE_META] !== undefined)
    return ExitCode.Connection;
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

function reportTask(task: Task, context: VerbContext): void {
  context.clearProgress();
  const message = task.statusMessage ? `: ${task.statusMessage}` : '';
  context.notice(`Task ${task.taskId} is ${task.status.replace('_', ' ')}${message}`);
}

function printToolResult(
  name: string,
  result: CallToolResult,
  context: VerbContext,
  saved: ReadonlyMap<number, string> | undefined,
): ExitCodeValue {
  if (context.settings.json) {
    writeJson(context.stdout, result);
    for (const file of saved?.values() ?? []) context.notice(`saved ${file}`);
  } else if (result.isError) {
    context.stderr.write(
      `${context.errStyle.red(`Tool "${name}" reported an error:`)}\n${renderToolResult(result, context.errStyle, saved)}`,
    );
  } else {
    context.stdout.write(renderToolResult(result, context.outStyle, saved));
  }
  return result.isError ? ExitCode.ToolError : ExitCode.Success;
}
