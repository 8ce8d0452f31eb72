/**
 * Reading request bodies under a size cap, the media-type checks of the MCP endpoints, and
 * handing a classified body to the engine.
 * @module
 */
import { DEFAULT_MAX_JSON_DEPTH, type MessageExtra, type MessageSink } from '@mcpkit/core';
import { type ClassifiedBody, exceedsJsonDepth } from '@mcpkit/core/internal';
import type { RawHttpRequest } from './rawHttp.js';
import { Refuse, type Reply } from './responses.js';

/** What {@link readJsonBody} found. */
export type BodyResult =
  | { readonly ok: true; readonly value: unknown; readonly bytes: number }
  | { readonly ok: false; readonly problem: 'too-large' | 'parse' | 'too-deep' | 'aborted' };

const TOO_LARGE = { ok: false, problem: 'too-large' } as const;
const PARSE = { ok: false, problem: 'parse' } as const;
const ABORTED = { ok: false, problem: 'aborted' } as const;
const TOO_DEEP = { ok: false, problem: 'too-deep' } as const;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses a JSON body, stopping as soon as it exceeds `limit` bytes: a client cannot make
 * the server buffer more than the cap, whatever `Content-Length` claims. A body nested deeper than
 * `maxDepth` is refused before parsing (see `exceedsJsonDepth`).
 */
export async function readJsonBody(
  request: RawHttpRequest,
  limit: number,
  maxDepth: number = DEFAULT_MAX_JSON_DEPTH,
): Promise<BodyResult> {
  const bytes = await request.readBody(limit);
  if (bytes === 'too-large') return TOO_LARGE;
  if (bytes === 'aborted') return ABORTED;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return PARSE;
  }
  if (exceedsJsonDepth(text, maxDepth)) return TOO_DEEP;
  try {
    return { ok: true, value: JSON.parse(text), bytes: bytes.length };
  } catch {
    return PARSE;
  }
}

/**
 * A POST's JSON body, or the refusal both MCP endpoints answer instead: a `Content-Type` that is
 * not JSON (415), a body over `limit` bytes (413), one nested deeper than `maxDepth`, one that
 * does not parse, or one that could not be read.
 */
export async function readJsonPost(
  request: RawHttpRequest,
  limit: number,
  maxDepth: number,
): Promise<Extract<BodyResult, { ok: true }> | Reply> {
  if (!isJsonContentType(request.header('content-type'))) return Refuse.unsupportedMediaType();
  const body = await readJsonBody(request, limit, maxDepth);
  if (body.ok) return body;
  if (body.problem === 'too-large') return Refuse.tooLarge(limit);
  if (body.problem === 'too-deep') return Refuse.tooDeep(maxDepth);
  return body.problem === 'parse' ? Refuse.parse() : Refuse.invalid('the body could not be read');
}

/**
 * True when an `Accept` header admits `type` (`"text/event-stream"`), directly or by a wildcard.
 * A missing header admits nothing: MCP clients must send one.
 */
export function accepts(header: string | null, type: string): boolean {
  if (header === null) return false;
  const major = type.slice(0, type.indexOf('/'));
  for (const part of header.split(',')) {
    const media = mediaType(part);
    if (media === type || media === '*/*' || media === `${major}/*`) return true;
  }
  return false;
}

/** The last `Accept` header {@link acceptsJsonAndSse} parsed, and its answer. */
let lastAccept: string | undefined;
let lastAcceptsBoth = false;
/** Longer headers are parsed every time rather than kept. */
const MAX_REMEMBERED_ACCEPT = 256;

/**
 * True when an `Accept` header admits both `application/json` and `text/event-stream`, as a
 * Streamable HTTP POST must. A client sends the same header on every POST, so the last one is
 * remembered and not split again (a pure function of the text: nothing per server or per client).
 *
 * @example
 * ```ts
 * acceptsJsonAndSse('application/json, text/event-stream'); // true
 * acceptsJsonAndSse('application/json'); // false
 * ```
 */
export function acceptsJsonAndSse(header: string | null): boolean {
  if (header === null) return false;
  if (header === lastAccept) return lastAcceptsBoth;
  const both = accepts(header, 'application/json') && accepts(header, 'text/event-stream');
  if (header.length <= MAX_REMEMBERED_ACCEPT) {
    lastAccept = header;
    lastAcceptsBoth = both;
  }
  return both;
}

/** True for `application/json`, with or without parameters such as `charset`. */
export function isJsonContentType(header: string | null): boolean {
  return header !== null && mediaType(header) === 'application/json';
}

function mediaType(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Hands a body the endpoint classified to the engine, which then does not classify it again; a sink
 * without `classified` (one that wraps the engine) gets the plain value.
 *
 * @example
 * ```ts
 * deliverBody(sink, classifyBody(value), extra);
 * ```
 */
export function deliverBody(sink: MessageSink | undefined, body: ClassifiedBody, extra: MessageExtra): void {
  if (!sink) return;
  if (sink.classified) sink.classified(body, extra);
  else sink.message(body.value, extra);
}
