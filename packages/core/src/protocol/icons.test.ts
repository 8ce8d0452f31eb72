import { describe, expect, it } from 'vitest';
import { itJudges } from '../../../../tests/support/verdicts.js';
import { isSafeIconSource, validateIcon, validateIcons } from './icons.js';

const png =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('isSafeIconSource', () => {
  itJudges(isSafeIconSource, {
    accepts: [
      'https://example.com/icon.png',
      'HTTPS://EXAMPLE.COM/icon.png',
      'https://example.com:8443/a/b.svg?x=1#f',
      png,
      'data:image/svg+xml;charset=utf-8;base64,PHN2Zy8+',
      'DATA:IMAGE/PNG;BASE64,AAAA',
    ],
    rejects: [
      'http://example.com/icon.png',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'file:///etc/passwd',
      'ftp://example.com/i.png',
      'ws://example.com/i',
      'myapp://icon',
      '//example.com/i.png',
      '/icon.png',
      'https://user:secret@example.com/i.png',
      'https:///nohost',
      'https://',
      'https:example.com/i.png',
      'https:\\\\example.com\\i.png',
      ' https://example.com/i.png',
      'https://example.com/i.png\n',
      'java\tscript:alert(1)',
      'data:image/png,rawbytes',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/png;base64,',
      'data:image/png;base64,AA=A',
      'data:image/png;base64,AA===',
      'data:image/png;base64,<script>',
      '',
    ],
  });

  it('rejects non-strings and oversized sources', () => {
    expect(isSafeIconSource(undefined)).toBe(false);
    expect(isSafeIconSource(42)).toBe(false);
    expect(isSafeIconSource(`data:image/png;base64,${'A'.repeat(100)}`, { maxSourceLength: 50 })).toBe(false);
  });
});

describe('validateIcon', () => {
  it('accepts a complete icon', () => {
    expect(
      validateIcon({
        src: 'https://example.com/i.png',
        mimeType: 'image/png',
        sizes: ['48x48', '96X96', 'any'],
        theme: 'dark',
      }),
    ).toEqual([]);
    expect(validateIcon({ src: png, mimeType: 'image/png' })).toEqual([]);
  });

  it('reports each problem', () => {
    expect(validateIcon('x')).toEqual(['an icon must be an object']);
    expect(validateIcon({})).toEqual(['icon "src" must be a string']);
    expect(validateIcon({ src: 'javascript:alert(1)' })).toEqual([
      'icon "src" must be an https: URL (no credentials) or a data:image/...;base64 URI',
    ]);
    expect(validateIcon({ src: 'https://example.com/i', mimeType: 'png' })).toEqual([
      'icon "mimeType" must be a "type/subtype" string',
    ]);
    expect(validateIcon({ src: png, mimeType: 'image/jpeg' })).toEqual([
      'icon "mimeType" (image/jpeg) does not match the data URI (image/png)',
    ]);
    expect(validateIcon({ src: 'https://example.com/i', sizes: ['48'] })[0]).toContain('"WxH"');
    expect(validateIcon({ src: 'https://example.com/i', sizes: ['048x48'] })).toHaveLength(1);
    expect(validateIcon({ src: 'https://example.com/i', sizes: '48x48' })).toEqual([
      'icon "sizes" must be an array of strings',
    ]);
    expect(validateIcon({ src: 'https://example.com/i', theme: 'blue' })).toEqual([
      'icon "theme" must be "light" or "dark"',
    ]);
    expect(validateIcon({ src: 'x'.repeat(20), mimeType: 1 }, { maxSourceLength: 10 })).toEqual([
      'icon "src" is longer than 10 characters',
      'icon "mimeType" must be a "type/subtype" string',
    ]);
  });
});

describe('validateIcons', () => {
  it('prefixes each problem with the icon index', () => {
    expect(
      validateIcons([{ src: 'https://example.com/a.png' }, { src: 'http://example.com/b.png' }]),
    ).toEqual(['icons[1]: icon "src" must be an https: URL (no credentials) or a data:image/...;base64 URI']);
    expect(validateIcons({})).toEqual(['"icons" must be an array']);
  });
});
