/**
 * A tool result as the AI SDK hands it to a model (`ToolResultOutput`): for the catalogue's tools
 * and for the tool results inside a sampling request alike.
 * @module
 */
import type { CallToolResult } from '@mcpkit/core';
import type { JSONValue, Tool } from 'ai';
import { modelParts, resultText } from '../agents/content.js';

/** What `toModelOutput` returns: the AI SDK's `ToolResultOutput`, which `ai` does not export by name. */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * What the model reads of a tool result: its text and media as content, `structuredContent` as
 * JSON when there is no content, and an `isError` result as a tool error.
 *
 * @example
 * ```ts
 * aiSdkModelOutput({ content: [{ type: 'text', text: 'Not found' }], isError: true }); // { type: 'error-text', value: 'Not found' }
 * ```
 */
export function aiSdkModelOutput(result: CallToolResult): ModelOutput {
  if (result.isError) return { type: 'error-text', value: resultText(result) };
  const parts = modelParts(result);
  if (parts.length === 0) return { type: 'text', value: '' };
  if ((result.content ?? []).length === 0)
    return { type: 'json', value: (result.structuredContent ?? null) as JSONValue };
  return {
    type: 'content',
    value: parts.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : {
            type: 'file' as const,
            data: { type: 'data' as const, data: part.data },
            mediaType: part.mimeType,
          },
    ),
  };
}
