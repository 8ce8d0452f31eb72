/**
 * The SSE streams of the Streamable HTTP client transport: the answer stream of each POST (across
 * its resumptions) and the standalone GET stream. A dropped stream resumes by GET with
 * `Last-Event-ID` after the server's `retry:` delay, with backoff for failed attempts; one that
 * cannot go on fails the requests it still owed an answer to.
 * @module
 */
import { ErrorCode, type RequestId } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import type { EventSourceMessage } from 'eventsource-parser';
import { HttpTransportError } from './errors.js';
import { readEventStream } from './eventStream.js';
import type { HttpLink } from './link.js';
import { forEachResponse } from './messages.js';
import { type ResolvedReconnectionOptions, reconnectionDelay } from './reconnect.js';
import { bodyOf, discardBody, mediaType, type ResponseBody, readFailure } from './responseBody.js';

/** One logical SSE stream: a POST's answer stream (across its resumptions) or the GET stream. */
interface SseStream {
  readonly kind: 'post' | 'get';
  /** What opened the stream, for error texts. */
  readonly label: string;
  /** False for 2026-07-28 answer streams: the revision has no `Last-Event-ID` resumption. */
  readonly resumable: boolean;
  /** Requests whose responses are still due on this stream (POST streams only). */
  readonly awaiting: Set<RequestId>;
  /** The one request a POST stream answers: a server request sent on it is about that one. */
  readonly about: RequestId | undefined;
  /** The last event id seen; it survives resumptions until a newer id arrives (sdk#2499). */
  lastEventId: string | undefined;
  /** The server's `retry:` value, in ms. */
  retry: number | undefined;
  /** Reconnection attempts in a row that did not open a stream. */
  failures: number;
  /** Connections in a row that opened but ended without a single event. */
  idle: number;
  controller: AbortController | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  stopped: boolean;
}

/** Statuses worth another reconnection attempt; any other failure is final. */
const TRANSIENT_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
/**
 * Answers to the standalone GET that mean "no stream here": 405 per the spec, 404 from servers
 * that only route POST (or whose session just expired; the next POST re-initializes), 400 from
 * servers that reject GET outright (reported once, since it breaks the spec).
 */
const NO_STANDALONE_STREAM = new Set([400, 404, 405]);

/**
 * The streams of one transport.
 *
 * @example
 * ```ts
 * const streams = new SseStreams(link, resolveReconnection(), true, (value) => sink.message(value));
 * streams.openStandalone();
 * ```
 */
export class SseStreams {
  private standalone: SseStream | undefined;
  /** Settles once the standalone stream's GET is answered (open, refused or failed). */
  private standaloneAnswered: Promise<void> | undefined;
  private readonly streams = new Set<SseStream>();

  constructor(
    private readonly link: HttpLink,
    private readonly reconnection: ResolvedReconnectionOptions,
    private readonly openGetStream: boolean,
    /**
     * Hands a message the server sent on a stream to the transport, with the request whose
     * POST stream carried it, when that stream answers exactly one.
     */
    private readonly deliver: (value: unknown, about?: RequestId) => void,
  ) {}

  /** Reads the SSE answer of a POST carrying `requestIds`; the stream owns `controller` from now on. */
  readAnswers(
    label: string,
    requestIds: RequestId[],
    resumable: boolean,
    controller: AbortController,
    body: ResponseBody | null,
  ): void {
    const stream = this.createStream('post', label, requestIds, resumable);
    stream.controller = controller;
    void this.consume(stream, body);
  }

  /** Stops the standalone GET stream, if open (the session ends or is replaced). */
  stopStandalone(): void {
    if (this.standalone) this.stop(this.standalone);
  }

  /** Stops every stream (the transport closes). */
  stopAll(): void {
    for (const stream of [...this.streams]) this.stop(stream);
  }

  /** The client cancelled request `id`: stop waiting for (and resuming) its answer stream. */
  forget(id: RequestId): void {
    for (const stream of this.streams) {
      if (stream.awaiting.delete(id) && stream.awaiting.size === 0) this.stop(stream);
    }
  }

  private createStream(
    kind: SseStream['kind'],
    label: string,
    awaiting: RequestId[] = [],
    resumable = true,
  ): SseStream {
    const stream: SseStream = {
      kind,
      label,
      resumable,
      awaiting: new Set(awaiting),
      about: kind === 'post' && awaiting.length === 1 ? awaiting[0] : undefined,
      lastEventId: undefined,
      retry: undefined,
      failures: 0,
      idle: 0,
      controller: undefined,
      timer: undefined,
      stopped: false,
    };
    this.streams.add(stream);
    return stream;
  }

  /** Opens the standalone GET stream (once initialized), unless it is open or turned off. */
  openStandalone(): void {
    if (!this.openGetStream || this.standalone || this.link.state !== 'open') return;
    this.standalone = this.createStream('get', 'standalone GET stream');
    this.standaloneAnswered = this.connect(this.standalone).catch(() => undefined);
  }

  /**
   * Resolves once the standalone stream's GET has been answered (the server holds the stream, or
   * has none), or after `maxMs`: what the server sends outside any request from then on arrives.
   */
  async standaloneOpen(maxMs: number): Promise<void> {
    const answered = this.standaloneAnswered;
    if (!answered) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    await Promise.race([answered, limit]);
    clearTimeout(timer);
  }

  /** Reads one connection of `stream`; when it ends early, schedules the next. */
  private async consume(stream: SseStream, body: ResponseBody | null): Promise<void> {
    let sawEvent = false;
    let dropped: unknown;
    try {
      if (body) {
        await readEventStream(
          body,
          {
            onEvent: (event) => {
              sawEvent = true;
              return this.receiveEvent(stream, event);
            },
            onRetry: (milliseconds) => {
              stream.retry = milliseconds;
            },
          },
          {
            maxEventSize: this.link.maxMessageSize,
            signal: stream.controller?.signal,
            pace: this.link.pacer?.pace,
          },
        );
      }
    } catch (error) {
      dropped = error;
    } finally {
      this.link.untrack(stream.controller);
      stream.controller = undefined;
    }
    if (stream.stopped || this.link.state !== 'open') return;
    if (stream.kind === 'post' && stream.awaiting.size === 0) {
      this.finish(stream);
      return;
    }
    stream.idle = sawEvent ? 0 : stream.idle + 1;
    this.scheduleReconnect(stream, dropped);
  }

  /** Handles one SSE event. True when the stream has delivered everything it owes. */
  private receiveEvent(stream: SseStream, event: EventSourceMessage): boolean {
    // A 2026-07-28 server may still number its events; they are not resume points (GET is 405).
    if (event.id && stream.resumable) stream.lastEventId = event.id;
    if (event.event !== undefined && event.event !== 'message') return false;
    // An event without data is a priming event or a keep-alive: only its id matters.
    if (event.data === '') return false;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.link.sink?.parseError(
        new Error(`The server sent an SSE event on the ${stream.label} whose data is not JSON`),
      );
      return false;
    }
    forEachResponse(value, (response) => stream.awaiting.delete(response.id));
    this.deliver(value, stream.about);
    this.link.pacer?.admit(value);
    return stream.kind === 'post' && stream.awaiting.size === 0;
  }

  /** Schedules the next connection of `stream`, or gives it up. `cause`: why the last one ended or failed. */
  private scheduleReconnect(stream: SseStream, cause: unknown): void {
    const reason = cause === undefined ? undefined : toError(cause).message;
    if (stream.kind === 'post' && stream.lastEventId === undefined) {
      const drop = reason === undefined ? 'it ended' : `it broke off (${reason})`;
      const why = stream.resumable
        ? ', with no event id to resume from'
        : ' (revision 2026-07-28 answer streams cannot be resumed)';
      this.giveUp(stream, new HttpTransportError(`${drop} before the answer${why}`));
      return;
    }
    const retries = this.reconnection.maxRetries;
    if (stream.failures >= retries) {
      const why =
        retries === 0
          ? `${reason === undefined ? 'it ended' : `it broke off (${reason})`} and reconnection is disabled`
          : `${retries} reconnection attempt(s) failed, the last with: ${reason}`;
      this.giveUp(stream, new HttpTransportError(why));
      return;
    }
    const delay = reconnectionDelay(this.reconnection, stream.failures + stream.idle, stream.retry);
    stream.timer = setTimeout(() => {
      stream.timer = undefined;
      void this.connect(stream);
    }, delay);
  }

  /** Opens (or reopens, with `Last-Event-ID`) a stream by GET. */
  private async connect(stream: SseStream): Promise<void> {
    if (stream.stopped || this.link.state !== 'open') return;
    const controller = this.link.track();
    stream.controller = controller;
    const what = `GET ${this.link.url.href} (${stream.kind === 'get' ? stream.label : `resume the answer to ${stream.label}`})`;
    let response: Response;
    try {
      const headers: Record<string, string> = {
        accept: 'text/event-stream',
        ...this.link.sessionHeaders(this.link.session),
      };
      if (stream.lastEventId !== undefined) headers['last-event-id'] = stream.lastEventId;
      response = await this.link.requester.send({
        method: 'GET',
        url: this.link.url,
        headers,
        controller,
      });
    } catch (error) {
      this.link.untrack(controller);
      stream.controller = undefined;
      if (stream.stopped || this.link.state !== 'open') return;
      if (error instanceof HttpTransportError && error.status !== undefined) this.giveUp(stream, error);
      else this.retryAfterFailure(stream, error);
      return;
    }
    if (response.ok && mediaType(response) === 'text/event-stream' && !stream.stopped) {
      stream.failures = 0;
      void this.consume(stream, bodyOf(response));
      return;
    }
    this.link.untrack(controller);
    stream.controller = undefined;
    if (stream.stopped || this.link.state !== 'open') {
      discardBody(response);
      return;
    }
    await this.refused(stream, response, what);
  }

  private async refused(stream: SseStream, response: Response, what: string): Promise<void> {
    if (stream.kind === 'get' && NO_STANDALONE_STREAM.has(response.status)) {
      // The server offers no standalone stream: nothing to retry, and (but for a 400, which
      // breaks the spec) nothing to report.
      discardBody(response);
      if (response.status === 400) {
        this.link.sink?.error(
          new HttpTransportError(
            `${what} was refused with HTTP 400 (the spec says 405); going on without a standalone stream`,
            400,
          ),
        );
      }
      this.finish(stream);
      return;
    }
    const { error } = response.ok
      ? {
          error: new HttpTransportError(
            `${what} was answered with content type "${mediaType(response)}" instead of an SSE stream`,
            response.status,
          ),
        }
      : await readFailure(response, what);
    discardBody(response);
    if (TRANSIENT_STATUSES.has(response.status)) this.retryAfterFailure(stream, error);
    else this.giveUp(stream, error);
  }

  private retryAfterFailure(stream: SseStream, error: unknown): void {
    stream.failures++;
    this.scheduleReconnect(stream, error);
  }

  /** Ends a stream that cannot go on: its pending requests fail, or the client hears of it. */
  private giveUp(stream: SseStream, error: HttpTransportError): void {
    this.finish(stream);
    if (stream.kind === 'get') {
      this.link.sink?.error(
        new HttpTransportError(`The ${stream.label} stopped: ${error.message}`, error.status, {
          cause: error,
        }),
      );
      return;
    }
    const message = `The answer stream of "${stream.label}" was lost: ${error.message}`;
    for (const id of stream.awaiting) {
      this.deliver({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message } });
    }
    stream.awaiting.clear();
  }

  /** Stops `stream` for good: no more reading, no more resumption. */
  private stop(stream: SseStream): void {
    stream.stopped = true;
    if (stream.timer !== undefined) clearTimeout(stream.timer);
    stream.timer = undefined;
    stream.controller?.abort();
    this.finish(stream);
  }

  private finish(stream: SseStream): void {
    this.streams.delete(stream);
    if (this.standalone === stream) this.standalone = undefined;
  }
}
