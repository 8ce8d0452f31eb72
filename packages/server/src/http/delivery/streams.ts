/**
 * The SSE streams of one session (or one stateless request). Every stream is a *logical* stream
 * with an id. Its events pass through one ordered queue per stream, are recorded in the event
 * store when there is one, and are written to whichever connection currently carries the stream:
 * the POST response, or a GET that resumed it with `Last-Event-ID`. A stream outlives its
 * connections, so a call whose connection dropped (or was closed on purpose for SSE polling) keeps
 * running and its remaining messages reach the client when it resumes, exactly once.
 * @module
 */
import type { JsonRpcRequest } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import { sseReply } from '../responses.js';
import type { ClusterSupport } from './clusterSeam.js';
import type { EventStore } from './eventStore.js';
import { END, type Exchange, LogicalStream, type StreamListener, type StreamOp } from './exchange.js';
import { type ConnectionRegistry, messageEvent, primingEvent, SseConnection } from './sse.js';

/** Handler-wide settings and services that delivery uses. */
export interface DeliveryRuntime {
  readonly eventStore: EventStore | undefined;
  /** The `retry:` value (ms) sent with priming events. */
  readonly retryInterval: number;
  /** Bytes a client may leave unread on one SSE connection before it is cut off. */
  readonly maxBufferedBytes: number;
  readonly connections: ConnectionRegistry;
  /** Makes sure the handler's single housekeeping timer runs. */
  wake(): void;
  report(error: Error): void;
}

/** What a session's streams read of the session they belong to (its transport). */
export interface StreamHost {
  /** The revision negotiated on the session, once `initialize` was answered. */
  readonly protocolVersion: string | undefined;
  /** The session ended: its streams are gone. */
  readonly closed: boolean;
  /** One request, no session: its streams are not kept for resumption. */
  readonly stateless: boolean;
  /** Several nodes serve the session (see `HttpSessionTransport.clustered`). */
  readonly clustered: boolean;
  readonly cluster: ClusterSupport | undefined;
  /** A stream lost its connection (the client went away): the host decides what happens to its call. */
  streamDisconnected(stream: LogicalStream): void;
}

/** The first revision with priming events and SSE polling (SEP-1699). */
const POLLING_REVISION = '2025-11-25';
/** Notifications kept for a session with no open GET stream (oldest dropped first). */
const MAX_BACKLOG = 64;
/** Ended streams a session keeps resumable (and remembers, to delete their events when it ends). */
const MAX_ENDED_STREAMS = 64;

/**
 * A session's streams and their ordered queues. Created by its transport; not meant to be used by
 * applications.
 *
 * @example
 * ```ts
 * declare const streams: SessionStreams;
 * declare const exchange: Exchange;
 * const stream = streams.open(exchange, undefined); // settles the exchange with an SSE reply
 * streams.enqueue(stream, '{"jsonrpc":"2.0","method":"notifications/progress"}');
 * ```
 */
export class SessionStreams implements StreamListener {
  /** Streams still open (their exchange unanswered, or the standalone stream), by stream id. */
  readonly live = new Map<string, LogicalStream>();
  standaloneStream: LogicalStream | undefined;
  private nextStream = 1;
  /** Prefix of every stream id of this session: ownership of a `Last-Event-ID` is a prefix test. */
  prefix: string | undefined;
  /** Makes this copy's stream ids unique when other nodes serve the same session (restored copies). */
  private streamTag = '';
  /** Streams that ended but whose events the store still holds, deleted with the session. */
  private endedStreams: string[] | undefined;

  constructor(
    readonly runtime: DeliveryRuntime,
    readonly host: StreamHost,
  ) {}

  /** Stream ids only leave the process as event ids, which need a store: a counter suffices without. */
  private streamId(sequence: number): string {
    return this.store ? `${this.streamPrefix}${this.streamTag}${sequence}` : String(sequence);
  }

  /** Made on first use: a stateless request without an event store never needs one. */
  get streamPrefix(): string {
    if (this.prefix === undefined) this.prefix = `${randomHex(8)}-`;
    return this.prefix;
  }

  /** A copy restored from the session's record: same prefix, its own stream numbers. */
  restore(prefix: string | undefined): void {
    if (prefix !== undefined) this.prefix = prefix;
    // The node that began the session numbers its streams 0, 1, 2…; another copy must not reuse them.
    this.streamTag = `${randomHex(4)}.`;
  }

  /** Opens the SSE stream that answers `exchange`, settling it with the SSE reply. */
  open(exchange: Exchange, sessionHeader: string | undefined): LogicalStream {
    const stream = new LogicalStream(this, this.streamId(this.nextStream++), exchange);
    this.live.set(stream.id, stream);
    exchange.stream = stream;
    if (exchange.request !== undefined) this.claim(stream, exchange.request);
    const connection = this.attachNewConnection(stream);
    exchange.settle(sseReply(connection.body, sessionHeader));
    if (this.primes()) this.enqueue(stream, '');
    return stream;
  }

  /** Records the request with its stream, so another node can run it again (cluster fail-over). */
  claim(stream: LogicalStream, request: JsonRpcRequest): void {
    try {
      this.settle(this.store!.claimStream!(stream.id, JSON.stringify(request)));
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  attachNewConnection(stream: LogicalStream): SseConnection {
    const connection = new SseConnection(this.runtime.connections, this.runtime.maxBufferedBytes);
    connection.owner = stream;
    stream.connection = connection;
    this.runtime.wake();
    return connection;
  }

  disconnected(stream: LogicalStream): void {
    this.releaseShared(stream);
    this.host.streamDisconnected(stream);
  }

  /** The standalone stream is shared between the nodes serving this session (see `clustered`). */
  sharesStandalone(): boolean {
    return this.host.clustered && this.store?.followEventsAfter !== undefined;
  }

  /** Lets go of the shared standalone stream this node held in the store. */
  releaseShared(stream: LogicalStream): void {
    if (!stream.held) return;
    stream.held = false;
    try {
      this.settle(this.store!.releaseStream?.(stream.id));
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  /** The stream of messages that belong to no request, made on first use. */
  standalone(): LogicalStream {
    if (!this.standaloneStream) {
      // Shared: one id for every node's copy (the restored copies' tag left out).
      const id = this.sharesStandalone() ? `${this.streamPrefix}0` : this.streamId(0);
      this.standaloneStream = new LogicalStream(this, id, undefined);
      this.live.set(this.standaloneStream.id, this.standaloneStream);
    }
    return this.standaloneStream;
  }

  /**
   * The event store, or none for a throwaway session (stateless mode, every 2026-07-28 request):
   * with no session id to resume with, its streams cannot be resumed, so storing their events would
   * only cost, and a clustered store would treat them as streams to hand over to another node.
   */
  get store(): EventStore | undefined {
    return this.host.stateless ? undefined : this.runtime.eventStore;
  }

  /** Priming events (and so SSE polling) need an event store and a 2025-11-25+ client. */
  primes(): boolean {
    const version = this.host.protocolVersion;
    return this.store !== undefined && version !== undefined && version >= POLLING_REVISION;
  }

  enqueue(stream: LogicalStream, op: StreamOp): void {
    // Nothing more is said on an ended stream, but a resume queued behind its end still replays.
    if (!stream.live && (typeof op === 'string' || op === END)) return;
    stream.ops.push(op);
    if (!stream.busy) this.pump(stream);
  }

  /** Runs a stream's queued work in order; an asynchronous step resumes the pump when it settles. */
  private pump(stream: LogicalStream): void {
    stream.busy = true;
    while (stream.ops.length > 0) {
      const pending = this.runSafely(stream, stream.ops.shift()!);
      if (pending) {
        pending.then(
          () => this.pump(stream),
          (error: unknown) => {
            this.runtime.report(toError(error));
            this.pump(stream);
          },
        );
        return;
      }
    }
    stream.busy = false;
  }

  private runSafely(stream: LogicalStream, op: StreamOp): Promise<void> | undefined {
    try {
      return this.run(stream, op) ?? undefined;
    } catch (error) {
      // One failed step (a throwing store) must not stall the stream.
      this.runtime.report(toError(error));
      return undefined;
    }
  }

  private run(stream: LogicalStream, op: StreamOp): Promise<void> | void {
    if (typeof op === 'string') return this.emit(stream, op);
    switch (op.kind) {
      case 'end':
        this.end(stream);
        return;
      case 'detach':
        this.detach(stream, op.retry);
        return;
      case 'resume':
        return this.replayInto(stream, op.connection, op.lastEventId);
    }
  }

  private emit(stream: LogicalStream, data: string): Promise<void> | void {
    if (stream.rerun?.repeats(data)) return;
    const store = this.store;
    if (!store) {
      this.write(stream, undefined, data);
      return;
    }
    const id = store.storeEvent(stream.id, data);
    if (typeof id === 'string') {
      this.write(stream, id, data);
      return;
    }
    return id.then(
      (stored) => this.write(stream, stored, data),
      (error: unknown) => {
        // The store is down: the client still gets the message, without a position to resume at.
        this.runtime.report(toError(error));
        this.write(stream, undefined, data);
      },
    );
  }

  private write(stream: LogicalStream, id: string | undefined, data: string): void {
    if (id !== undefined) stream.hasIds = true;
    if (data === '') {
      if (id !== undefined) stream.connection?.write(primingEvent(id, this.runtime.retryInterval));
      return;
    }
    // The shared standalone stream reaches the client through the node that follows it.
    if (stream === this.standaloneStream && this.sharesStandalone()) return;
    const text = messageEvent(data, id);
    if (stream.connection?.write(text)) return;
    if (stream === this.standaloneStream) {
      if (!stream.backlog) stream.backlog = [];
      if (stream.backlog.push(text) > MAX_BACKLOG) stream.backlog.shift();
    }
  }

  /** Ends `stream`: no more events; it stays resumable while the session lives. */
  end(stream: LogicalStream): void {
    stream.live = false;
    this.live.delete(stream.id);
    stream.connection?.close();
    stream.connection = undefined;
    const store = this.store;
    if (stream.hasIds && store?.endStream) this.settle(store.endStream(stream.id));
    if (stream.hasIds && store?.deleteStream && !this.host.stateless) this.rememberEnded(stream.id);
  }

  /**
   * An ended stream stays resumable until the session ends, then its events go. A long session
   * remembers its newest streams only: past that, the oldest is deleted at once.
   */
  private rememberEnded(streamId: string): void {
    this.endedStreams ??= [];
    if (this.endedStreams.push(streamId) > MAX_ENDED_STREAMS)
      this.forget(this.store!, this.endedStreams.shift()!);
  }

  private detach(stream: LogicalStream, retry: number | undefined): void {
    const connection = stream.connection;
    if (!connection) return;
    if (retry !== undefined) connection.write(`retry: ${Math.max(0, Math.floor(retry))}\n\n`);
    stream.connection = undefined;
    connection.close();
  }

  private replayInto(
    stream: LogicalStream,
    connection: SseConnection,
    lastEventId: string,
  ): Promise<void> | void {
    const attach = (): void => {
      stream.resuming = false;
      if (connection.closed) return; // the client left during the replay
      if (!stream.live) {
        connection.close();
        return;
      }
      // The newest connection wins; an older one still open would only see duplicates.
      const previous = stream.connection;
      if (previous && previous !== connection) previous.close();
      connection.owner = stream;
      stream.connection = connection;
    };
    const replayed = this.store!.replayEventsAfter(lastEventId, (id, data) => {
      connection.write(messageEvent(data, id));
    });
    if (isPromise(replayed))
      return replayed.then(attach, (error: unknown) => {
        attach();
        throw error;
      });
    attach();
  }

  /**
   * Ends every stream with the session. `keepEvents`: this copy closes alone (the session lives
   * on in a shared store), so the shared events stay for the node that serves it next.
   */
  closeAll(keepEvents: boolean): void {
    if (this.standaloneStream) this.releaseShared(this.standaloneStream);
    const store = keepEvents ? undefined : this.store;
    for (const stream of this.live.values()) {
      stream.live = false;
      // Queued resumes would otherwise leave their GETs hanging.
      for (const op of stream.ops.splice(0))
        if (typeof op === 'object' && op.kind === 'resume') op.connection.close();
      stream.connection?.close();
      stream.connection = undefined;
      if (store?.deleteStream) this.forget(store, stream.id);
      // A copy closing alone leaves the stream to the others, but gives up its claim on it.
      else if (keepEvents && stream.exchange?.request) this.settle(this.store?.endStream?.(stream.id));
    }
    this.live.clear();
    if (store?.deleteStream && this.endedStreams) for (const id of this.endedStreams) this.forget(store, id);
    this.endedStreams = undefined;
  }

  private forget(store: EventStore, streamId: string): void {
    try {
      this.settle(store.deleteStream!(streamId));
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  /** Reports the failure of a store call nobody waits for. */
  settle(pending: void | Promise<void>): void {
    if (pending) pending.catch((error: unknown) => this.runtime.report(toError(error)));
  }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
