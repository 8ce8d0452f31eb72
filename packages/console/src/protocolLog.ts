/**
 * The protocol log: a transport that passes every JSON-RPC message on unchanged and reports each
 * one, both ways, with its time, size and (for a response) how long its request took.
 * @module
 */
import type { JsonRpcMessage, MessageSink, SendOptions, Transport } from '@mcpkit/core';

/** Messages larger than this are logged as a cut preview (the message itself passes unchanged). */
const MAX_LOGGED_BYTES = 256 * 1024;
/** Requests still waiting for their response, per direction; past it the oldest are forgotten. */
const MAX_PENDING = 1024;

/**
 * One logged message.
 *
 * @example
 * ```ts
 * const entry: LogEntry = { seq: 1, at: Date.now(), dir: 'out', size: 52, method: 'tools/list', id: 1, message: {} };
 * ```
 */
export interface LogEntry {
  readonly seq: number;
  /** When it passed, in ms since the epoch. */
  readonly at: number;
  /** `out`: the console sent it; `in`: the server did. */
  readonly dir: 'out' | 'in';
  /** The host's server it went to or came from (only against a host). */
  readonly server?: string;
  /** Its size as UTF-8 JSON, in bytes. */
  readonly size: number;
  readonly method?: string;
  readonly id?: string | number;
  /** For a response: ms since its request passed the other way. */
  readonly durationMs?: number;
  /** The message, or a cut preview of one larger than 256 KiB. */
  readonly message: unknown;
}

let sequence = 0;
const encoder = new TextEncoder();

/**
 * Wraps a transport so that `report` gets every message it carries.
 *
 * @example
 * ```ts
 * const logged = new LoggedTransport(inner, (entry) => hub.emit('log', entry));
 * await client.connect(logged);
 * ```
 */
export class LoggedTransport implements Transport {
  /** When each request was sent, by direction and id, to time its response. */
  readonly #sentAt = new Map<string, number>();

  constructor(
    private readonly inner: Transport,
    private readonly report: (entry: LogEntry) => void,
    private readonly server?: string,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get onSessionRecovered(): Transport['onSessionRecovered'] {
    return this.inner.onSessionRecovered;
  }

  set onSessionRecovered(value: Transport['onSessionRecovered']) {
    this.inner.onSessionRecovered = value;
  }

  start(sink: MessageSink): void | Promise<void> {
    // A login after a 401 stops the request timers only if the transport's word reaches the connection.
    const authorizing = sink.authorizing?.bind(sink);
    return this.inner.start({
      ...(authorizing ? { authorizing } : {}),
      message: (value, extra) => {
        this.#log('in', value);
        sink.message(value, extra);
      },
      parseError: (error) => sink.parseError(error),
      error: (error) => sink.error(error),
      closed: (error) => sink.closed(error),
    });
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void> {
    this.#log('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  closeRequestStream(requestId: string | number, retryInterval?: number): boolean {
    return this.inner.closeRequestStream?.(requestId, retryInterval) ?? false;
  }

  #log(dir: 'out' | 'in', value: unknown): void {
    for (const message of Array.isArray(value) ? value : [value]) this.#logOne(dir, message);
  }

  #logOne(dir: 'out' | 'in', message: unknown): void {
    const at = Date.now();
    const json = JSON.stringify(message);
    const size = encoder.encode(json).length;
    const fields = (typeof message === 'object' && message !== null ? message : {}) as {
      method?: unknown;
      id?: unknown;
    };
    const method = typeof fields.method === 'string' ? fields.method : undefined;
    const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? fields.id : undefined;
    let durationMs: number | undefined;
    if (id !== undefined && method !== undefined) {
      if (this.#sentAt.size >= MAX_PENDING) this.#sentAt.delete(this.#sentAt.keys().next().value!);
      this.#sentAt.set(`${dir}:${id}`, at);
    } else if (id !== undefined) {
      const key = `${dir === 'in' ? 'out' : 'in'}:${id}`;
      const started = this.#sentAt.get(key);
      if (started !== undefined) {
        durationMs = at - started;
        this.#sentAt.delete(key);
      }
    }
    this.report({
      seq: ++sequence,
      at,
      dir,
      ...(this.server === undefined ? {} : { server: this.server }),
      size,
      ...(method === undefined ? {} : { method }),
      ...(id === undefined ? {} : { id }),
      ...(durationMs === undefined ? {} : { durationMs }),
      message: size > MAX_LOGGED_BYTES ? `${json.slice(0, 4096)}… (${size} bytes, cut)` : message,
    });
  }
}
