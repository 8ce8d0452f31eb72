/**
 * Reading request bodies under a size cap, and the media-type checks of the MCP endpoints.
 * @module
 */

/** What {@link readJsonBody} found. */
export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'too-large' | 'parse' | 'aborted' };

const TOO_LARGE = { ok: false, problem: 'too-large' } as const;
const PARSE = { ok: false, problem: 'parse' } as const;
const ABORTED = { ok: false, problem: 'aborted' } as const;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses a JSON body, stopping as soon as it exceeds `limit` bytes: a client cannot make
 * the server buffer more than the cap, whatever `Content-Length` claims.
 */
export async function readJsonBody(request: Request, limit: number): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    void request.body?.cancel().catch(() => {});
    return TOO_LARGE;
  }
  const body = request.body;
  if (!body) return PARSE;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        return TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch {
    return ABORTED;
  }
  let text: string;
  try {
    text = decoder.decode(chunks.length === 1 ? chunks[0] : concat(chunks, size));
  } catch {
    return PARSE;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return PARSE;
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
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

/** True for `application/json`, with or without parameters such as `charset`. */
export function isJsonContentType(header: string | null): boolean {
  return header !== null && mediaType(header) === 'application/json';
}

function mediaType(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}
