import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { JsonRpcMessage } from '@mcpkit/core';
import { StdioServerTransport } from '@mcpkit/node/stdio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingSink } from '../../../../tests/support/recordingSink.js';

const ECHO = fileURLToPath(new URL('./fixtures/echo.mjs', import.meta.url));

function note(n: number, text = ''): JsonRpcMessage {
  return { jsonrpc: '2.0', method: 'note', params: { n, text } };
}

/** A transport reading from a PassThrough we feed, writing into a buffer we inspect. */
function inProcess(options: { maxMessageBytes?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => written.push(chunk));
  const transport = new StdioServerTransport({ stdin, stdout, ...options });
  const sink = recordingSink();
  transport.start(sink);
  return { stdin, stdout, transport, sink, output: () => Buffer.concat(written).toString('utf8') };
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function spawnEcho(pauseMs = 0): ChildProcess {
  const child = spawn(process.execPath, [ECHO, '--pause-ms', String(pauseMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

function collectWarnings(): { warnings: Error[]; stop: () => void } {
  const warnings: Error[] = [];
  const listener = (warning: Error) => warnings.push(warning);
  process.on('warning', listener);
  return { warnings, stop: () => process.removeListener('warning', listener) };
}

describe('StdioServerTransport framing (incoming)', () => {
  it('delivers many messages that arrive in one chunk, in order', () => {
    const { stdin, sink } = inProcess();
    const lines = Array.from({ length: 500 }, (_, n) => JSON.stringify(note(n)));
    stdin.write(lines.join('\n') + '\n');
    expect(sink.messages).toEqual(lines.map((line) => JSON.parse(line)));
    expect(sink.parseErrors).toEqual([]);
  });

  it('reassembles a message split byte by byte, including multibyte UTF-8 characters', () => {
    const { stdin, sink } = inProcess();
    const message = note(1, 'héllo wörld ✓ 日本語 🎉 \u2028 end');
    const bytes = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
    for (let index = 0; index < bytes.length; index++) {
      stdin.write(bytes.subarray(index, index + 1));
      if (index < bytes.length - 1) expect(sink.messages).toEqual([]);
    }
    expect(sink.messages).toEqual([message]);
  });

  it('accepts \\r\\n line endings, even when \\r and \\n arrive in different chunks', () => {
    const { stdin, sink } = inProcess();
    stdin.write(JSON.stringify(note(1)) + '\r\n' + JSON.stringify(note(2)) + '\r');
    stdin.write('\n');
    expect(sink.messages).toEqual([note(1), note(2)]);
    expect(sink.parseErrors).toEqual([]);
  });

  it('ignores empty and whitespace-only lines', () => {
    const { stdin, sink } = inProcess();
    stdin.write('\n\r\n   \n' + JSON.stringify(note(1)) + '\n\n\t\n');
    expect(sink.messages).toEqual([note(1)]);
    expect(sink.parseErrors).toEqual([]);
  });

  it('reports a non-JSON line as a parse error and keeps delivering the next lines', () => {
    const { stdin, sink } = inProcess();
    stdin.write('Server starting on port 3000...\n{"truncated":\n' + JSON.stringify(note(7)) + '\n');
    expect(sink.parseErrors).toHaveLength(2);
    expect(sink.parseErrors[0]!.message).toContain('Server starting on port 3000');
    expect(sink.messages).toEqual([note(7)]);
    expect(sink.closes).toEqual([]);
  });

  it('discards a line over maxMessageBytes up to its newline, then keeps serving', () => {
    const { stdin, sink } = inProcess({ maxMessageBytes: 100 });
    const big = JSON.stringify(note(1, 'x'.repeat(300)));
    // Oversized within one chunk.
    stdin.write(big + '\n' + JSON.stringify(note(2)) + '\n');
    // Oversized across many chunks: the reader must not buffer it.
    for (let start = 0; start < big.length; start += 40) stdin.write(big.slice(start, start + 40));
    stdin.write('\n' + JSON.stringify(note(3)) + '\n');
    expect(sink.messages).toEqual([note(2), note(3)]);
    expect(sink.parseErrors).toHaveLength(2);
    expect(sink.parseErrors[0]!.message).toContain('100-byte limit');
    expect(sink.closes).toEqual([]);
  });

  it('accepts a message exactly at maxMessageBytes', () => {
    const line = JSON.stringify(note(1, 'y'.repeat(50)));
    const { stdin, sink } = inProcess({ maxMessageBytes: Buffer.byteLength(line) });
    stdin.write(line.slice(0, 10));
    stdin.write(line.slice(10) + '\n');
    expect(sink.messages).toEqual([JSON.parse(line)]);
  });

  it('decodes string chunks from a stream with an encoding set', () => {
    const { stdin, sink } = inProcess();
    stdin.setEncoding('utf8');
    stdin.write(Buffer.from(JSON.stringify(note(1, 'ünï')) + '\n'));
    expect(sink.messages).toEqual([note(1, 'ünï')]);
  });

  it('delivers a final line without newline, then reports closed once when stdin ends', async () => {
    const { stdin, sink } = inProcess();
    stdin.write(JSON.stringify(note(1)) + '\n' + JSON.stringify(note(2)));
    stdin.end();
    await vi.waitFor(() => expect(sink.closes).toEqual([null]));
    expect(sink.messages).toEqual([note(1), note(2)]);
  });
});

describe('StdioServerTransport framing (outgoing)', () => {
  it('writes one compact line per message, never a raw line break inside', async () => {
    const { transport, output } = inProcess();
    const tricky = [
      note(1, 'line1\nline2\r\nline3'),
      note(2, 'separators \u2028 and \u2029 inside'),
      note(3, '{\n  "pretty": true\n}'),
    ];
    for (const message of tricky) transport.send(message);
    transport.send([note(4), note(5)]);
    await new Promise((resolve) => setImmediate(resolve));
    const text = output();
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).not.toMatch(/[\r\u2028\u2029]/);
    // Compact: byte for byte what JSON.stringify gives, with U+2028/U+2029 escaped.
    expect(lines[0]).toBe(JSON.stringify(tricky[0]));
    expect(lines[1]).toContain('separators \\u2028 and \\u2029 inside');
    expect(lines[2]).toBe(JSON.stringify(tricky[2]));
    expect(lines.map((line) => JSON.parse(line))).toEqual([...tricky, [note(4), note(5)]]);
  });
});

describe('StdioServerTransport lifecycle', () => {
  it('close() stops reading, reports closed once, leaves stdout open, and refuses further sends', async () => {
    const { stdin, stdout, transport, sink } = inProcess();
    stdin.write(JSON.stringify(note(1)) + '\n');
    await transport.close();
    stdin.write(JSON.stringify(note(2)) + '\n');
    expect(sink.messages).toEqual([note(1)]);
    expect(sink.closes).toEqual([null]);
    expect(stdout.writableEnded).toBe(false);
    expect(stdin.listenerCount('data')).toBe(0);
    expect(stdout.listenerCount('drain')).toBe(0);
    expect(() => transport.send(note(3))).toThrow(/closed/);
    await transport.close();
    expect(sink.closes).toHaveLength(1);
  });

  it('close() hands every queued message to stdout before resolving', async () => {
    const lines: string[] = [];
    const stdout = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        setImmediate(callback);
      },
    });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    transport.start(recordingSink());
    let blocked = 0;
    for (let n = 0; n < 2000; n++) if (transport.send(note(n))) blocked++;
    expect(blocked).toBeGreaterThan(0);
    await transport.close();
    await new Promise<void>((resolve) => stdout.end(resolve));
    expect(lines.map((line) => JSON.parse(line).params.n)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
  });

  it('closes with an error when stdout fails (the client went away)', async () => {
    const { stdout, transport, sink } = inProcess();
    stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await vi.waitFor(() => expect(sink.closes).toHaveLength(1));
    expect(sink.closes[0]?.message).toMatch(/stdout.*EPIPE/);
    expect(() => transport.send(note(1))).toThrow();
  });
});

describe('StdioServerTransport backpressure', () => {
  it('shares one promise among blocked senders and keeps a single drain listener (slow in-process reader)', async () => {
    const seen: number[] = [];
    let partial = '';
    const stdout = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        const text = partial + chunk.toString('utf8');
        const parts = text.split('\n');
        partial = parts.pop()!;
        for (const part of parts) seen.push(JSON.parse(part).params.n);
        setImmediate(callback);
      },
    });
    // Any second drain listener would now print MaxListenersExceededWarning.
    stdout.setMaxListeners(1);
    const { warnings, stop } = collectWarnings();
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    transport.start(recordingSink());
    const baseline = stdout.listenerCount('drain');
    const total = 50_000;
    const promises = new Set<Promise<void>>();
    let blockedSends = 0;
    for (let n = 0; n < total; n++) {
      const pending = transport.send(note(n));
      if (pending) {
        blockedSends++;
        promises.add(pending);
      }
      expect(stdout.listenerCount('drain')).toBe(baseline);
    }
    expect(baseline).toBeLessThanOrEqual(1);
    expect(blockedSends).toBeGreaterThan(total / 2);
    expect(promises.size).toBeLessThan(blockedSends / 100);
    await Promise.all(promises);
    await vi.waitFor(() => expect(seen).toHaveLength(total), { timeout: 15_000 });
    expect(seen.every((n, index) => n === index)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    await transport.close();
  });

  it('handles 50k awaited sends into a child process that does not read at first', async () => {
    const child = spawnEcho(300);
    const stdout = child.stdin!;
    const { warnings, stop } = collectWarnings();
    const transport = new StdioServerTransport({ stdin: child.stdout!, stdout });
    const sink = recordingSink();
    transport.start(sink);
    const baseline = stdout.listenerCount('drain');
    const total = 50_000;
    const sends: Promise<void>[] = [];
    let blockedSends = 0;
    for (let n = 0; n < total; n++) {
      const pending = transport.send(note(n));
      // Each blocked sender awaits, the pattern that made the official SDK add a listener per message.
      if (pending) {
        blockedSends++;
        sends.push(pending.then(() => undefined));
      }
      if (n % 1000 === 0) expect(stdout.listenerCount('drain')).toBe(baseline);
    }
    expect(baseline).toBeLessThanOrEqual(1);
    expect(blockedSends).toBeGreaterThan(total / 2);
    await Promise.all(sends);
    expect(stdout.listenerCount('drain')).toBe(baseline);
    await vi.waitFor(() => expect(sink.messages).toHaveLength(total), { timeout: 15_000 });
    expect(
      sink.messages.every((message, index) => (message as { params: { n: number } }).params.n === index),
    ).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    await transport.close();
  });
});

describe('StdioServerTransport large messages', () => {
  it('round-trips a 10 MB message through real pipes in both directions', async () => {
    const child = spawnEcho();
    const transport = new StdioServerTransport({ stdin: child.stdout!, stdout: child.stdin! });
    const sink = recordingSink();
    transport.start(sink);
    const text = 'ab✓'.repeat(3_500_000);
    const message = note(1, text);
    await transport.send(message);
    await vi.waitFor(() => expect(sink.messages).toHaveLength(1), { timeout: 15_000 });
    expect((sink.messages[0] as { params: { text: string } }).params.text === text).toBe(true);
    expect(sink.parseErrors).toEqual([]);
    await transport.close();
  });
});
