/**
 * One tool call on a server's client. A tool whose `execution.taskSupport` is `required` cannot
 * be called plainly, so the host runs it as a task and waits for its result (polling, with the
 * task cancelled when the call is): the caller, a model or a gateway's client, gets an ordinary
 * `CallToolResult` and needs no task support of its own.
 * @module
 */
import { callToolAndWait, type McpClient } from '@mcpkit/client';
import { type CallToolResult, cancelSignalOf, type OutgoingRequestOptions, type Tool } from '@mcpkit/core';
import { toolsByName } from './toolIndex.js';

/**
 * Calls `name` on `client`, as a task when the tool requires it.
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
  options?: OutgoingRequestOptions,
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
  options: OutgoingRequestOptions | undefined,
): Promise<CallToolResult> {
  if (tool?.execution?.taskSupport !== 'required') return client.callTool(name, args, options);
  const signal = cancelSignalOf(options);
  return callToolAndWait(client, name, args, {
    ...(signal ? { signal } : {}),
    ...(options?.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
