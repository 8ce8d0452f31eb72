/**
 * What a view sends for the two requests a host answers with the person's consent, checked off
 * the wire before any host callback sees it: the files of `ui/download-file` (embedded resources
 * with their text or base64 bytes, or links to fetch) and the `sampling/createMessage` request
 * (messages and a token budget). Anything else is refused as invalid params.
 * @module
 */
import type { CreateMessageRequestParams } from '@mcpkit/core';
import { BridgeRefusal, isRecord, RpcCode } from './rpc.js';

/** Files one `ui/download-file` may carry. */
const MAX_FILES = 16;

/**
 * One file of `ui/download-file`: an embedded resource (its `text`, or its `blob` as base64; the
 * file name comes from the last segment of its `uri`) or a link (`resource_link`) the host may fetch.
 *
 * @example
 * ```ts
 * const file: DownloadContent = { type: 'resource', resource: { uri: 'file:///export.json', mimeType: 'application/json', text: '{}' } };
 * ```
 */
export type DownloadContent =
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
    }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; size?: number };

function invalid(message: string): never {
  throw new BridgeRefusal(RpcCode.InvalidParams, message);
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') invalid(`${name} must be a string`);
  return value;
}

function downloadContent(item: unknown): DownloadContent {
  if (!isRecord(item)) invalid('Invalid content: each item must be an object');
  if (item.type === 'resource' && isRecord(item.resource)) {
    const { uri, mimeType, text, blob } = item.resource;
    if (typeof uri !== 'string') invalid('Invalid content: resource.uri must be a string');
    optionalString(mimeType, 'resource.mimeType');
    if ((typeof text === 'string') === (typeof blob === 'string'))
      invalid('Invalid content: a resource carries either text or blob');
    const resource: { uri: string; mimeType?: string; text?: string; blob?: string } = { uri };
    if (mimeType !== undefined) resource.mimeType = mimeType as string;
    if (typeof text === 'string') resource.text = text;
    else resource.blob = blob as string;
    return { type: 'resource', resource };
  }
  if (item.type === 'resource_link') {
    const { uri, name, mimeType, size } = item;
    if (typeof uri !== 'string' || typeof name !== 'string')
      invalid('Invalid content: a resource_link needs a uri and a name');
    optionalString(mimeType, 'mimeType');
    if (size !== undefined && (typeof size !== 'number' || !(size >= 0))) invalid('size must be a number');
    const link: DownloadContent = { type: 'resource_link', uri, name };
    if (mimeType !== undefined) link.mimeType = mimeType as string;
    if (size !== undefined) link.size = size as number;
    return link;
  }
  return invalid('Invalid content: items are resource or resource_link blocks');
}

/**
 * The files of a `ui/download-file` request, or a refusal (`-32602`) naming what is wrong.
 *
 * @example
 * ```ts
 * downloadContents({ contents: [{ type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi' } }] });
 * ```
 */
export function downloadContents(params: Record<string, unknown>): DownloadContent[] {
  const contents = params.contents;
  if (!Array.isArray(contents) || contents.length === 0 || contents.length > MAX_FILES)
    invalid(`Invalid content: contents must list 1 to ${MAX_FILES} files`);
  return contents.map(downloadContent);
}

/**
 * A view's `sampling/createMessage` params after the checks a host needs before showing them:
 * messages, each with a `user` or `assistant` role and content, and a positive `maxTokens`.
 *
 * @example
 * ```ts
 * samplingParams({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 50 });
 * ```
 */
export function samplingParams(params: Record<string, unknown>): CreateMessageRequestParams {
  const { messages, maxTokens, systemPrompt } = params;
  if (!Array.isArray(messages) || messages.length === 0) invalid('messages must be a non-empty list');
  for (const message of messages) {
    if (
      !isRecord(message) ||
      (message.role !== 'user' && message.role !== 'assistant') ||
      !(isRecord(message.content) || Array.isArray(message.content))
    )
      invalid('Each message needs a role (user or assistant) and content');
  }
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
    invalid('maxTokens must be a positive integer');
  optionalString(systemPrompt, 'systemPrompt');
  return params as unknown as CreateMessageRequestParams;
}
