/**
 * Base64 for binary content (images, audio, blobs), with web-standard APIs only.
 *
 * `btoa` takes a "binary string" (one char per byte). Building it one byte at a time is quadratic
 * on some engines and slow on all; `String.fromCharCode.apply` on 32 KiB slices is fast and stays
 * well under engines' argument limits. Where `Uint8Array.prototype.toBase64` exists (newer
 * engines), it is used instead.
 * @module
 */
import { isBase64Char } from '@mcpkit/core/internal';

const CHUNK = 0x8000;

type NativeBase64 = { toBase64?: (this: Uint8Array) => string };
type NativeFromBase64 = { fromBase64?: (text: string) => Uint8Array };

const nativeEncode = (Uint8Array.prototype as NativeBase64).toBase64;
const nativeDecode = (Uint8Array as unknown as NativeFromBase64).fromBase64;

/**
 * Encodes bytes as standard base64 (with padding).
 *
 * @example
 * ```ts
 * encodeBase64(new Uint8Array([137, 80, 78, 71])); // 'iVBORw=='
 * ```
 */
export function encodeBase64(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (nativeEncode) return nativeEncode.call(view);
  if (view.length <= CHUNK) return btoa(String.fromCharCode.apply(null, view as unknown as number[]));
  const parts: string[] = [];
  for (let i = 0; i < view.length; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, view.subarray(i, i + CHUNK) as unknown as number[]));
  }
  return btoa(parts.join(''));
}

/**
 * Decodes standard base64 (padding optional).
 *
 * @throws {TypeError} when `text` is not base64.
 * @example
 * ```ts
 * decodeBase64('iVBORw=='); // Uint8Array [137, 80, 78, 71]
 * ```
 */
export function decodeBase64(text: string): Uint8Array {
  if (!isBase64(text)) throw new TypeError('Expected base64 data (A-Z, a-z, 0-9, "+", "/", "=" padding)');
  if (nativeDecode) return nativeDecode(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * True when `text` is standard base64 that `atob` accepts: the base64 alphabet, at most two `=` at
 * the end, and a length that padding makes a multiple of four. The empty string is valid (no
 * bytes).
 *
 * @example
 * ```ts
 * isBase64('iVBORw=='); // true
 * isBase64('not base64!'); // false
 * ```
 */
export function isBase64(text: string): boolean {
  let end = text.length;
  let padding = 0;
  while (end > 0 && text.charCodeAt(end - 1) === 61 && padding < 2) {
    end--;
    padding++;
  }
  if (padding > 0 ? text.length % 4 !== 0 : end % 4 === 1) return false;
  for (let i = 0; i < end; i++) {
    if (!isBase64Char(text.charCodeAt(i))) return false;
  }
  return true;
}
