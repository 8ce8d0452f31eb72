import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, fromBase64Url, toBase64Url } from './digest.js';

describe('canonicalJson and digestOf', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }], u: undefined })).toBe(
      '{"a":[true,{"c":"x","d":null}],"b":1}',
    );
    expect(canonicalJson([undefined, 'é'])).toBe('[null,"é"]');
  });

  it('digests equal values alike whatever their key order, and different values apart', async () => {
    const a = await digestOf({ name: 'deploy', arguments: { env: 'prod', force: true } });
    expect(a).toHaveLength(43);
    expect(await digestOf({ arguments: { force: true, env: 'prod' }, name: 'deploy' })).toBe(a);
    expect(await digestOf({ name: 'deploy', arguments: { env: 'staging', force: true } })).not.toBe(a);
    // A "__proto__" member parsed from JSON is an own property and counts like any other.
    expect(await digestOf(JSON.parse('{"name":"deploy","__proto__":{"x":1}}'))).not.toBe(
      await digestOf({ name: 'deploy' }),
    );
  });
});

describe('base64url', () => {
  it('round-trips every byte value and large inputs', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    const text = toBase64Url(bytes);
    const back = fromBase64Url(text)!;
    expect(back.byteLength).toBe(bytes.byteLength);
    expect(back.every((byte, i) => byte === bytes[i])).toBe(true);
    expect(btoa(String.fromCharCode(...bytes.subarray(0, 300)))).toBe(
      `${text.slice(0, 400).replace(/-/g, '+').replace(/_/g, '/')}`,
    );
    expect(toBase64Url(new Uint8Array([251, 255]))).toBe('-_8');
    expect(fromBase64Url('-_8=')).toEqual(new Uint8Array([251, 255]));
  });

  it('refuses characters outside the base64url alphabet and impossible lengths', () => {
    for (const text of ['+/8', 'ab cd', 'abcde', 'ab=c', 'a===']) expect(fromBase64Url(text)).toBeUndefined();
  });
});
