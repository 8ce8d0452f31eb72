/**
 * Resumable SSE streams in Redis Streams: one Redis stream per SSE stream, written by whichever
 * node produces the events and read by whichever node the client resumes on.
 *
 * Event ids are `<streamId>/<entry id>`: the stream id is unique to the session and to the node
 * copy that opened it, and Redis assigns entry ids in order, so ids never collide across nodes.
 * Every write trims the stream by length (`MAXLEN ~`) and by age (`MINID ~`), and renews the key's
 * time to live, in one pipelined round trip.
 *
 * Fail-over: the request a call stream answers is kept beside it (`call:<stream>`) with a short
 * lease (`lease:<stream>`) that the node running it renews; a node following the stream for a
 * resumed client that finds the lease expired (its node died) claims it and runs the call again.
 * The same lease, without a request, reserves a session's shared GET stream for one node.
 * @module
 */
import type { EventStore, OrphanedStream, ReplaySink } from '@mcpkit/server/http';
import type { ChainableCommander, Redis } from 'ioredis';

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
  /**
   * How long (ms) a call survives its node's silence before another node runs it again. The
   * running node renews it three times per period. Default 3 000.
   */
  leaseMs?: number;
}

/**
 * Renews a lease this node holds, or takes it back if it expired and nobody else took it:
 * 1 while the lease is ours, 0 when another node has it.
 */
const RENEW = `local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if owner then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Deletes a lease only if this node holds it (it may have expired and gone to another). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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
  private readonly leaseMs: number;
  /** This store's name in the leases it holds. */
  private readonly owner = randomName();
  /** Streams whose call this node runs: their leases are renewed by one timer. */
  private readonly held = new Set<string>();
  /** The held streams that are calls this node runs (the others are GET streams). */
  private readonly calls = new Set<string>();
  /**
   * Calls whose lease another node took while this one was too slow to renew it (a long pause,
   * not a death): their writes are refused, so the client does not get both runs' messages.
   */
  private readonly lost = new Set<string>();
  private renewer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly redis: Redis,
    options: RedisEventStoreOptions = {},
  ) {
    this.prefix = `${options.keyPrefix ?? 'mcpkit:'}events:`;
    this.maxLength = atLeastOne(options.maxEventsPerStream, 1_000, 'maxEventsPerStream');
    this.maxAge = atLeastOne(options.maxAge, 30 * 60_000, 'maxAge');
    this.followPoll = atLeastOne(options.followPoll, 1_000, 'followPoll');
    this.leaseMs = atLeastOne(options.leaseMs, 3_000, 'leaseMs');
  }

  async claimStream(streamId: string, request: string): Promise<void> {
    this.hold(streamId);
    this.calls.add(streamId);
    const results = await this.redis
      .pipeline()
      .set(this.callKey(streamId), request, 'PX', this.maxAge)
      .set(this.leaseKey(streamId), this.owner, 'PX', this.leaseMs)
      .exec();
    for (const [error] of results ?? []) if (error) throw error;
  }

  async storeEvent(streamId: string, data: string): Promise<string> {
    if (this.lost.has(streamId)) throw new Error(`Another node runs the call of stream ${streamId} now`);
    return `${streamId}/${await this.append(streamId, DATA, data)}`;
  }

  async holdStream(streamId: string): Promise<boolean> {
    const won = await this.redis.set(this.leaseKey(streamId), this.owner, 'PX', this.leaseMs, 'NX');
    if (won !== 'OK') return false;
    this.hold(streamId);
    return true;
  }

  async releaseStream(streamId: string): Promise<void> {
    this.held.delete(streamId);
    this.calls.delete(streamId);
    await this.redis.eval(RELEASE, 1, this.leaseKey(streamId), this.owner);
  }

  async endStream(streamId: string): Promise<void> {
    // The end and the release of the call's lease go together: a follower never sees one alone.
    const held = this.held.delete(streamId);
    this.calls.delete(streamId);
    if (this.lost.delete(streamId)) return; // the node that took the call over ends it
    await this.append(streamId, END, '1', (pipeline) => {
      if (held) pipeline.del(this.leaseKey(streamId), this.callKey(streamId));
    });
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
    takeOver?: (orphan: OrphanedStream) => boolean,
  ): Promise<string | undefined> {
    const position = await this.known(lastEventId);
    if (!position) return undefined;
    const { streamId } = position;
    let after = await this.replay(streamId, position.entry, send);
    if (after === 'ended') return streamId;
    // Blocking reads need a connection of their own.
    const reader = this.redis.duplicate({ lazyConnect: true });
    reader.on('error', () => {}); // a failing read rejects, which ends the follow
    try {
      await reader.connect();
      while (!stopped()) {
        const answer = await reader.xread('BLOCK', this.followPoll, 'STREAMS', this.prefix + streamId, after);
        if (!answer) {
          if (!(await this.watch(streamId, takeOver))) break; // expired or deleted
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
    this.held.delete(streamId);
    this.calls.delete(streamId);
    this.lost.delete(streamId);
    await this.redis.del(this.prefix + streamId, this.leaseKey(streamId), this.callKey(streamId));
  }

  /** Stops renewing leases (the connection is the caller's to close). */
  close(): void {
    this.held.clear();
    this.calls.clear();
    this.lost.clear();
    this.stopRenewing();
  }

  /**
   * A quiet followed stream: whether it still exists, and, when its call's lease expired (the
   * node running it died), an attempt to take the call over.
   */
  private async watch(
    streamId: string,
    takeOver: ((orphan: OrphanedStream) => boolean) | undefined,
  ): Promise<boolean> {
    if (!takeOver) return (await this.redis.exists(this.prefix + streamId)) === 1;
    const [stream, call, lease] = (await this.redis
      .pipeline()
      .exists(this.prefix + streamId)
      .exists(this.callKey(streamId))
      .exists(this.leaseKey(streamId))
      .exec()) as [Error | null, number][];
    if (stream?.[1] !== 1) return false;
    if (call?.[1] === 1 && lease?.[1] === 0) await this.takeOver(streamId, takeOver);
    return true;
  }

  private async takeOver(streamId: string, takeOver: (orphan: OrphanedStream) => boolean): Promise<void> {
    if (!(await this.holdStream(streamId))) return; // another follower was first
    let taken = false;
    try {
      const request = await this.redis.get(this.callKey(streamId));
      const entries = await this.redis.xrange(this.prefix + streamId, '-', '+');
      // Ended meanwhile (its node answered just before dying, or was only slow): nothing to run.
      if (request === null || entries.some(([, fields]) => fields[0] === END)) return;
      const earlier: string[] = [];
      for (const [, fields] of entries) if (fields[0] === DATA && fields[1]) earlier.push(fields[1]);
      taken = takeOver({ streamId, request, earlier });
      if (taken) this.calls.add(streamId);
    } finally {
      if (!taken) await this.releaseStream(streamId);
    }
  }

  private hold(streamId: string): void {
    this.held.add(streamId);
    if (this.renewer) return;
    this.renewer = setInterval(() => this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.renewer.unref?.();
  }

  /** One pipelined round trip for every lease held; leases another node took are dropped. */
  private renew(): void {
    if (this.held.size === 0) {
      this.stopRenewing();
      return;
    }
    const ids = [...this.held];
    const pipeline = this.redis.pipeline();
    for (const id of ids) {
      pipeline.eval(RENEW, 1, this.leaseKey(id), this.owner, this.leaseMs);
      pipeline.pexpire(this.callKey(id), this.maxAge);
    }
    pipeline.exec().then(
      (results) => {
        ids.forEach((id, i) => {
          if (results?.[2 * i]?.[1] !== 0) return;
          this.held.delete(id);
          if (this.calls.delete(id)) this.lost.add(id);
        });
      },
      () => {}, // Redis is away: the next period tries again
    );
  }

  private stopRenewing(): void {
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = undefined;
  }

  private leaseKey(streamId: string): string {
    return `${this.prefix}lease:${streamId}`;
  }

  private callKey(streamId: string): string {
    return `${this.prefix}call:${streamId}`;
  }

  /** Appends one entry, trims by length and age and renews the expiry: one round trip. */
  private async append(
    streamId: string,
    field: string,
    value: string,
    more?: (pipeline: ChainableCommander) => void,
  ): Promise<string> {
    const key = this.prefix + streamId;
    const pipeline = this.redis
      .pipeline()
      .xadd(key, 'MAXLEN', '~', this.maxLength, '*', field, value)
      .xtrim(key, 'MINID', '~', Date.now() - this.maxAge)
      .pexpire(key, this.maxAge);
    more?.(pipeline);
    const results = await pipeline.exec();
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

function randomName(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

function atLeastOne(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value >= 1) || !Number.isFinite(value)) throw new RangeError(`${name} must be at least 1`);
  return Math.floor(value);
}
