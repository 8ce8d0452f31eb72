/**
 * The tools a view offers the host (MCP Apps "App-provided tools"; the view declares
 * `appCapabilities.tools`): the wire names to ask with, and the checks of what the view answers.
 * A view is untrusted, so its tool list is capped and each tool and result checked before the host
 * sees it; anything else is a {@link ViewToolError}.
 * @module
 */
import type { CallToolResult, Tool } from '@mcpkit/core';
import { isRecord } from './rpc.js';

/**
 * The host → view methods, newest first: ext-apps 2.x (`BREAKING.md`) renamed the spec draft's
 * `tools/list` and `tools/call` in this direction to `ui/list-view-tools` and `ui/call-view-tool`;
 * a view that answers the first with "method not found" is asked with the second.
 *
 * @example
 * ```ts
 * VIEW_TOOL_METHODS[0].list; // 'ui/list-view-tools'
 * ```
 */
export const VIEW_TOOL_METHODS = [
  { list: 'ui/list-view-tools', call: 'ui/call-view-tool' },
  { list: 'tools/list', call: 'tools/call' },
] as const;

/**
 * A view's tools could not be listed or called: it offers none, it did not answer in time, it
 * answered with an error, or its answer was not a tool list or a tool result.
 *
 * @example
 * ```ts
 * declare const app: AppHandle;
 * try { await app.callViewTool('set_note', { text: 'hi' }); } catch (error) { if (error instanceof ViewToolError) console.warn(error.message, error.code); }
 * ```
 */
export class ViewToolError extends Error {
  override readonly name = 'ViewToolError';
  constructor(
    message: string,
    /** The JSON-RPC error code the view answered with, if it answered with one. */
    readonly code?: number,
  ) {
    super(message);
  }
}

/**
 * The tools in a view's answer to a tool listing, at most `max` (more is refused), each with a
 * string name and an object `inputSchema`.
 *
 * @throws {ViewToolError} when the answer is not a tool list.
 * @example
 * ```ts
 * viewToolList({ tools: [{ name: 'reset', inputSchema: { type: 'object' } }] }, 64);
 * ```
 */
export function viewToolList(result: unknown, max: number): Tool[] {
  const tools = isRecord(result) ? result.tools : undefined;
  if (!Array.isArray(tools)) throw new ViewToolError('The view answered without a tool list');
  if (tools.length > max) throw new ViewToolError(`The view lists more than ${max} tools`);
  for (const tool of tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.inputSchema))
      throw new ViewToolError('The view listed a tool without a name or an inputSchema');
  }
  return tools as Tool[];
}

/**
 * A view's tool result, checked: `content` a list of content blocks, `structuredContent` an
 * object if there, `isError` a boolean if there.
 *
 * @throws {ViewToolError} when the answer is not a tool result.
 * @example
 * ```ts
 * viewToolResult({ content: [{ type: 'text', text: 'done' }] });
 * ```
 */
export function viewToolResult(result: unknown): CallToolResult {
  if (
    !isRecord(result) ||
    !Array.isArray(result.content) ||
    !result.content.every((block) => isRecord(block) && typeof block.type === 'string') ||
    (result.structuredContent !== undefined && !isRecord(result.structuredContent)) ||
    (result.isError !== undefined && typeof result.isError !== 'boolean')
  )
    throw new ViewToolError('The view answered with something other than a tool result');
  return result as CallToolResult;
}
