/**
 * Resumable SSE streams in Redis Streams: one Redis stream per SSE stream, written by whichever
 * node produces the events and read by whichever node the client resumes on.
 *
 * Event ids are `<streamId>/<entry id>`: the stream id is unique to the session and to the node
 * copy that opened it, and Redis assigns entry ids in order, so ids never collide across nodes.
 * Every write trims the stream by length (`MAXLEN ~`) and by age (`MINID ~`), and renews the key's
 * time to live, in one pipelined round trip.
 * @module
 */
import type { EventStore, ReplaySink } from '@mcpkit/server/http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Prefix of every key. Default `mcpkit:`. */
  keyPrefix?: string;
  /** Events kept per stream, about (trimming is approximate, as Redis does it cheaply). Default 1 000. */
  maxEventsPerStream?: number;
  /** Events older than this (ms) are trimmed, and a stream not written for this long expires. Default 30 min. */
  maxAge?: number;
  /** How long (ms) one blocking read waits before checking whether the client left. Default 1 000. */
  followPoll?: number;
}

/** The entry field of an event's data; the priming position is an empty value. */
const DATA = 'd';
/** The entry field that marks the end of a stream (its request was answered). */
const END = 'e';
const REPLAY_BATCH = 256;

/**
 * An {@link EventStore} on Redis Streams, shared by every node of a cluster: a client resumes a
 * stream (`GET` + `Last-Event-ID`) on any node, and a node that did not produce the stream follows
 * it live until it ends.
 *
 * @example
 * ```ts
 * const redis = await connectRedis('redis://127.0.0.1:6379');
 * const eventStore = new RedisEventStore(redis, { maxEventsPerStream: 5_000, maxAge: 10 * 60_000 });
 * const handler = createStreamableHttpHandler(server, { eventStore, sessionStore: new RedisSessionStore(redis) });
 * ```
 */
export class RedisEventStore implements EventStore {
  private readonly prefix: string;
  private readonly maxLength: number;
  private readonly maxAge: number;
  private readonly followPoll: number;

  constructor(
    private readonly redis: Redis,
    options: RedisEventStoreOptions = {},
  ) {
    this.prefix = `${options.keyPrefix ?? 'mcpkit:'}events:`;
    this.maxLength = atLeastOne(options.maxEventsPerStream, 1_000, 'maxEventsPerStream');
    this.maxAge = atLeastOne(options.maxAge, 30 * 60_000, 'maxAge');
    this.followPoll = atLeastOne(options.followPoll, 1_000, 'followPoll');
  }

  async storeEvent(streamId: string, data: string): Promise<string> {
    return `${streamId}/${await this.append(streamId, DATA, data)}`;
  }

  async endStream(streamId: string): Promise<void> {
    await this.append(streamId, END, '1');
  }

  async streamIdOf(eventId: string): Promise<string | undefined> {
    const position = parseEventId(eventId);
    if (!position) return undefined;
    return (await this.redis.exists(this.prefix + position.streamId)) === 1 ? position.streamId : undefined;
  }

  async replayEventsAfter(lastEventId: string, send: ReplaySink): Promise<string | undefined> {
    const position = await this.known(lastEventId);
    if (!position) return undefined;
    await this.replay(position.streamId, position.entry, send);
    return position.streamId;
  }

  async followEventsAfter(
    lastEventId: string,
    send: ReplaySink,
    stopped: () => boolean,
  ): Promise<string | undefined> {
    const position = await this.known(lastEventId);
    if (!position) return undefined;
    const { streamId } = position;
    let after = await this.replay(streamId, position.entry, send);
    if (after === 'ended') return streamId;
    // Blocking reads need a connection of their own.
    const reader = this.redis.duplicate({ lazyConnect: true });
    try {
      await reader.connect();
      while (!stopped()) {
        const answer = await reader.xread('BLOCK', this.followPoll, 'STREAMS', this.prefix + streamId, after);
        if (!answer) {
          if ((await this.redis.exists(this.prefix + streamId)) === 0) break; // expired or deleted
          continue;
        }
        for (const [, entries] of answer) {
          const next = await this.deliver(streamId, entries, send);
          if (next === 'ended') return streamId;
          after = next;
        }
      }
    } finally {
      reader.disconnect();
    }
    return streamId;
  }

  async deleteStream(streamId: string): Promise<void> {
    await this.redis.del(this.prefix + streamId);
  }

  /** Appends one entry, trims by length and age and renews the expiry: one round trip. */
  private async append(streamId: string, field: string, value: string): Promise<string> {
    const key = this.prefix + streamId;
    const results = await this.redis
      .pipeline()
      .xadd(key, 'MAXLEN', '~', this.maxLength, '*', field, value)
      .xtrim(key, 'MINID', '~', Date.now() - this.maxAge)
      .pexpire(key, this.maxAge)
      .exec();
    const [error, id] = results?.[0] ?? [new Error('Redis returned no reply to XADD'), null];
    if (error) throw error;
    return id as string;
  }

  /** The position of an event id whose stream still exists. */
  private async known(eventId: string): Promise<{ streamId: string; entry: string } | undefined> {
    const position = parseEventId(eventId);
    if (!position) return undefined;
    const exists = await this.redis.exists(this.prefix + position.streamId);
    return exists === 1 ? position : undefined;
  }

  /** Sends every stored event after `entry`; the last entry id seen, or `'ended'`. */
  private async replay(streamId: string, entry: string, send: ReplaySink): Promise<string> {
    let after = entry;
    for (;;) {
      const entries = await this.redis.xrange(
        this.prefix + streamId,
        `(${after}`,
        '+',
        'COUNT',
        REPLAY_BATCH,
      );
      if (entries.length === 0) return after;
      const next = await this.deliver(streamId, entries, send);
      if (next === 'ended') return next;
      after = next;
      if (entries.length < REPLAY_BATCH) return after;
    }
  }

  private async deliver(
    streamId: string,
    entries: [id: string, fields: string[]][],
    send: ReplaySink,
  ): Promise<string> {
    let last = '';
    for (const [id, fields] of entries) {
      last = id;
      if (fields[0] === END) return 'ended';
      const data = fields[1] ?? '';
      if (data === '') continue;
      const sent = send(`${streamId}/${id}`, data);
      if (sent) await sent;
    }
    return last;
  }
}

/**
 * Splits `<streamId>/<ms>-<seq>`; `undefined` for anything else (client input: be strict, and no
 * regular expression on it).
 */
function parseEventId(eventId: string): { streamId: string; entry: string } | undefined {
  const cut = eventId.lastIndexOf('/');
  if (cut <= 0) return undefined;
  const entry = eventId.slice(cut + 1);
  const dash = entry.indexOf('-');
  if (dash <= 0 || dash === entry.length - 1 || entry.length > 41) return undefined;
  for (let i = 0; i < entry.length; i++) {
    const code = entry.charCodeAt(i);
    if (i !== dash && (code < 0x30 || code > 0x39)) return undefined;
  }
  return { streamId: eventId.slice(0, cut), entry };
}

function atLeastOne(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value >= 1) || !Number.isFinite(value)) throw new RangeError(`${name} must be at least 1`);
  return Math.floor(value);
}
