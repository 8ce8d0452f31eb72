/**
 * The keys that seal request state: the first key seals, every key opens, so keys can rotate
 * (add the new key first, keep the old one until its states have expired, then drop it).
 * @module
 */

/**
 * A request-state secret: at least 32 bytes (a string counts its UTF-8 bytes). Generate one with
 * `openssl rand -base64 32` and give every server of a cluster the same list.
 */
export type RequestStateKey = string | Uint8Array;

/** One usable key: an id carried in clear beside the sealed bytes, and the AES-256-GCM key. */
export interface SealingKey {
  /** 4 bytes derived from the secret, so a state names the key that opens it without revealing it. */
  readonly id: Uint8Array;
  /** A WebCrypto `CryptoKey`, typed loosely so that the declarations need no DOM lib. */
  readonly key: object;
}

const MIN_SECRET_BYTES = 32;
const encoder = new TextEncoder();
const SEAL_INFO = encoder.encode('mcpkit request state v1: seal');
const ID_INFO = encoder.encode('mcpkit request state v1: key id');

/**
 * Checks a `requestStateKeys` option and returns the secrets as bytes. Throws a `TypeError` that
 * says what is wrong (the secret itself never appears in it).
 *
 * @example
 * ```ts
 * checkRequestStateKeys([process.env.MCP_STATE_KEY!]);
 * ```
 */
export function checkRequestStateKeys(keys: readonly RequestStateKey[]): Uint8Array[] {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new TypeError('requestStateKeys must be a non-empty array of secrets (the first one seals)');
  }
  return keys.map((secret, index) => {
    const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret;
    if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_SECRET_BYTES) {
      throw new TypeError(
        `requestStateKeys[${index}] must be a string or Uint8Array of at least ${MIN_SECRET_BYTES} bytes`,
      );
    }
    return bytes;
  });
}

/**
 * The key ring built from checked secrets: HKDF-SHA-256 derives the AES-256-GCM key and the key id
 * from each secret, so a passphrase-like secret of any length becomes a proper key.
 *
 * @example
 * ```ts
 * const ring = await importKeyRing(checkRequestStateKeys([secret]));
 * ring[0]!.id; // 4 bytes
 * ```
 */
export async function importKeyRing(secrets: readonly Uint8Array[]): Promise<SealingKey[]> {
  return Promise.all(secrets.map(importOne));
}

async function importOne(secret: Uint8Array): Promise<SealingKey> {
  const base = await crypto.subtle.importKey('raw', secret as BufferSource, 'HKDF', false, [
    'deriveKey',
    'deriveBits',
  ]);
  const hkdf = (info: Uint8Array) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info });
  const key = await crypto.subtle.deriveKey(hkdf(SEAL_INFO), base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  const id = new Uint8Array(await crypto.subtle.deriveBits(hkdf(ID_INFO), base, 32));
  return { id, key };
}

let processSecret: Uint8Array | undefined;

/**
 * The secret used when a server is given no `requestStateKeys`: random, made once per process.
 * Correct on one process; a cluster must configure shared keys.
 *
 * @example
 * ```ts
 * const ring = await importKeyRing([processRequestStateSecret()]);
 * ```
 */
export function processRequestStateSecret(): Uint8Array {
  if (!processSecret) processSecret = crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES));
  return processSecret;
}
