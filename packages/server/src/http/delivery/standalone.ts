/**
 * What a GET asks of a session's streams: the standalone stream (messages that belong to no
 * request), and resuming any stream of the session after a `Last-Event-ID`, live or ended. In a
 * cluster the standalone stream is one stream in the shared event store that every node writes and
 * the node holding the session's one GET follows.
 * @module
 */
import { toError } from '@mcpkit/core/internal';
import { Refuse, type Reply, sseReply } from '../responses.js';
import type { EventStore, OrphanedStream } from './eventStore.js';
import type { LogicalStream } from './exchange.js';
import { messageEvent, primingEvent, SseConnection } from './sse.js';
import type { SessionStreams } from './streams.js';

const ONE_GET = 'the session already has an open GET stream';

/** Runs again, here, the call of a stream whose node died (see `HttpSessionTransport`). */
export type TakeOver = (orphan: OrphanedStream) => boolean;

/**
 * Opens the standalone GET stream. `undefined` when one is already open (the caller answers 409).
 *
 * @example
 * ```ts
 * declare const streams: SessionStreams;
 * const reply = (await openStandalone(streams)) ?? Refuse.conflict('one GET at a time');
 * ```
 */
export function openStandalone(streams: SessionStreams): Reply | undefined | Promise<Reply | undefined> {
  const stream = streams.standalone();
  if (stream.connection || stream.resuming) return undefined;
  if (streams.sharesStandalone()) return openShared(streams, stream, undefined);
  const connection = streams.attachNewConnection(stream);
  const backlog = stream.backlog;
  stream.backlog = undefined;
  if (backlog) for (const text of backlog) connection.write(text);
  if (streams.primes()) streams.enqueue(stream, '');
  return sseReply(connection.body);
}

/**
 * Resumes the stream that `lastEventId` belongs to: replays what followed it, then carries the
 * stream's live events if it is still open. Unknown ids, and ids of other sessions, get 400.
 * `takeOver` runs a call here whose node died (cluster fail-over), when the store can lease it.
 *
 * @example
 * ```ts
 * declare const streams: SessionStreams;
 * const reply = await resumeStream(streams, 'a1b2c3d4-1_7', undefined);
 * ```
 */
export async function resumeStream(
  streams: SessionStreams,
  lastEventId: string,
  takeOver: TakeOver | undefined,
): Promise<Reply> {
  const store = streams.store;
  if (!store) return Refuse.unknownEventId();
  const streamId = await store.streamIdOf(lastEventId);
  if (streamId === undefined || !streamId.startsWith(streams.streamPrefix) || streams.host.closed) {
    return Refuse.unknownEventId();
  }
  const stream = streams.live.get(streamId);
  if (stream === streams.standaloneStream && stream && (stream.connection || stream.resuming)) {
    return Refuse.conflict(ONE_GET);
  }
  // The shared standalone stream is read from the store, whichever node wrote it.
  if (streams.sharesStandalone() && streamId === streams.standalone().id) {
    return (await openShared(streams, streams.standalone(), lastEventId)) ?? Refuse.conflict(ONE_GET);
  }
  const connection = new SseConnection(streams.runtime.connections, streams.runtime.maxBufferedBytes);
  streams.runtime.wake();
  if (stream) {
    stream.resuming = true;
    stream.backlog = undefined; // the store replays those events
    streams.enqueue(stream, { kind: 'resume', connection, lastEventId });
  } else {
    void replayEnded(streams, store, connection, lastEventId, takeOver);
  }
  return sseReply(connection.body);
}

/**
 * Shared standalone stream: holds it in the store first, so a session has one GET stream across
 * all nodes (`undefined` when another node holds it: 409), then follows it.
 */
async function openShared(
  streams: SessionStreams,
  stream: LogicalStream,
  lastEventId: string | undefined,
): Promise<Reply | undefined> {
  const store = streams.store!;
  if (store.holdStream) {
    stream.resuming = true; // this node's own second GET waits for the answer, and is refused
    try {
      if (!(await streams.host.cluster!.guarded(() => store.holdStream!(stream.id)))) return undefined;
    } finally {
      stream.resuming = false;
    }
    stream.held = true;
  }
  const connection = streams.attachNewConnection(stream);
  void followStandalone(streams, stream, connection, lastEventId);
  return sseReply(connection.body);
}

/** Marks the position a new GET starts at (or resumes after `lastEventId`), then follows the store. */
async function followStandalone(
  streams: SessionStreams,
  stream: LogicalStream,
  connection: SseConnection,
  lastEventId: string | undefined,
): Promise<void> {
  const store = streams.store!;
  try {
    let start = lastEventId;
    if (start === undefined) {
      start = await store.storeEvent(stream.id, '');
      if (streams.primes()) connection.write(primingEvent(start, streams.runtime.retryInterval));
    }
    stream.hasIds = true;
    await store.followEventsAfter!(
      start,
      (id, data) => {
        connection.write(messageEvent(data, id));
      },
      () => connection.closed || !stream.live,
    );
  } catch (error) {
    streams.runtime.report(toError(error));
  } finally {
    connection.close();
    // Ended here (not by the client leaving, which released it already): let the stream go.
    if (stream.connection === connection) {
      stream.connection = undefined;
      streams.releaseShared(stream);
    }
  }
}

/** Replays a stream that has already ended, then ends the GET. */
async function replayEnded(
  streams: SessionStreams,
  store: EventStore,
  connection: SseConnection,
  lastEventId: string,
  takeOver: TakeOver | undefined,
): Promise<void> {
  const send = (id: string, data: string): void => {
    connection.write(messageEvent(data, id));
  };
  try {
    // A shared store may hold a stream another node is still writing: follow it to its end,
    // running its call here if that node died (fail-over).
    if (store.followEventsAfter)
      await store.followEventsAfter(lastEventId, send, () => connection.closed, takeOver);
    else await store.replayEventsAfter(lastEventId, send);
  } catch (error) {
    streams.runtime.report(toError(error));
  } finally {
    connection.close();
  }
}
