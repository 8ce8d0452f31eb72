/**
 * One tool call on a server's client. A tool whose `execution.taskSupport` is `required` cannot
 * be called plainly, so the host runs it as a task and waits for its result (polling, with the
 * task cancelled when the call is): the caller, a model or a gateway's client, gets an ordinary
 * `CallToolResult` and needs no task support of its own. A caller that follows the task itself
 * (a gateway serving a task) passes `onTaskStatus`: then a tool that supports tasks at all runs
 * as one, and every status the server reports reaches the caller.
 * @module
 */
import { callToolAndWait, type McpClient } from '@mcpkit/client';
import {
  type CallToolResult,
  cancelSignalOf,
  type OutgoingRequestOptions,
  type Task,
  type Tool,
} from '@mcpkit/core';
import { toolsByName } from './toolIndex.js';

/**
 * Options of `McpHost.callTool`: the request options, and what to do with a task.
 *
 * @example
 * ```ts
 * const options: HostCallOptions = { onTaskStatus: (task) => console.log(task.status, task.statusMessage) };
 * ```
 */
export interface HostCallOptions extends OutgoingRequestOptions {
  /**
   * Run the tool as a task on its server whenever it supports tasks (`optional` or `required`),
   * and report each status seen (`working`, `input_required`, …, the terminal one included).
   */
  onTaskStatus?: (task: Task) => void;
  /** Requested lifetime of that upstream task, in ms. */
  taskTtl?: number;
}

/**
 * Calls `name` on `client`, as a task when the tool requires it (or supports it and the caller
 * follows the task).
 *
 * @example
 * ```ts
 * const result = await callOn(client, 'simulate-research-query', { topic: 'tides' });
 * ```
 */
export function callOn(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  options?: HostCallOptions,
): Promise<CallToolResult> {
  // Once the tools are known (every call but the first), no await before the request leaves.
  const index = toolsByName(client);
  if (index instanceof Promise)
    return index.then((tools) => callAs(client, tools.get(name), name, args, options));
  return callAs(client, index.get(name), name, args, options);
}

function callAs(
  client: McpClient,
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
  options: HostCallOptions | undefined,
): Promise<CallToolResult> {
  const support = tool?.execution?.taskSupport;
  const following = options?.onTaskStatus !== undefined;
  const asTask = support === 'required' || (following && support === 'optional');
  if (!asTask) {
    if (options === undefined || (!following && options.taskTtl === undefined)) {
      return client.callTool(name, args, options);
    }
    const { onTaskStatus: _status, taskTtl: _ttl, ...request } = options;
    return client.callTool(name, args, request);
  }
  const signal = cancelSignalOf(options);
  return callToolAndWait(client, name, args, {
    ...(signal ? { signal } : {}),
    ...(options?.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options?.onTaskStatus ? { onStatus: options.onTaskStatus } : {}),
    ...(options?.taskTtl !== undefined ? { ttl: options.taskTtl } : {}),
  });
}
