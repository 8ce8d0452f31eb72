/**
 * What a model reads of a tool result, before a framework's own shapes: text, and media (images,
 * audio, blobs) as base64 with their type. Both agent adapters map from this, so a result reads
 * the same to a model whichever framework runs it.
 * @module
 */
import type { CallToolResult, ContentBlock } from '@mcpkit/core';

/**
 * One part of a tool result as a model reads it.
 *
 * @example
 * ```ts
 * const parts: ModelPart[] = [{ type: 'text', text: 'A cat' }, { type: 'media', data: 'iVBORw0KGgo=', mimeType: 'image/png' }];
 * ```
 */
export type ModelPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'media'; readonly data: string; readonly mimeType: string };

/**
 * The parts a model reads of a tool result: its content blocks; a result with no content but
 * `structuredContent` reads as that JSON (the spec asks servers to send both, so this is rare).
 *
 * @example
 * ```ts
 * modelParts({ content: [{ type: 'text', text: 'hi' }] }); // [{ type: 'text', text: 'hi' }]
 * ```
 */
export function modelParts(result: CallToolResult): ModelPart[] {
  const content = result.content ?? [];
  if (content.length === 0 && result.structuredContent !== undefined)
    return [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  return content.map(partOf);
}

/**
 * A tool result's text alone, media named by type (for the places a framework takes only text,
 * such as an error).
 *
 * @example
 * ```ts
 * resultText({ content: [{ type: 'text', text: 'No such file' }], isError: true }); // 'No such file'
 * ```
 */
export function resultText(result: CallToolResult): string {
  return modelParts(result)
    .map((part) => (part.type === 'text' ? part.text : `[${part.mimeType}]`))
    .join('\n');
}

function partOf(block: ContentBlock): ModelPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: 'media', data: block.data, mimeType: block.mimeType };
    case 'resource': {
      const { resource } = block;
      if ('text' in resource) return { type: 'text', text: resource.text };
      return {
        type: 'media',
        data: resource.blob,
        mimeType: resource.mimeType ?? 'application/octet-stream',
      };
    }
    case 'resource_link':
      return { type: 'text', text: `Resource ${block.name}: ${block.uri}` };
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}
