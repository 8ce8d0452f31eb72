/**
 * The fixture tools of the tasks-extension scenarios (`io.modelcontextprotocol/tasks`, SEP-2663)
 * of `@modelcontextprotocol/conformance` 0.2.0-alpha.12, on the public API only: tools marked
 * with `execution.taskSupport` run as tasks whenever a 2026-07-28 request declares the extension
 * (the server decides), and their `ctx.elicit()` calls become the task's `inputRequests`.
 */
import { type CallToolResult, ErrorCode, McpError } from '@mcpkit/core';
import { McpServer, type RegisteredTool, type RequestContext, text, toolErrorResult } from '@mcpkit/server';
import { TaskManager } from '@mcpkit/server/tasks';
import { z } from 'zod';

/** Resolves after `ms`, or rejects when `signal` aborts (a cancelled task stops at once). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const confirmSchema = {
  type: 'object',
  properties: { confirm: { type: 'boolean' }, name: { type: 'string' } },
} as const;

/** The fixture server: a tool that fails with a JSON-RPC error needs `executeTool` (a tool's own throw is an `isError` result). */
export class TaskFixtureServer extends McpServer {
  protected override executeTool(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    if (tool.name === 'protocol_error_job') {
      return Promise.reject(new McpError(ErrorCode.InternalError, 'protocol_error_job fails on purpose'));
    }
    return super.executeTool(tool, args, ctx);
  }
}

/** The task engine of the fixture server (its `tasks` option). */
export function fixtureTaskManager(): TaskManager {
  return new TaskManager({ pollInterval: 100 });
}

/** Registers the tasks-extension fixtures on `server` (which must have a `tasks` option). */
export function registerTaskFixtures(server: McpServer): void {
  const tasks = server.tasks;
  if (!tasks) throw new Error('the task fixtures need a server with the tasks option');
  server.tool(
    'greet',
    { description: 'Greets, synchronously', inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );
  server.tool(
    'slow_compute',
    {
      description: 'Sleeps `seconds`, then answers; runs as a task',
      inputSchema: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, ctx.signal);
      return `computed ${label ?? 'result'} after ${seconds}s`;
    },
  );
  server.tool(
    'failing_job',
    { description: 'Reports a tool error; only as a task', execution: { taskSupport: 'required' } },
    async (_args, ctx) => {
      await sleep(200, ctx.signal);
      return toolErrorResult('failing_job failed on purpose');
    },
  );
  server.tool(
    'protocol_error_job',
    { description: 'Fails with a JSON-RPC error; runs as a task', execution: { taskSupport: 'optional' } },
    () => 'never reached (see TaskFixtureServer)',
  );
  server.tool(
    'confirm_delete',
    {
      description: 'Asks to confirm the deletion of a file; runs as a task',
      inputSchema: z.object({ filename: z.string() }),
      execution: { taskSupport: 'optional' },
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit({ message: `Delete ${filename}?`, requestedSchema: confirmSchema });
      const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
      return `${filename}: ${confirmed ? 'deleted' : 'kept'}`;
    },
  );
  server.tool(
    'multi_input',
    { description: 'Asks two questions at once; runs as a task', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'First name?', requestedSchema: confirmSchema }),
        ctx.elicit({ message: 'Second name?', requestedSchema: confirmSchema }),
      ]);
      return `answers: ${String(first.content?.name)}, ${String(second.content?.name)}`;
    },
  );
  // Input-required rounds first (on the request itself), then a task (SEP-2663 "Composition with
  // Multi Round-Trip Requests"): the handler starts the task itself once it has its answer.
  server.tool(
    'test_tool_with_task',
    { description: 'Asks a name, then continues as a task' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        { inputKey: 'user_name' },
      );
      const name = String(answer.content?.name ?? 'stranger');
      // The task's result is stored as given: a whole CallToolResult.
      return tasks.run(ctx, { method: 'tools/call' }, () => ({ content: [text(`Hello, ${name}!`)] }));
    },
  );
}
