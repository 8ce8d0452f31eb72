import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileResource, imageFrom } from '@mcpkit/server';
import { afterAll, describe, expect, it } from 'vitest';
import { fileBlob, fileUri, mimeTypeOf } from './files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A 1×1 PNG: the bytes must survive the trip to base64 unchanged.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

describe('files as content sources', () => {
  it('turns a file into an image block through imageFrom', async () => {
    const path = join(dir, 'dot.png');
    writeFileSync(path, PNG);
    const block = await imageFrom(await fileBlob(path));
    expect(block).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
  });

  it('turns a text file into an embedded text resource with a file:// URI', async () => {
    const path = join(dir, 'notes.md');
    writeFileSync(path, '# Notes\nüñí');
    const block = await fileResource(fileUri(path), await fileBlob(path));
    expect(block).toEqual({
      type: 'resource',
      resource: { uri: `file://${path}`, mimeType: 'text/markdown', text: '# Notes\nüñí' },
    });
  });

  it('knows common extensions, case-insensitively, and nothing else', () => {
    expect(mimeTypeOf('A.JPG')).toBe('image/jpeg');
    expect(mimeTypeOf(new URL('file:///x/y.wav'))).toBe('audio/wav');
    expect(mimeTypeOf('archive.bin')).toBe('application/octet-stream');
    expect(mimeTypeOf('main.ts')).toBe('text/x-typescript');
    expect(mimeTypeOf('README')).toBeUndefined();
    expect(mimeTypeOf('x.unknown-extension')).toBeUndefined();
  });

  it('fails clearly for a missing file', async () => {
    await expect(fileBlob(join(dir, 'missing.png'))).rejects.toThrow(/ENOENT.*missing\.png/);
    await expect(fileBlob(dir)).rejects.toThrow(/is not a file/);
  });
});
