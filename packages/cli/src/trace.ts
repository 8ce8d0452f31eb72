/**
 * The CLI's view of its transport: `--verbose` prints every JSON-RPC message, both ways, with
 * timing; and sends still in flight can be awaited before closing, so a last
 * `notifications/cancelled` is not cut off.
 * @module
 */
import type { JsonRpcMessage, MessageSink, RequestId, SendOptions, Transport } from '@mcpkit/core';
import type { Style } from './output.js';

/** Longest printed message; huge payloads (images, blobs) are cut, with the count of what was cut. */
const MAX_LINE = 4000;

/**
 * A transport that passes every message on unchanged, optionally reporting each one, and keeps
 * track of sends still in flight.
 *
 * With `write`, each message is a line: the time since the trace started, the direction (`→` sent,
 * `←` received) and the message as compact JSON; a response also shows how long its request took.
 *
 * @example
 * ```ts
 * const transport = new WatchedTransport(inner, style, (line) => process.stderr.write(`${line}\n`));
 * await client.connect(transport);
 * ```
 */
export class WatchedTransport implements Transport {
  private readonly startedAt = performance.now();
  /** When each request was sent, by direction and id, to time its response. */
  private readonly sentAt = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /**
   * The first message the peer sent that could not be parsed (for a stdio server: a stray
   * `console.log` on stdout), quoted in the error if the command then fails.
   */
  firstParseError: Error | undefined;
  /** Waits on a login (the transport's word, `MessageSink.authorizing`) that have not ended. */
  private logins = 0;

  constructor(
    private readonly inner: Transport,
    private readonly style: Style,
    private readonly write?: (line: string) => void,
  ) {}

  /** Resolves once every send in flight has settled, or after `maxMs`. */
  async settled(maxMs: number): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), limit]);
    clearTimeout(timer);
  }

  /** True while the transport waits on a login (a person in a browser, after a 401). */
  get loggingIn(): boolean {
    return this.logins > 0;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(sink: MessageSink): void | Promise<void> {
    // Each member forwarded by name (a connection's sink is a class instance: a spread would lose
    // its prototype methods, issue 29), the size counter and the word that requests wait on a
    // login (which stops their timers) included when the sink has them.
    const size = sink.size?.bind(sink);
    const authorizing = sink.authorizing?.bind(sink);
    return this.inner.start({
      ...(size ? { size } : {}),
      ...(authorizing
        ? {
            authorizing: (ids: readonly RequestId[], waiting: boolean) => {
              this.logins += waiting ? 1 : -1;
              authorizing(ids, waiting);
            },
          }
        : {}),
      message: (value, extra) => {
        this.trace('←', value);
        sink.message(value, extra);
      },
      parseError: (error) => {
        this.firstParseError ??= error;
        if (this.write) this.line('←', this.style.red(`unparseable message: ${error.message}`));
        sink.parseError(error);
      },
      error: (error) => sink.error(error),
      closed: (error) => {
        if (this.write)
          this.line('×', this.style.dim(error ? `transport closed: ${error.message}` : 'transport closed'));
        sink.closed(error);
      },
    });
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void> {
    this.trace('→', message);
    const sent = this.inner.send(message, options);
    if (sent) {
      const tracked = sent.finally(() => this.inFlight.delete(tracked));
      tracked.catch(() => {});
      this.inFlight.add(tracked);
    }
    return sent;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private trace(direction: '→' | '←', message: unknown): void {
    if (!this.write) return;
    for (const one of Array.isArray(message) ? message : [message]) {
      this.line(direction, this.describe(direction, one));
    }
  }

  private describe(direction: '→' | '←', message: unknown): string {
    const record = (typeof message === 'object' && message !== null ? message : {}) as Record<
      string,
      unknown
    >;
    const id = record.id;
    const isRequest = typeof record.method === 'string' && id !== undefined;
    const isResponse = record.method === undefined && id !== undefined && id !== null;
    let timing = '';
    if (isRequest) this.sentAt.set(`${direction}${String(id)}`, performance.now());
    if (isResponse) {
      // A response travels the opposite way of its request.
      const key = `${direction === '→' ? '←' : '→'}${String(id)}`;
      const sent = this.sentAt.get(key);
      if (sent !== undefined) {
        this.sentAt.delete(key);
        timing = this.style.dim(` (${(performance.now() - sent).toFixed(1)} ms)`);
      }
    }
    let json = JSON.stringify(message);
    if (json.length > MAX_LINE)
      json = `${json.slice(0, MAX_LINE)}… (${json.length - MAX_LINE} more characters)`;
    return json + timing;
  }

  private line(direction: string, text: string): void {
    const elapsed = (performance.now() - this.startedAt).toFixed(1).padStart(8);
    const arrow =
      direction === '→'
        ? this.style.cyan(direction)
        : direction === '←'
          ? this.style.green(direction)
          : direction;
    this.write?.(`${this.style.dim(`[${elapsed} ms]`)} ${arrow} ${text}`);
  }
}
