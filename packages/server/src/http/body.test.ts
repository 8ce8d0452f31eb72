import { describe, expect, it } from 'vitest';
import { accepts, acceptsJsonAndSse, isJsonContentType, readJsonBody } from './body.js';
import type { RawHttpRequest } from './rawHttp.js';
import { webRequestView } from './requestView.js';

function streamed(chunks: Uint8Array[], onPull?: () => void): RawHttpRequest {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      onPull?.();
      if (index < chunks.length) controller.enqueue(chunks[index++]!);
      else controller.close();
    },
  });
  return webRequestView(
    new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit),
  );
}

describe('readJsonBody', () => {
  it('parses a body split across chunks, even inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('{"text":"héllo ✓"}');
    const chunks = [bytes.slice(0, 10), bytes.slice(10, 11), bytes.slice(11)];
    expect(await readJsonBody(streamed(chunks), 1024)).toEqual({
      ok: true,
      value: { text: 'héllo ✓' },
      bytes: bytes.length,
    });
  });

  it('stops reading as soon as the limit is passed', async () => {
    let pulls = 0;
    const chunk = new Uint8Array(1000).fill(0x20);
    const chunks = Array.from({ length: 1000 }, () => chunk);
    expect(
      await readJsonBody(
        streamed(chunks, () => pulls++),
        2500,
      ),
    ).toEqual({ ok: false, problem: 'too-large' });
    expect(pulls).toBeLessThan(10);
  });

  it('trusts a Content-Length over the limit without reading', async () => {
    const request = webRequestView(
      new Request('http://localhost/', {
        method: 'POST',
        body: '{}',
        headers: { 'content-length': '999999' },
      }),
    );
    expect(await readJsonBody(request, 10)).toEqual({ ok: false, problem: 'too-large' });
  });

  it('reports invalid UTF-8, invalid JSON and an empty body as parse problems', async () => {
    for (const body of [
      new Uint8Array([0x22, 0xc3, 0x28, 0x22]),
      new TextEncoder().encode('{'),
      new Uint8Array(),
    ]) {
      expect(await readJsonBody(streamed([body]), 100)).toEqual({ ok: false, problem: 'parse' });
    }
  });
});

describe('media types', () => {
  it('accepts exact types, wildcards and parameters', () => {
    expect(accepts('application/json, text/event-stream', 'text/event-stream')).toBe(true);
    expect(accepts('text/event-stream;q=0.9, application/json', 'application/json')).toBe(true);
    expect(accepts('*/*', 'application/json')).toBe(true);
    expect(accepts('text/*', 'text/event-stream')).toBe(true);
    expect(accepts('text/*', 'application/json')).toBe(false);
    expect(accepts('application/jsonx', 'application/json')).toBe(false);
    expect(accepts(null, 'application/json')).toBe(false);
  });

  it('needs both JSON and SSE for a POST, and answers a remembered header as the first time', () => {
    const both = 'application/json, text/event-stream';
    const long = `${'x-type/x;q=0.1, '.repeat(20)}application/json`;
    // Each header twice in a row (the second answer comes from the remembered one), alternating.
    for (const [header, expected] of [
      [both, true],
      [both, true],
      ['application/json', false],
      ['application/json', false],
      [both, true],
      ['*/*', true],
      ['text/event-stream', false],
      [long, false],
      [long, false],
      [`${long}, text/*`, true],
      [null, false],
    ] as const) {
      expect(acceptsJsonAndSse(header), String(header)).toBe(expected);
    }
  });

  it('recognizes application/json with parameters only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/json-patch+json')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });
});
