/**
 * What an MCP App's view asks of the person, through the page: a sampling request (the same
 * question and answer as a server's, labelled with the tool whose view asks) and the files it
 * offers to save (named, typed and sized; the bytes stay in the page, which saves them on yes).
 * The page relays what the view sent, so it is checked here like anything off the wire.
 * @module
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@mcpkit/core';
import { sample } from './answers.js';
import type { Questions } from './questions.js';

/** Files one question may name. */
const MAX_FILES = 16;
/** The longest file name, URL or type shown. */
const MAX_TEXT = 2048;

/**
 * One file a view offers: its name and type and size in bytes, or (a link) the URL it points to.
 *
 * @example
 * ```ts
 * const file: OfferedFile = { name: 'notes.json', mimeType: 'application/json', size: 19 };
 * ```
 */
export interface OfferedFile {
  name: string;
  mimeType?: string;
  size?: number;
  url?: string;
}

/**
 * A view's question as the page sends it, unchecked.
 *
 * @example
 * ```ts
 * const asked: ViewAsk = { kind: 'download', tool: 'show_desk', params: { files: [{ name: 'a.txt', size: 2 }] } };
 * ```
 */
export interface ViewAsk {
  kind?: unknown;
  tool?: unknown;
  server?: unknown;
  params?: unknown;
}

/** `value` if it is a string of 1 to {@link MAX_TEXT} characters (or absent, when `optional`). */
function shortText(value: unknown, what: string, optional = false): string | undefined {
  if (optional && value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT)
    throw new TypeError(`${what} must be a string of 1 to ${MAX_TEXT} characters`);
  return value;
}

/** A file as the dialog shows it: only these fields, each checked. */
function offeredFile(value: unknown): OfferedFile {
  const { name, mimeType, url, size } = (value ?? {}) as Record<string, unknown>;
  if (size !== undefined && !(Number.isSafeInteger(size) && (size as number) >= 0))
    throw new TypeError('A file size must be a whole number of bytes');
  return {
    name: shortText(name, 'A file name')!,
    mimeType: shortText(mimeType, 'A file type', true),
    url: shortText(url, 'A file URL', true),
    size: size as number | undefined,
  };
}

/**
 * Asks the person what a view asks: for `sampling`, the model reply (rejected: `McpError` -1, as
 * for a server); for `download`, whether to save the files (`{ accepted }`).
 *
 * @throws {TypeError} when what the page relayed is not a view's question.
 * @example
 * ```ts
 * const { accepted } = (await askForView(questions, { kind: 'download', tool: 'show_desk', params: { files } })) as { accepted: boolean };
 * ```
 */
export async function askForView(
  questions: Questions,
  asked: ViewAsk,
): Promise<CreateMessageResult | { accepted: boolean }> {
  const tool = shortText(asked.tool, '"tool"')!;
  const server = shortText(asked.server, '"server"', true);
  const params = (asked.params ?? {}) as Record<string, unknown>;
  if (asked.kind === 'sampling') {
    if (!Array.isArray(params.messages) || typeof params.maxTokens !== 'number')
      throw new TypeError('A sampling request needs messages and maxTokens');
    return sample(questions, params as unknown as CreateMessageRequestParams, undefined, server, tool);
  }
  if (asked.kind === 'download') {
    const files = params.files;
    if (!Array.isArray(files) || files.length === 0 || files.length > MAX_FILES)
      throw new TypeError(`"files" must list 1 to ${MAX_FILES} files`);
    const answer = (await questions.ask(
      'download',
      { files: files.map(offeredFile) },
      undefined,
      server,
      tool,
    )) as {
      accept?: unknown;
    } | null;
    return { accepted: answer?.accept === true };
  }
  throw new TypeError('"kind" must be sampling or download');
}
