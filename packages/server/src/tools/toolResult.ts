/**
 * From what a tool handler returns to a `CallToolResult`, and the results that report failures to
 * the model (`isError: true`).
 *
 * Plain returns:
 * - `undefined` → no content;
 * - a string → one text block;
 * - a content block, or an array of content blocks → that content;
 * - an object whose `content` is an array of content blocks → used as the `CallToolResult` itself;
 * - anything else → one text block with its JSON (for a tool with an `outputSchema`, a plain object
 *   becomes `structuredContent` instead, plus that text block for older clients).
 * @module
 */
import {
  type CallToolResult,
  CapabilityError,
  type ContentBlock,
  type JsonObject,
  McpError,
  type ValidationIssue,
} from '@mcpkit/core';
import { formatIssues } from '@mcpkit/core/internal';

/**
 * An error whose message is written for the model. Thrown from a tool handler, it becomes an
 * `isError: true` result with exactly this message, while any other thrown error is masked
 * (unless `maskToolErrors: false`), and it is not reported to `onError`: it is an expected outcome.
 *
 * @example
 * ```ts
 * declare function lookup(city: string): Promise<{ summary: string } | undefined>;
 * server.tool('weather', { inputSchema: z.object({ city: z.string() }) }, async ({ city }) => {
 *   const report = await lookup(city);
 *   if (!report) throw new ToolError(`No weather station near "${city}". Try a larger city nearby.`);
 *   return report.summary;
 * });
 * ```
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

/**
 * True when `value` has the shape of a content block (text, image, audio, resource link or
 * embedded resource) with its required members.
 *
 * @example
 * ```ts
 * isContentBlock({ type: 'text', text: 'hi' }); // true
 * isContentBlock({ type: 'text' }); // false
 * ```
 */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  const type = block.type;
  if (typeof type !== 'string' || !BLOCK_TYPES.has(type)) return false;
  switch (type) {
    case 'text':
      return typeof block.text === 'string';
    case 'image':
    case 'audio':
      return typeof block.data === 'string' && typeof block.mimeType === 'string';
    case 'resource_link':
      return typeof block.uri === 'string' && typeof block.name === 'string';
    default:
      return typeof block.resource === 'object' && block.resource !== null;
  }
}

function isContentArray(value: unknown): value is ContentBlock[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isContentBlock(item)) return false;
  return true;
}

/**
 * True when `value` is a complete `CallToolResult`: an object whose `content` is an array of
 * content blocks.
 *
 * @example
 * ```ts
 * isCallToolResult({ content: [], isError: true }); // true
 * isCallToolResult({ content: ['a', 'b'] }); // false: a plain object that happens to have "content"
 * ```
 */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    isContentArray((value as { content?: unknown }).content)
  );
}

/**
 * A text block holding `value` as JSON.
 *
 * @throws {TypeError} when `value` cannot be written as JSON (a `bigint`, a cycle, a function).
 */
function jsonText(value: unknown): ContentBlock {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`A tool returned ${typeof value}, which is not JSON`);
  return { type: 'text', text };
}

/**
 * The `CallToolResult` for what a handler of a tool without `outputSchema` returned.
 *
 * @throws {TypeError} when the value cannot be written as JSON.
 * @example
 * ```ts
 * toCallToolResult('done'); // { content: [{ type: 'text', text: 'done' }] }
 * toCallToolResult({ celsius: 21 }); // { content: [{ type: 'text', text: '{"celsius":21}' }] }
 * ```
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (value === undefined) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (isCallToolResult(value)) return value;
  if (isContentBlock(value)) return { content: [value] };
  if (isContentArray(value)) return { content: value };
  return { content: [jsonText(value)] };
}

/**
 * The result carrying structured output, with its JSON as a text block for clients that predate
 * `structuredContent` (the specification asks for both).
 *
 * @example
 * ```ts
 * structuredResult({ celsius: 21 });
 * // { content: [{ type: 'text', text: '{"celsius":21}' }], structuredContent: { celsius: 21 } }
 * ```
 */
export function structuredResult(value: JsonObject): CallToolResult {
  return { content: [jsonText(value)], structuredContent: value };
}

/**
 * An `isError: true` result with one text block.
 *
 * @example
 * ```ts
 * toolErrorResult('The city was not found'); // { content: [{ type: 'text', text: '...' }], isError: true }
 * ```
 */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The result for arguments that fail the tool's `inputSchema`: every issue with its path, so the
 * model can correct its call (SEP-1303: input errors are tool errors, not protocol errors).
 *
 * @example
 * ```ts
 * invalidArgumentsResult('echo', [{ path: '/text', message: 'must be string, got number' }]);
 * ```
 */
export function invalidArgumentsResult(toolName: string, issues: readonly ValidationIssue[]): CallToolResult {
  return toolErrorResult(
    `Invalid arguments for tool "${toolName}":\n${formatIssues(issues, 'list')}\nFix these arguments to match the tool's inputSchema and call it again.`,
  );
}

/**
 * The text a model sees for an error a handler threw.
 *
 * A `ToolError` or an `McpError` message is always shown: both are written for the peer. So is a
 * `CapabilityError` (the client or the transport cannot do what the tool asked, e.g. "the client
 * does not support sampling.tools"): it names protocol features, never internals. Any
 * other error is masked by default ("Tool "x" failed with an internal error."), because its
 * message is written for the developer and often holds paths, hosts or credentials (`ENOENT
 * /home/me/…`, `ECONNREFUSED 10.0.0.7:5432`); the server reports it in full to `onError`. With
 * `mask` off (`maskToolErrors: false`, for development) the raw message is shown. Stack traces
 * are never included.
 *
 * @example
 * ```ts
 * thrownErrorText('weather', new Error('ECONNREFUSED 10.0.0.7:5432'), true); // 'Tool "weather" failed with an internal error.'
 * thrownErrorText('weather', new ToolError('City not found'), true); // 'City not found'
 * thrownErrorText('weather', new Error('City not found'), false); // 'City not found'
 * ```
 */
export function thrownErrorText(toolName: string, error: unknown, mask: boolean): string {
  const exposed =
    !mask || error instanceof ToolError || error instanceof McpError || error instanceof CapabilityError;
  if (exposed) {
    if (error instanceof Error && error.message) return error.message;
    if (typeof error === 'string' && error) return error;
  }
  return mask ? `Tool "${toolName}" failed with an internal error.` : `Tool "${toolName}" failed.`;
}
