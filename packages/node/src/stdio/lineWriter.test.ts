/**
 * Write batching of the stdio transports (issue 14: one write per message to a child pipe was
 * the gateway's main cost). `coalesce: 'after-first'` (the client with `coalesceWrites`, which the
 * host's stdio upstreams use) sends the first line of a tick at once and the rest of the tick in
 * one write; `coalesce: true` (the server side) sends the whole tick in one write. Checked on a real Writable that records each call it gets (one
 * entry per `_write`/`_writev`, which is what becomes one system call on a pipe), and end to end
 * over real pipes to child processes: order, close flush, large payloads, backpressure, a failed
 * write.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { JsonRpcMessage } from '@mcpkit/core';
import { StdioClientTransport, StdioServerTransport } from '@mcpkit/node/stdio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingSink } from '../../../../tests/support/recordingSink.js';
import { LineWriter, type LineWriterOptions } from './lineWriter.js';

const ECHO = fileURLToPath(new URL('./fixtures/echo.mjs', import.meta.url));

function note(n: number, text = ''): JsonRpcMessage {
  return { jsonrpc: '2.0', method: 'note', params: { n, text } };
}

/** A Writable that accepts at once, as a pipe with room does, and records every call it gets. */
class RecordingStream extends Writable {
  readonly calls: string[][] = [];
  failWith: Error | undefined;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.calls.push([chunk.toString('utf8')]);
    done(this.failWith);
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.calls.push(chunks.map(({ chunk }) => chunk.toString('utf8')));
    done(this.failWith);
  }

  /** Every line received, in order. */
  lines(): unknown[] {
    return this.calls
      .flat()
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  }
}

function writerOn(options: LineWriterOptions) {
  const stream = new RecordingStream();
  return { stream, writer: new LineWriter(stream, options) };
}

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));
const later = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("LineWriter, coalesce: 'after-first'", () => {
  it('sends the first line of a tick at once and the rest of the tick in one write, in order', async () => {
    const { stream, writer } = writerOn({ coalesce: 'after-first' });
    for (let n = 0; n < 5; n++) writer.write(note(n));
    expect(stream.calls).toHaveLength(1);
    await nextTick();
    expect(stream.calls.map((call) => call.length)).toEqual([1, 4]);
    for (let n = 5; n < 8; n++) writer.write(note(n));
    await later();
    expect(stream.calls.map((call) => call.length)).toEqual([1, 4, 1, 2]);
    expect(stream.lines()).toEqual(Array.from({ length: 8 }, (_, n) => note(n)));
  });

  it('a single line per tick leaves at once, one write each', async () => {
    const { stream, writer } = writerOn({ coalesce: 'after-first' });
    writer.write(note(1));
    await later();
    writer.write(note(2));
    await later();
    expect(stream.calls).toEqual([[`${JSON.stringify(note(1))}\n`], [`${JSON.stringify(note(2))}\n`]]);
  });

  it('end() in the same tick flushes the held lines before the stream finishes', async () => {
    const { stream, writer } = writerOn({ coalesce: 'after-first' });
    const finished = new Promise<void>((resolve) => stream.on('finish', resolve));
    for (let n = 0; n < 4; n++) writer.write(note(n));
    writer.end();
    await finished;
    expect(stream.lines()).toEqual(Array.from({ length: 4 }, (_, n) => note(n)));
  });

  it('a failed write fails the writer: later writes throw the stream error', async () => {
    const { stream, writer } = writerOn({ coalesce: 'after-first' });
    const failure = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    stream.on('error', (error) => writer.fail(error));
    writer.write(note(0));
    stream.failWith = failure;
    writer.write(note(1));
    writer.write(note(2));
    await later();
    expect(() => writer.write(note(3))).toThrow(failure);
  });
});

describe('LineWriter, coalesce: true and false', () => {
  it('true: the whole tick in one write', async () => {
    const { stream, writer } = writerOn({ coalesce: true });
    for (let n = 0; n < 5; n++) writer.write(note(n));
    expect(stream.calls).toHaveLength(0);
    await nextTick();
    expect(stream.calls.map((call) => call.length)).toEqual([5]);
    expect(stream.lines()).toEqual(Array.from({ length: 5 }, (_, n) => note(n)));
  });

  it('false: one write per line', () => {
    const { stream, writer } = writerOn({ coalesce: false });
    for (let n = 0; n < 3; n++) writer.write(note(n));
    expect(stream.calls.map((call) => call.length)).toEqual([1, 1, 1]);
  });
});

describe('stdio transports with batched writes (client coalesceWrites), over real pipes', () => {
  const transports: StdioClientTransport[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((transport) => transport.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function client(args: string[]) {
    const transport = new StdioClientTransport({ command: process.execPath, args, coalesceWrites: true });
    transports.push(transport);
    const sink = recordingSink();
    await transport.start(sink);
    return { transport, sink };
  }

  it('a burst sent in one tick arrives complete and in order, a 4 MB message among small ones, under backpressure', async () => {
    // The echo leaves its stdin unread for 200 ms: the pipe fills and our writes queue.
    const { transport, sink } = await client([ECHO, '--pause-ms', '200']);
    const big = 'x'.repeat(4 * 1024 * 1024);
    const sent = [note(0), note(1, big), ...Array.from({ length: 50 }, (_, n) => note(n + 2))];
    const results = sent.map((message) => transport.send(message));
    expect(results.some((result) => result instanceof Promise)).toBe(true);
    await Promise.all(results);
    await vi.waitFor(() => expect(sink.messages).toHaveLength(sent.length), { timeout: 10_000 });
    expect(sink.messages).toEqual(sent);
  });

  it('close() right after a burst delivers every held line before the server sees end of input', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-batch-'));
    const file = path.join(dir, 'received.txt');
    // Collects its stdin and writes it to a file once stdin ends.
    const collector = `const chunks = []; process.stdin.on('data', (c) => chunks.push(c));
      process.stdin.on('end', () => { require('node:fs').writeFileSync(${JSON.stringify(file)}, Buffer.concat(chunks)); });`;
    const { transport } = await client(['-e', collector]);
    const sent = Array.from({ length: 100 }, (_, n) => note(n, 'y'.repeat(n * 100)));
    for (const message of sent) void transport.send(message);
    await transport.close();
    expect(transport.exitStatus?.code).toBe(0);
    const received = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    expect(received).toEqual(sent);
  });

  it('the server side answers a burst in one write, which a failing stdout turns into a closed transport', async () => {
    const stdin = new PassThrough();
    const stdout = new RecordingStream();
    const transport = new StdioServerTransport({ stdin, stdout });
    const sink = recordingSink();
    transport.start(sink);
    for (let n = 0; n < 3; n++) transport.send(note(n));
    await nextTick();
    expect(stdout.calls.map((call) => call.length)).toEqual([3]);
    stdout.failWith = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    for (let n = 3; n < 6; n++) transport.send(note(n));
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1));
    expect(sink.closes[0]?.message).toContain('EPIPE');
    expect(() => transport.send(note(6))).toThrow();
    stdin.destroy();
  });
});
