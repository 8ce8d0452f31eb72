import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ExtraAwareHandler, type FetchHandler, toNodeListener } from './adapter.js';
import { type ServedHandler, type ServeOptions, serve } from './serve.js';

const running: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

async function start(
  handler: FetchHandler | ExtraAwareHandler<unknown>,
  options: ServeOptions<unknown> = {},
): Promise<ServedHandler> {
  const served = await serve(handler as ExtraAwareHandler<unknown>, options);
  running.push(served);
  return served;
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('toNodeListener', () => {
  it('streams the request body to the handler as it arrives', async () => {
    const firstChunk = deferred<string>();
    const served = await start(async (request) => {
      const reader = request.body!.getReader();
      const decoder = new TextDecoder();
      const first = await reader.read();
      firstChunk.resolve(decoder.decode(first.value));
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += decoder.decode(value);
      }
      return new Response(`got ${rest}`);
    });
    const reply = new Promise<string>((resolve, reject) => {
      const req = httpRequest(served.url, { method: 'POST' }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.write('first');
      // The handler sees the first chunk while the client still holds the rest back.
      void firstChunk.promise.then(() => req.end('second'));
    });
    expect(await firstChunk.promise).toBe('first');
    expect(await reply).toBe('got second');
  });

  it('aborts the request signal when the client disconnects, and not after a normal response', async () => {
    const aborted = deferred<boolean>();
    const signals: AbortSignal[] = [];
    const served = await start(async (request) => {
      signals.push(request.signal);
      if (new URL(request.url).pathname === '/quick') return new Response('ok');
      await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
      aborted.resolve(true);
      return new Response('too late');
    });
    expect(await (await fetch(`${served.url}/quick`)).text()).toBe('ok');
    const controller = new AbortController();
    const pending = fetch(`${served.url}/slow`, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(await aborted.promise).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signals[0]!.aborted).toBe(false);
  });

  it('flushes SSE headers at once, delivers each event as written, and cancels the body when the client leaves', async () => {
    const cancelled = deferred<unknown>();
    let push!: (text: string) => void;
    const served = await start(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(new TextEncoder().encode(text));
        },
        cancel(reason) {
          cancelled.resolve(reason);
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    // No event has been written yet, and the headers are already here.
    const response = await fetch(served.url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    push('data: one\n\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
    push('data: two\n\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: two\n\n');
    await reader.cancel();
    await cancelled.promise;
  });

  it('writes status, headers (several cookies too) and a sized body', async () => {
    const served = await start(async () => {
      const headers = new Headers({ 'content-type': 'application/json', 'x-one': '1' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('{"ok":true}', { status: 201, headers });
    });
    const reply = await new Promise<IncomingMessage & { body: string }>((resolve) => {
      httpRequest(served.url, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve(Object.assign(res, { body })));
      }).end();
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.headers['content-length']).toBe('11');
    expect(reply.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(reply.headers['x-one']).toBe('1');
    expect(reply.body).toBe('{"ok":true}');
  });

  it('uses a body a framework already parsed', async () => {
    const listener = toNodeListener(async (request) => new Response(`handler saw ${await request.text()}`));
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        (req as IncomingMessage & { body?: unknown }).body = JSON.parse(raw); // like express.json()
        listener(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const reply = await fetch(url, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await reply.text()).toBe('handler saw {"a":1}');
    server.close();
  });

  it('answers 500 without details when the handler throws, and reports the error', async () => {
    const errors: Error[] = [];
    const served = await start(
      async () => {
        throw new Error('secret database password');
      },
      { onError: (error) => errors.push(error) },
    );
    const reply = await fetch(served.url);
    expect(reply.status).toBe(500);
    expect(await reply.text()).not.toContain('secret');
    expect(errors.map((e) => e.message)).toEqual(['secret database password']);
  });

  it('calls a plain handler with the request only, and refuses extra without a handle method', async () => {
    const counts: number[] = [];
    const served = await start((...args: unknown[]) => {
      counts.push(args.length);
      return new Response(null, { status: 204 });
    });
    expect((await fetch(served.url)).status).toBe(204);
    expect(counts).toEqual([1]);
    const plain: FetchHandler = () => new Response(null);
    expect(() => toNodeListener(plain as ExtraAwareHandler<unknown>, { extra: () => ({}) })).toThrow(
      TypeError,
    );
  });

  it('passes the extra through handle() and keeps a Host the URL parser rejects for the handler to judge', async () => {
    const seen: Array<{ host: string | null; url: string; extra: unknown }> = [];
    const handler = Object.assign(() => new Response(null, { status: 500 }), {
      handle: (request: Request, extra: unknown) => {
        seen.push({ host: request.headers.get('host'), url: request.url, extra });
        return new Response(null, { status: 204 });
      },
    });
    const served = await start(handler, { extra: (req) => ({ user: req.headers['x-user'] }) });
    await new Promise<void>((resolve) => {
      httpRequest(served.url, { headers: { host: 'localhost:notaport', 'x-user': 'ada' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).end();
    });
    expect(seen).toEqual([{ host: 'localhost:notaport', url: 'http://localhost/', extra: { user: 'ada' } }]);
  });
});

describe('serve', () => {
  it('binds 127.0.0.1 by default, serves only its path, and close() ends open streams', async () => {
    let closed = false;
    const handler = Object.assign(
      async () =>
        new Response(new ReadableStream({ start() {} }), {
          headers: { 'content-type': 'text/event-stream' },
        }),
      {
        close: async () => {
          closed = true;
        },
      },
    );
    const served = await serve(handler, { path: '/mcp' });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(served.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect((await fetch(served.url.replace('/mcp', '/other'))).status).toBe(404);
    const stream = await fetch(`${served.url}?x=1`);
    expect(stream.status).toBe(200);
    const reading = stream.text().catch(() => 'ended');
    await served.close();
    await reading;
    expect(closed).toBe(true);
  });
});
