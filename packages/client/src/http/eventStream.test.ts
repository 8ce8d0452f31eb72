import type { EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { readEventStream } from './eventStream.js';

function body(...chunks: string[]): ReadableStream<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('readEventStream', () => {
  it('reports events split across chunks, the retry field, and drops a final unterminated event', async () => {
    const events: EventSourceMessage[] = [];
    const retries: number[] = [];
    await readEventStream(
      body('id: 1\nretry: 250\nda', 'ta: \n\nevent: message\nid: 2\ndata: {"a":1}\n\n', 'data: cut'),
      {
        onEvent: (event) => {
          events.push(event);
          return undefined;
        },
        onRetry: (ms) => retries.push(ms),
      },
    );
    expect(events).toEqual([
      { id: '1', event: undefined, data: '' },
      { id: '2', event: 'message', data: '{"a":1}' },
    ]);
    expect(retries).toEqual([250]);
  });

  it('stops when a handler says so and releases the body', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\ndata: two\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: string[] = [];
    await readEventStream(stream, {
      onEvent: (event) => {
        seen.push(event.data);
        return true;
      },
    });
    expect(seen).toEqual(['one']);
    await Promise.resolve();
    expect(cancelled).toBe(true);
  });

  it('stops on abort even when the body ignores the signal', async () => {
    const controller = new AbortController();
    const never = new ReadableStream<Uint8Array<ArrayBuffer>>({ start: () => {} });
    const read = readEventStream(never, { onEvent: () => undefined }, { signal: controller.signal });
    controller.abort();
    await expect(read).rejects.toThrow(/aborted/);
  });

  it('fails on an event larger than the limit, buffered across chunks or whole in one', async () => {
    const seen: string[] = [];
    const onEvent = (event: EventSourceMessage) => void seen.push(event.data);
    const buffered = readEventStream(body(`data: ${'x'.repeat(100)}`), { onEvent }, { maxEventSize: 50 });
    await expect(buffered).rejects.toThrow(/exceeded the limit of 50 characters/);
    const whole = readEventStream(
      body(`data: ${'x'.repeat(100)}\n\ndata: after\n\n`),
      { onEvent },
      { maxEventSize: 50 },
    );
    await expect(whole).rejects.toThrow(/exceeded the limit of 50 characters/);
    expect(seen).toEqual([]);
  });
});
