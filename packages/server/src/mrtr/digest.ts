/**
 * Digests and byte encodings for request state, on WebCrypto alone (no `node:` imports), so the
 * same code runs in Node, Deno, Bun, workers and browsers.
 * @module
 */
import { isBase64Char } from '@mcpkit/core/internal';

const encoder = new TextEncoder();

/**
 * JSON with object keys sorted at every level, so that two equal values digest alike whatever
 * order their keys arrived in. `undefined` members are left out, as `JSON.stringify` does.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // '{"a":[true,{"c":"x","d":null}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (item !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The SHA-256 of a value's canonical JSON, base64url without padding (43 characters).
 *
 * @example
 * ```ts
 * const digest = await digestOf({ name: 'deploy', arguments: { env: 'prod' } });
 * ```
 */
export async function digestOf(value: unknown): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(value)));
  return toBase64Url(new Uint8Array(hash));
}

/**
 * Bytes as base64url without padding.
 *
 * @example
 * ```ts
 * toBase64Url(new Uint8Array([251, 255])); // '-_8'
 * ```
 */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: String.fromCharCode with a spread of a large array would exceed the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Base64url (padding optional) to bytes; `undefined` for anything that is not strictly base64url.
 *
 * @example
 * ```ts
 * fromBase64Url('-_8'); // Uint8Array [251, 255]
 * fromBase64Url('not base64!'); // undefined
 * ```
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  // A linear check (no backtracking regex): base64url characters, then at most two '='.
  const body = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (body.length % 4 === 1) return undefined;
  for (let i = 0; i < body.length; i++) {
    if (!isBase64Char(body.charCodeAt(i), 'base64url')) return undefined;
  }
  const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
