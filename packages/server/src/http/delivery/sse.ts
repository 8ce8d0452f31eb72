/**
 * Server-sent events: the framing, and one connection to one client as a `ReadableStream`.
 * @module
 */

const encoder = new TextEncoder();

/** The bytes of a message event. JSON never holds a raw line break, so one `data:` line suffices. */
export function messageEvent(data: string, id: string | undefined): string {
  return id === undefined
    ? `event: message\ndata: ${data}\n\n`
    : `event: message\nid: ${id}\ndata: ${data}\n\n`;
}

/**
 * The priming event: an id and no data. Clients record the id as their resume point and dispatch
 * nothing; `retry` tells them how long to wait before reconnecting.
 */
export function primingEvent(id: string, retry: number): string {
  return `id: ${id}\nretry: ${retry}\ndata: \n\n`;
}

/** A comment line; clients ignore it, proxies see traffic. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * How often (ms) an idle SSE connection gets {@link KEEP_ALIVE} by default: under every runtime's
 * and proxy's idle timeout, the shortest being Bun's 10 s (`Bun.serve`'s `idleTimeout`), which
 * drops a silent connection (a long tool call that sends nothing) with "fetch failed" at the client.
 */
export const DEFAULT_KEEP_ALIVE_INTERVAL = 8_000;

/** Told when a connection's client goes away (the response body was cancelled). */
export interface SseConnectionOwner {
  connectionLost(connection: SseConnection): void;
}

/** The open connections of one handler, for keep-alive pings; kept by the handler. */
export type ConnectionRegistry = Set<SseConnection>;

/**
 * One SSE response body. Events written in the same tick are sent as one chunk (a priming event,
 * a few notifications and a result usually leave together); a client that stops reading while
 * more than `maxBuffered` bytes pile up is disconnected rather than allowed to grow memory.
 */
export class SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  /** Who hears about a disconnect; changes when a resumed stream takes the connection over. */
  owner: SseConnectionOwner | undefined;
  /** When something was last written (ms since epoch), for keep-alive. */
  lastWrite = Date.now();
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private isClosed = false;
  /** Text written this tick, not yet handed to the stream. */
  private pending = '';

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly maxBuffered: number,
  ) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => this.lost(),
      },
      // Count bytes, so `desiredSize` says how much the client has left unread.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    registry.add(this);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Queues `text`. Returns false when nothing was written: the connection is closed, or the client
   * already left more than `maxBuffered` bytes unread (it is cut off then; a resumable stream can
   * be picked up again). One large message always goes through; only a backlog is refused.
   */
  write(text: string): boolean {
    if (this.isClosed) return false;
    if ((this.controller.desiredSize ?? 0) - this.pending.length < -this.maxBuffered) {
      this.abort();
      return false;
    }
    if (this.pending === '') queueMicrotask(this.flush);
    this.pending += text;
    this.lastWrite = Date.now();
    return true;
  }

  /** Ends the response normally, after what was written. */
  close(): void {
    if (this.isClosed) return;
    this.flush();
    this.isClosed = true;
    this.registry.delete(this);
    try {
      this.controller.close();
    } catch {
      // Already cancelled by the reader.
    }
  }

  private readonly flush = (): void => {
    if (this.pending === '' || this.isClosed) return;
    const text = this.pending;
    this.pending = '';
    try {
      this.controller.enqueue(encoder.encode(text));
    } catch {
      this.lost();
    }
  };

  /** Ends the response with an error, so the client sees a broken stream, and tells the owner. */
  private abort(): void {
    if (this.isClosed) return;
    this.pending = '';
    try {
      this.controller.error(new Error('The client is not reading the stream'));
    } catch {
      // Already cancelled.
    }
    this.lost();
  }

  private lost(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.pending = '';
    this.registry.delete(this);
    this.owner?.connectionLost(this);
  }
}
