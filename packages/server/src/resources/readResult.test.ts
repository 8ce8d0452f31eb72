import { describe, expect, it } from 'vitest';
import { toReadResourceResult } from './readResult.js';

describe('toReadResourceResult', () => {
  it('turns a string into text and bytes into a base64 blob, with the registered type', () => {
    expect(toReadResourceResult('hi', 'test://a', 'text/plain')).toEqual({
      contents: [{ uri: 'test://a', mimeType: 'text/plain', text: 'hi' }],
    });
    expect(toReadResourceResult(new Uint8Array([0, 255, 16]), 'test://b', undefined)).toEqual({
      contents: [{ uri: 'test://b', blob: 'AP8Q' }],
    });
    expect(toReadResourceResult(new Uint8Array([1, 2]).buffer, 'test://b', 'x/y').contents[0]).toEqual({
      uri: 'test://b',
      mimeType: 'x/y',
      blob: 'AQI=',
    });
  });

  it('fills in the uri and type of contents objects, keeping their own', () => {
    expect(
      toReadResourceResult(
        [
          { text: 'root' },
          { uri: 'test://a/child', blob: new Uint8Array([1]), _meta: { 'com.example/k': 1 } },
        ],
        'test://a',
        'text/plain',
      ),
    ).toEqual({
      contents: [
        { uri: 'test://a', mimeType: 'text/plain', text: 'root' },
        { uri: 'test://a/child', blob: 'AQ==', _meta: { 'com.example/k': 1 } },
      ],
    });
    expect(toReadResourceResult({ text: 'x', mimeType: 'text/markdown' }, 'test://a', 'text/plain')).toEqual({
      contents: [{ uri: 'test://a', mimeType: 'text/markdown', text: 'x' }],
    });
  });

  it('passes a full result through, keeping its _meta', () => {
    const result = { contents: [{ uri: 'test://a', text: 'x' }], _meta: { 'com.example/k': 1 } };
    expect(toReadResourceResult(result, 'test://a', undefined)).toEqual(result);
  });

  it('refuses values of no accepted shape, and blobs that are not base64', () => {
    for (const bad of [
      42,
      null,
      { nothing: true },
      [{ text: 1 }],
      { blob: 'not base64!' },
      { uri: 5, text: 'x' },
    ]) {
      expect(() => toReadResourceResult(bad, 'test://a', undefined), JSON.stringify(bad)).toThrow(
        /unsupported value/,
      );
    }
  });
});
