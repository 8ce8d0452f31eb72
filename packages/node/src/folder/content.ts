/**
 * What a served file is sent as: valid UTF-8 text as `text` with its MIME type, anything else as
 * a base64 `blob`, never text with replacement characters.
 * @module
 */
import { mimeTypeOf } from '../files.js';

/** One `resources/read` item of a served file. */
export type FileContents =
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: Uint8Array };

// `fatal`: invalid UTF-8 throws instead of becoming U+FFFD. One decoder serves every read: with
// `fatal` and no `stream` option a decode call keeps no state between calls.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Types whose bytes are never text, even when they happen to decode as UTF-8. */
function isBinaryType(type: string): boolean {
  if (type === 'image/svg+xml') return false;
  const top = type.slice(0, type.indexOf('/'));
  return (
    top === 'image' ||
    top === 'audio' ||
    top === 'video' ||
    top === 'font' ||
    type === 'application/octet-stream'
  );
}

/**
 * The contents of a file: text when its bytes are valid UTF-8 with no NUL byte (UTF-16 and
 * binary formats are full of them) and its type is not a binary one, else a blob. The MIME type
 * comes from the name's extension; without one, `text/plain` or `application/octet-stream`.
 *
 * @example
 * ```ts
 * fileContents('file:///srv/a.md', 'a.md', new TextEncoder().encode('# A'));
 * // { uri: 'file:///srv/a.md', mimeType: 'text/markdown', text: '# A' }
 * ```
 */
export function fileContents(uri: string, name: string, bytes: Uint8Array): FileContents {
  const type = mimeTypeOf(name);
  const text = type !== undefined && isBinaryType(type) ? undefined : decodeText(bytes);
  if (text !== undefined) return { uri, mimeType: type ?? 'text/plain', text };
  return { uri, mimeType: type ?? 'application/octet-stream', blob: bytes };
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
