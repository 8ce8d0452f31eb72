/**
 * The backend's events to the page, as one Server-Sent Events stream per open page: protocol log
 * entries, progress, questions from the server, resource updates, server states. The last events
 * are kept (a bounded ring), so a page that opens or reconnects late sees what happened before.
 * @module
 */

/** How many past events a newly opened page is sent. */
const BACKLOG = 2000;
/** Open pages at most; the oldest stream is closed to make room (evict, never lock out). */
const MAX_STREAMS = 8;
/** A comment line this often keeps proxies and the browser from timing an idle stream out. */
const KEEP_ALIVE_MS = 15_000;

const encoder = new TextEncoder();

/**
 * Fans events out to every open page.
 *
 * @example
 * ```ts
 * const hub = new EventHub();
 * hub.emit('progress', { callId: 'c1', progress: 1, total: 3 });
 * const response = hub.stream(); // text/event-stream, the backlog first
 * ```
 */
export class EventHub {
  readonly #backlog: Uint8Array[] = [];
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Sends one event to every open page and keeps it for pages opened later. */
  emit(type: string, data: unknown): void {
    const frame = encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    this.#backlog.push(frame);
    if (this.#backlog.length > BACKLOG) this.#backlog.shift();
    for (const stream of this.#streams) this.#send(stream, frame);
  }

  /** A new stream for one page: the backlog, then every event as it happens. */
  stream(): Response {
    let own: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        own = controller;
        if (this.#streams.size >= MAX_STREAMS) this.#drop(this.#streams.values().next().value!);
        this.#streams.add(controller);
        for (const frame of this.#backlog) controller.enqueue(frame);
        this.#keepAlive();
      },
      cancel: () => {
        if (own) this.#streams.delete(own);
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  }

  /** Ends every stream (the console is closing). */
  close(): void {
    for (const stream of [...this.#streams]) this.#drop(stream);
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #send(stream: ReadableStreamDefaultController<Uint8Array>, frame: Uint8Array): void {
    try {
      stream.enqueue(frame);
    } catch {
      this.#streams.delete(stream); // the page went away between two events
    }
  }

  #drop(stream: ReadableStreamDefaultController<Uint8Array>): void {
    this.#streams.delete(stream);
    try {
      stream.close();
    } catch {
      // already closed by the page
    }
  }

  #keepAlive(): void {
    if (this.#timer) return;
    const ping = encoder.encode(': keep-alive\n\n');
    this.#timer = setInterval(() => {
      for (const stream of this.#streams) this.#send(stream, ping);
    }, KEEP_ALIVE_MS);
    (this.#timer as { unref?: () => void }).unref?.();
  }
}
