import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../tests/support/fastCheck.js';
import { decodeBase64, encodeBase64, isBase64 } from './base64.js';

describe('base64', () => {
  it('encodes and decodes any bytes exactly as Node does', () => {
    assertProperty(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const encoded = encodeBase64(bytes);
        expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
        expect(Buffer.from(decodeBase64(encoded)).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it("handles buffers far larger than one chunk (and far past engines' argument limits)", () => {
    // No clock here (speed is for `npm run bench`): one `String.fromCharCode.apply` of 5 MiB
    // throws a RangeError, which is what the chunking is for.
    const bytes = new Uint8Array(5 * 1024 * 1024 + 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    const encoded = encodeBase64(bytes);
    expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
    expect(encodeBase64(bytes.buffer)).toBe(encoded);
  });

  it('encodes only the bytes of a view, not its whole buffer', () => {
    const backing = new Uint8Array([9, 9, 1, 2, 3, 9]);
    expect(encodeBase64(backing.subarray(2, 5))).toBe('AQID');
  });

  it('recognises valid base64, with or without padding', () => {
    for (const valid of ['', 'AQID', 'AQI=', 'AQ==', 'AQI', 'AQ', 'a+/b'])
      expect(isBase64(valid), valid).toBe(true);
    for (const invalid of ['A', 'AQ=', 'A===', 'AQ==AQ==', 'AQ I', 'AQ-_', 'é'])
      expect(isBase64(invalid), invalid).toBe(false);
    expect(() => decodeBase64('not base64!')).toThrow(TypeError);
  });
});
