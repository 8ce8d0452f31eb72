import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioFrom, fileResource, imageFrom } from './sources.js';

const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'),
  (c) => c.charCodeAt(0),
);
const WAV = Uint8Array.from(atob('UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA=='), (c) =>
  c.charCodeAt(0),
);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/logo') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(PNG);
    } else if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.write(new Uint8Array(64 * 1024));
      response.end(new Uint8Array(64 * 1024));
    } else if (request.url === '/slow') {
      setTimeout(() => response.end(PNG), 2_000);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('imageFrom and audioFrom', () => {
  it('build blocks from bytes, ArrayBuffers, Blobs, base64 and data: URLs, recognising the type', async () => {
    const expected = { type: 'image', data: PNG_BASE64, mimeType: 'image/png' };
    expect(await imageFrom(PNG)).toEqual(expected);
    expect(await imageFrom(PNG.buffer.slice(0) as ArrayBuffer)).toEqual(expected);
    expect(await imageFrom(new Blob([PNG]))).toEqual(expected);
    expect(await imageFrom(PNG_BASE64)).toEqual(expected);
    expect(await imageFrom(`data:image/png;base64,${PNG_BASE64}`)).toEqual(expected);
    expect(await audioFrom(WAV)).toEqual({
      type: 'audio',
      data: Buffer.from(WAV).toString('base64'),
      mimeType: 'audio/wav',
    });
    expect(await imageFrom(PNG, { mimeType: 'image/x-custom', annotations: { priority: 1 } })).toEqual({
      ...expected,
      mimeType: 'image/x-custom',
      annotations: { priority: 1 },
    });
  });

  it('takes the type from a Blob or data: URL when the bytes do not tell', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect((await imageFrom(new Blob([svg], { type: 'image/svg+xml' }))).mimeType).toBe('image/svg+xml');
    await expect(imageFrom(svg)).rejects.toThrow(/Cannot tell the image type/);
    await expect(audioFrom(PNG)).rejects.toThrow(/Cannot tell the audio type/);
  });

  it('fetch http(s) URLs, recognising the bytes over a generic Content-Type', async () => {
    expect(await imageFrom(new URL(`${base}/logo`))).toEqual({
      type: 'image',
      data: PNG_BASE64,
      mimeType: 'image/png',
    });
    expect((await imageFrom(`${base}/logo`)).data).toBe(PNG_BASE64);
  });

  it('cap the size, apply a timeout, and report HTTP failures without the query string', async () => {
    await expect(imageFrom(new URL(`${base}/big`), { maxBytes: 100_000 })).rejects.toThrow(
      /larger than 100000 bytes/,
    );
    await expect(imageFrom(new URL(`${base}/slow`), { timeoutMs: 50 })).rejects.toThrow();
    const failure = imageFrom(new URL(`${base}/missing?token=secret`));
    await expect(failure).rejects.toThrow(`Fetching ${base}/missing failed: HTTP 404`);
    await expect(imageFrom(new URL(`${base}/missing?token=secret`))).rejects.not.toThrow(/secret/);
    await expect(imageFrom(PNG, { maxBytes: 10 })).rejects.toThrow(RangeError);
    const controller = new AbortController();
    controller.abort();
    await expect(imageFrom(new URL(`${base}/logo`), { signal: controller.signal })).rejects.toThrow();
  });

  it('refuse file: URLs with advice, and other schemes', async () => {
    await expect(imageFrom(new URL('file:///etc/passwd'))).rejects.toThrow(/read the file yourself/);
    await expect(imageFrom('file:///etc/passwd')).rejects.toThrow(/fs.readFile/);
    await expect(imageFrom(new URL('ftp://example.com/a.png'))).rejects.toThrow(
      /Unsupported URL scheme "ftp:"/,
    );
    await expect(imageFrom('not base64 at all')).rejects.toThrow(/must be base64/);
  });
});

describe('fileResource', () => {
  it('embeds textual types as text and the rest as base64 blobs', async () => {
    const markdown = new TextEncoder().encode('# Notes\nhé');
    expect(await fileResource('file:///notes.md', markdown, { mimeType: 'text/markdown' })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes\nhé' },
    });
    expect(await fileResource('file:///logo.png', PNG)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///logo.png', mimeType: 'image/png', blob: PNG_BASE64 },
    });
    expect(await fileResource('file:///data.bin', new Uint8Array([0, 1]))).toEqual({
      type: 'resource',
      resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAE=' },
    });
    expect(
      (await fileResource('file:///a.json', new Blob(['{"a":1}'], { type: 'application/json' }))).resource,
    ).toEqual({
      uri: 'file:///a.json',
      mimeType: 'application/json',
      text: '{"a":1}',
    });
  });

  it('falls back to a blob for text types that are not UTF-8, unless text is demanded', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    expect((await fileResource('file:///a.txt', latin1, { mimeType: 'text/plain' })).resource).toEqual({
      uri: 'file:///a.txt',
      mimeType: 'text/plain',
      blob: 'Y2Fm6Q==',
    });
    await expect(fileResource('file:///a.txt', latin1, { text: true })).rejects.toThrow(/not UTF-8/);
  });
});
