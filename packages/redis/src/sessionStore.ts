/**
 * Streamable HTTP sessions in Redis: one string key per session holding its state record, with
 * the idle timeout as its time to live. Reading it (`GETEX … PX`) is the one round trip a request
 * for a known session costs, and it extends the session's life at the same time.
 * @module
 */
import type { ServerSessionState } from '@mcpkit/server';
import { SessionStoreBase } from '@mcpkit/server/cluster';
import type { Redis } from 'ioredis';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Prefix of every key. Default `mcpkit:`. */
  keyPrefix?: string;
}

/**
 * A {@link SessionStore} on Redis, for `createStreamableHttpHandler(server, { sessionStore })`.
 *
 * @example
 * ```ts
 * const redis = await connectRedis('redis://127.0.0.1:6379');
 * const handler = createStreamableHttpHandler(server, {
 *   sessionStore: new RedisSessionStore(redis),
 *   eventStore: new RedisEventStore(redis),
 * });
 * ```
 */
export class RedisSessionStore extends SessionStoreBase {
  private readonly prefix: string;
  private readonly channel: string;
  /** The channel of server-wide notifications. */
  private readonly broadcasts: string;
  /** The subscriber connection (pub/sub needs one of its own), made on first listener. */
  private subscriber: Redis | undefined;
  private readonly listeners = new Set<(sessionId: string, message: unknown) => void>();
  private readonly published = new Set<(broadcast: unknown) => void>();

  constructor(
    private readonly redis: Redis,
    options: RedisSessionStoreOptions = {},
  ) {
    super();
    this.prefix = `${options.keyPrefix ?? 'mcpkit:'}session:`;
    this.channel = `${options.keyPrefix ?? 'mcpkit:'}answers`;
    this.broadcasts = `${options.keyPrefix ?? 'mcpkit:'}broadcasts`;
  }

  async publish(broadcast: unknown): Promise<void> {
    await this.redis.publish(this.broadcasts, JSON.stringify(broadcast));
  }

  onPublished(listener: (broadcast: unknown) => void): () => void {
    this.published.add(listener);
    this.subscribe();
    return () => this.published.delete(listener);
  }

  async forward(sessionId: string, message: unknown): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify([sessionId, message]));
  }

  onForward(listener: (sessionId: string, message: unknown) => void): () => void {
    this.listeners.add(listener);
    this.subscribe();
    return () => this.listeners.delete(listener);
  }

  private subscribe(): void {
    if (this.subscriber) return;
    // Queue the SUBSCRIBE until connected (the main connection may fail fast instead), and
    // connect now: ioredis subscribes again by itself after each reconnection.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, text: string) => this.received(channel, text));
    // Connection errors are the main connection's to report; ioredis resubscribes on reconnect.
    subscriber.on('error', () => {});
    void subscriber.subscribe(this.channel, this.broadcasts).catch(() => {});
  }

  /** Stops listening for forwarded answers (the main connection is the caller's to close). */
  close(): void {
    this.subscriber?.disconnect();
    this.subscriber = undefined;
    this.listeners.clear();
    this.published.clear();
  }

  private received(channel: string, text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not ours: something else publishes on the channel
    }
    if (channel === this.broadcasts) {
      for (const listener of this.published) listener(parsed);
      return;
    }
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') return;
    for (const listener of this.listeners) listener(parsed[0], parsed[1]);
  }

  async load(sessionId: string, ttlMs: number | undefined): Promise<ServerSessionState | undefined> {
    const key = this.prefix + sessionId;
    const json = ttlMs === undefined ? await this.redis.get(key) : await this.redis.getex(key, 'PX', ttlMs);
    return json === null ? undefined : (JSON.parse(json) as ServerSessionState);
  }

  async save(sessionId: string, state: ServerSessionState, ttlMs: number | undefined): Promise<void> {
    const key = this.prefix + sessionId;
    const json = JSON.stringify(state);
    if (ttlMs === undefined) await this.redis.set(key, json);
    else await this.redis.set(key, json, 'PX', ttlMs);
  }

  async delete(sessionId: string): Promise<void> {
    await this.redis.del(this.prefix + sessionId);
  }

  async touch(sessionId: string, ttlMs: number | undefined): Promise<boolean> {
    const key = this.prefix + sessionId;
    if (ttlMs === undefined) return (await this.redis.exists(key)) === 1;
    return (await this.redis.pexpire(key, ttlMs)) === 1;
  }
}
