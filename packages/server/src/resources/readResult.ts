/**
 * From what a resource reader returns to a `ReadResourceResult`.
 *
 * - a string → one text item;
 * - bytes (`Uint8Array`, `ArrayBuffer`) → one base64 blob item;
 * - a contents object (`{ text }` or `{ blob }`, `uri` optional) or an array of them → those items
 *   (a `blob` may be bytes);
 * - an object with a `contents` array → used as the result itself.
 *
 * Items without a `uri` get the URI that was read, and without a `mimeType` the one registered.
 * @module
 */
import type { BlobResourceContents, Meta, ReadResourceResult, TextResourceContents } from '@mcpkit/core';
import { encodeBase64, isBase64 } from '../content/base64.js';
import type { InputRequiredResult } from '../mrtr/signal.js';

/**
 * One item a reader may return: text or a blob (bytes or base64), `uri` and `mimeType` optional.
 *
 * @example
 * ```ts
 * const item: ResourceContentsInput = { text: '# Notes', mimeType: 'text/markdown' };
 * ```
 */
export type ResourceContentsInput =
  | { uri?: string; mimeType?: string; _meta?: Meta; text: string }
  | { uri?: string; mimeType?: string; _meta?: Meta; blob: string | Uint8Array | ArrayBuffer };

/**
 * What a resource reader may return.
 *
 * @example
 * ```ts
 * const read = (): ReadResourceReturn => 'plain text';
 * ```
 */
export type ReadResourceReturn =
  | string
  | Uint8Array
  | ArrayBuffer
  | ResourceContentsInput
  | readonly ResourceContentsInput[]
  | ReadResourceResult
  /** 2026-07-28: ask the client yourself (see docs/input-required.md); passed as it is. */
  | InputRequiredResult;

/**
 * Builds the `resources/read` result for what a reader returned.
 *
 * @throws {TypeError} when the value has none of the accepted shapes (a server bug: answered as an
 *   internal error and reported to `onError`).
 * @example
 * ```ts
 * toReadResourceResult('hello', 'test://greeting', 'text/plain');
 * // { contents: [{ uri: 'test://greeting', mimeType: 'text/plain', text: 'hello' }] }
 * ```
 */
export function toReadResourceResult(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  if (typeof value === 'string')
    return { contents: [withType<TextResourceContents>({ uri, text: value }, mimeType)] };
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    return { contents: [withType<BlobResourceContents>({ uri, blob: encodeBase64(value) }, mimeType)] };
  }
  if (Array.isArray(value)) return { contents: value.map((item) => toContents(item, uri, mimeType)) };
  if (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { contents?: unknown }).contents)
  ) {
    const result = value as ReadResourceResult;
    return { ...result, contents: result.contents.map((item) => toContents(item, uri, mimeType)) };
  }
  return { contents: [toContents(value, uri, mimeType)] };
}

function withType<T extends { mimeType?: string }>(item: T, mimeType: string | undefined): T {
  if (mimeType !== undefined) item.mimeType = mimeType;
  return item;
}

function toContents(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): TextResourceContents | BlobResourceContents {
  if (typeof value !== 'object' || value === null) throw badReturn(uri);
  const item = value as Record<string, unknown>;
  const itemUri = item.uri === undefined ? uri : item.uri;
  if (typeof itemUri !== 'string') throw badReturn(uri);
  const base: Record<string, unknown> = { uri: itemUri };
  const type = item.mimeType ?? (itemUri === uri ? mimeType : undefined);
  if (type !== undefined) base.mimeType = type;
  if (item._meta !== undefined) base._meta = item._meta;
  if (typeof item.text === 'string') {
    base.text = item.text;
    return base as TextResourceContents;
  }
  const blob = item.blob;
  if (blob instanceof Uint8Array || blob instanceof ArrayBuffer) base.blob = encodeBase64(blob);
  else if (typeof blob === 'string' && isBase64(blob)) base.blob = blob;
  else throw badReturn(uri);
  return base as BlobResourceContents;
}

function badReturn(uri: string): TypeError {
  return new TypeError(
    `The reader of ${uri} returned an unsupported value: return a string, bytes, { text } or { blob } contents, an array of them, or { contents: [...] }`,
  );
}
