/**
 * Where SSE events are kept so a client that lost its connection can resume a stream.
 *
 * The Streamable HTTP handler records every event it sends on an SSE stream (and the priming
 * position it hands out first). A client that reconnects with `GET` + `Last-Event-ID` gets the
 * events of *that stream only* that followed the id, then live delivery if the stream is still
 * open. The interface is small and async-capable so a shared store (Redis streams, a database)
 * can back several server instances; the in-memory default answers synchronously.
 * @module
 */

/** Receives one replayed event. May return a promise to pace the replay. */
export type ReplaySink = (eventId: string, data: string) => void | Promise<void>;

/**
 * Storage for resumable SSE streams.
 *
 * Contract:
 * - `storeEvent` returns an id that is unique across **all** streams the store holds (not only the
 *   stream's own), contains only visible ASCII without spaces, and from which `streamIdOf` can
 *   recover the stream. Ids of one stream must be handed out in order.
 * - `data` is the serialized JSON-RPC message, or the empty string for a position with no
 *   message (the priming event the server sends first). Replays skip empty positions.
 * - `replayEventsAfter` sends, in order, every non-empty event of the id's stream stored after
 *   it, then resolves with the stream id. It resolves `undefined` when the id is unknown (never
 *   issued, malformed, or its stream evicted) and sends nothing then.
 * - Every method may answer synchronously or with a promise.
 *
 * @example
 * ```ts
 * // A Redis-backed store, sketched: one Redis stream per SSE stream, ids "<stream>/<entry id>".
 * declare const redis: {
 *   xadd(key: string, id: string, field: string, value: string): Promise<string>;
 *   xrange(key: string, start: string, end: string): Promise<Array<[string, string[]]>>;
 *   del(key: string): Promise<number>;
 * };
 * const store: EventStore = {
 *   async storeEvent(streamId, data) {
 *     return `${streamId}/${await redis.xadd(`sse:${streamId}`, '*', 'd', data)}`;
 *   },
 *   streamIdOf: (eventId) => eventId.slice(0, eventId.lastIndexOf('/')) || undefined,
 *   async replayEventsAfter(lastEventId, send) {
 *     const cut = lastEventId.lastIndexOf('/');
 *     const streamId = lastEventId.slice(0, cut);
 *     const entries = await redis.xrange(`sse:${streamId}`, `(${lastEventId.slice(cut + 1)}`, '+');
 *     for (const [id, [, data]] of entries) if (data) await send(`${streamId}/${id}`, data);
 *     return streamId;
 *   },
 *   async deleteStream(streamId) {
 *     await redis.del(`sse:${streamId}`);
 *   },
 * };
 * ```
 */
export interface EventStore {
  /** Records one event (or, with `data === ''`, a priming position) and returns its id. */
  storeEvent(streamId: string, data: string): string | Promise<string>;
  /** The stream an event id belongs to, or `undefined` when the id is unknown. */
  streamIdOf(eventId: string): string | undefined | Promise<string | undefined>;
  /** Sends every event after `lastEventId` on its stream; resolves the stream id (see contract). */
  replayEventsAfter(lastEventId: string, send: ReplaySink): string | undefined | Promise<string | undefined>;
  /** Forgets a stream that can no longer be resumed (its session ended). Optional. */
  deleteStream?(streamId: string): void | Promise<void>;
  /**
   * The stream got its last event (its request was answered). Optional; a store shared by several
   * nodes records it so that {@link followEventsAfter} knows when to stop.
   */
  endStream?(streamId: string): void | Promise<void>;
  /**
   * Like {@link replayEventsAfter}, then keeps sending the stream's new events (written by another
   * node) until the stream ends or `stopped()` turns true. Optional: a shared store implements it
   * so a client can resume, on any node, a stream whose request still runs elsewhere.
   */
  followEventsAfter?(
    lastEventId: string,
    send: ReplaySink,
    stopped: () => boolean,
    takeOver?: (orphan: OrphanedStream) => boolean,
  ): Promise<string | undefined>;
  /**
   * Fail-over of a call whose node died. Optional, with the `takeOver` argument of
   * {@link followEventsAfter}: records `request` (the serialized JSON-RPC request the stream
   * answers) and leases the stream to this node while it runs it; {@link endStream} releases it.
   * A follower that finds the stream unended and its lease expired claims it and hands it to
   * `takeOver`, whose node runs the request again on the same stream (`false`: it could not, and
   * the store releases the claim). The store must apply the claim before any later write of the
   * stream (the handler does not wait for it).
   */
  claimStream?(streamId: string, request: string): void | Promise<void>;
  /**
   * Reserves a stream for one reader across nodes: the one GET stream a session may hold. True
   * when this node now holds it, false when another node does. Optional, with
   * {@link releaseStream}; a node that dies loses its hold within the store's lease.
   */
  holdStream?(streamId: string): boolean | Promise<boolean>;
  /** Gives up what {@link holdStream} reserved (the GET ended). */
  releaseStream?(streamId: string): void | Promise<void>;
  /** Events held, when the store can tell at no cost (read by metrics). Optional. */
  readonly size?: number;
}

/**
 * A stream whose node died before answering it, handed to the node that runs it again.
 *
 * @example
 * ```ts
 * declare const shared: EventStore & Required<Pick<EventStore, 'followEventsAfter'>>;
 * await shared.followEventsAfter('s1/1-0', (id, data) => console.log(id, data), () => false, (orphan: OrphanedStream) => {
 *   console.log(`running ${orphan.request} again on ${orphan.streamId}`);
 *   return true;
 * });
 * ```
 */
export interface OrphanedStream {
  readonly streamId: string;
  /** The serialized request the stream answers. */
  readonly request: string;
  /** The data of every message the stream already holds, in order (what the client may have seen). */
  readonly earlier: readonly string[];
}

/** Limits of {@link InMemoryEventStore}. When one is exceeded, the oldest events go first. */
export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones of that stream are dropped. Default 1 000. */
  maxEventsPerStream?: number;
  /** Events kept in total. Default 10 000. */
  maxEvents?: number;
  /** Characters of event data kept in total (UTF-16 code units, about bytes for JSON). Default 32 Mi. */
  maxChars?: number;
}

interface StreamLog {
  /** The sequence number of `data[0]`. */
  first: number;
  /** Event data by sequence, oldest first; `''` marks a priming position. */
  readonly data: string[];
}

/** Separates the stream id from the sequence number in an event id. */
const SEPARATOR = '/';

/**
 * The default event store: bounded memory in this process.
 *
 * Memory is capped three ways (events per stream, events in total, characters in total). When a
 * cap is hit, the oldest events of the least recently written stream are dropped, and a stream
 * whose events are all gone is forgotten. A client resuming from a dropped position therefore gets
 * what remains of its stream (a gap), and a client resuming a forgotten stream gets `400`. Size the
 * caps for how long clients may stay away; use a shared store for several server instances.
 *
 * Event ids are `<streamId>/<sequence>`: they encode their stream, as the spec asks.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler(server, {
 *   eventStore: new InMemoryEventStore({ maxEvents: 50_000 }),
 * });
 * ```
 */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StreamLog>();
  private readonly maxPerStream: number;
  private readonly maxEvents: number;
  private readonly maxChars: number;
  private events = 0;
  private chars = 0;
  /** The stream written last; writes to it do not need to refresh its recency. */
  private newest: string | undefined;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxPerStream = positive(options.maxEventsPerStream, 1_000);
    this.maxEvents = positive(options.maxEvents, 10_000);
    this.maxChars = positive(options.maxChars, 32 * 1024 * 1024);
  }

  /** Events currently held, over all streams. */
  get size(): number {
    return this.events;
  }

  /** Streams currently held. */
  get streamCount(): number {
    return this.streams.size;
  }

  storeEvent(streamId: string, data: string): string {
    let log = this.streams.get(streamId);
    if (!log) {
      log = { first: 0, data: [] };
      this.streams.set(streamId, log);
    } else if (this.newest !== streamId) {
      // Map order is the eviction order: move the stream to the recent end.
      this.streams.delete(streamId);
      this.streams.set(streamId, log);
    }
    this.newest = streamId;
    const sequence = log.first + log.data.length;
    log.data.push(data);
    this.events++;
    this.chars += data.length;
    if (log.data.length > this.maxPerStream) this.dropHead(streamId, log);
    this.enforceTotals(streamId);
    return `${streamId}${SEPARATOR}${sequence}`;
  }

  streamIdOf(eventId: string): string | undefined {
    const position = parseEventId(eventId);
    if (!position) return undefined;
    const log = this.streams.get(position.streamId);
    if (!log || position.sequence >= log.first + log.data.length) return undefined;
    return position.streamId;
  }

  async replayEventsAfter(lastEventId: string, send: ReplaySink): Promise<string | undefined> {
    const position = parseEventId(lastEventId);
    if (!position) return undefined;
    const { streamId } = position;
    let log = this.streams.get(streamId);
    if (!log || position.sequence >= log.first + log.data.length) return undefined;
    // Walk by sequence number, re-reading the log each step: other streams may evict this one's
    // head while a send is awaited.
    for (let sequence = position.sequence + 1; ; sequence++) {
      log = this.streams.get(streamId);
      if (!log || sequence >= log.first + log.data.length) break;
      const index = sequence - log.first;
      if (index < 0) {
        sequence = log.first - 1;
        continue;
      }
      const data = log.data[index]!;
      if (data === '') continue;
      const sent = send(`${streamId}${SEPARATOR}${sequence}`, data);
      if (sent) await sent;
    }
    return streamId;
  }

  deleteStream(streamId: string): void {
    const log = this.streams.get(streamId);
    if (!log) return;
    this.streams.delete(streamId);
    if (this.newest === streamId) this.newest = undefined;
    this.events -= log.data.length;
    for (const data of log.data) this.chars -= data.length;
  }

  private dropHead(streamId: string, log: StreamLog): void {
    const dropped = log.data.shift()!;
    log.first++;
    this.events--;
    this.chars -= dropped.length;
    if (log.data.length === 0) {
      this.streams.delete(streamId);
      if (this.newest === streamId) this.newest = undefined;
    }
  }

  /** Drops the oldest events of the least recently written streams until the totals fit. */
  private enforceTotals(current: string): void {
    while (this.events > this.maxEvents || this.chars > this.maxChars) {
      const oldest = this.streams.keys().next();
      if (oldest.done) return;
      const streamId = oldest.value;
      const log = this.streams.get(streamId)!;
      // Never drop the event just written: a single oversized event stays until the next write.
      if (streamId === current && log.data.length === 1) return;
      this.dropHead(streamId, log);
    }
  }
}

function positive(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value >= 1)) throw new RangeError('InMemoryEventStore limits must be at least 1');
  return Math.floor(value);
}

/** Splits `<streamId>/<sequence>`; `undefined` for anything else (client input: be strict). */
function parseEventId(eventId: string): { streamId: string; sequence: number } | undefined {
  const cut = eventId.lastIndexOf(SEPARATOR);
  if (cut <= 0 || cut === eventId.length - 1 || eventId.length - cut > 17) return undefined;
  const digits = eventId.slice(cut + 1);
  const sequence = Number(digits);
  if (!Number.isSafeInteger(sequence) || sequence < 0 || String(sequence) !== digits) return undefined;
  return { streamId: eventId.slice(0, cut), sequence };
}
