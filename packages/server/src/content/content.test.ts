import { describe, expect, it } from 'vitest';
import { audio, embeddedResource, image, resourceLink, text, toBase64 } from './content.js';

describe('content helpers', () => {
  it('build each block type, with optional annotations and _meta', () => {
    expect(text('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(text('hi', { annotations: { audience: ['user'] }, _meta: { 'com.example/k': 1 } })).toEqual({
      type: 'text',
      text: 'hi',
      annotations: { audience: ['user'] },
      _meta: { 'com.example/k': 1 },
    });
    expect(image(new Uint8Array([137, 80, 78, 71]), 'image/png')).toEqual({
      type: 'image',
      data: 'iVBORw==',
      mimeType: 'image/png',
    });
    expect(audio('UklGRg==', 'audio/wav')).toEqual({
      type: 'audio',
      data: 'UklGRg==',
      mimeType: 'audio/wav',
    });
    expect(resourceLink({ uri: 'file:///a.pdf', name: 'a.pdf', size: 10 })).toEqual({
      type: 'resource_link',
      uri: 'file:///a.pdf',
      name: 'a.pdf',
      size: 10,
    });
    expect(embeddedResource({ uri: 'memo://1', mimeType: 'text/plain', text: 'milk' })).toEqual({
      type: 'resource',
      resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'milk' },
    });
    expect(embeddedResource({ uri: 'memo://2', blob: new Uint8Array([1, 2, 3]) })).toEqual({
      type: 'resource',
      resource: { uri: 'memo://2', blob: 'AQID' },
    });
  });

  it('refuse strings that are not base64, missing MIME types and empty resources', () => {
    expect(() => image('hello world', 'image/png')).toThrow(/must be base64/);
    expect(() => image('AQID', '')).toThrow(/MIME type/);
    expect(() => embeddedResource({ uri: 'memo://3' } as never)).toThrow(/"text" or "blob"/);
    expect(() => resourceLink({ uri: 'x:y' } as never)).toThrow(/"uri" and "name"/);
    expect(toBase64('AQID')).toBe('AQID');
  });
});
