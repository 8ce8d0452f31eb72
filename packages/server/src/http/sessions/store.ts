/**
 * Where Streamable HTTP sessions live when several server processes serve one endpoint.
 *
 * Without a store (the default) a session exists only in the memory of the process that answered
 * its `initialize`, and nothing here runs. With one, the handler saves each session's
 * {@link ServerSessionState} record when it begins and whenever it changes, reads it back on each
 * request (which also extends its idle expiry), and a process that does not know a session id
 * restores the session from the record, with no new handshake. DELETE removes the record, so the
 * session ends on every process; idle expiry is the store's (a time to live per record).
 * @module
 */
import type { ServerSessionState } from '../../sessionState.js';
import { SharedSessions } from './shared.js';
import { SHARED_SESSIONS } from './storeErrors.js';

/**
 * Shared storage of session-state records, by session id. Implementations extend
 * {@link SessionStoreBase} (the handler refuses a store that does not).
 *
 * Contract: `ttlMs` is the handler's idle timeout (`undefined`: no expiry); a record not loaded,
 * saved or touched for that long is gone. Every method may answer synchronously or with a
 * promise; a method that throws or rejects makes the handler answer 503 (the store is down).
 *
 * @example
 * ```ts
 * // A sketch over any key-value store with expiry:
 * declare const kv: {
 *   getAndExpire(key: string, ttl?: number): Promise<string | null>;
 *   set(key: string, value: string, ttl?: number): Promise<void>;
 *   del(key: string): Promise<void>;
 *   expire(key: string, ttl?: number): Promise<number>;
 * };
 * const parse = (text: string | null) => (text === null ? undefined : JSON.parse(text));
 * const store: SessionStore = {
 *   load: async (id, ttl) => parse(await kv.getAndExpire(`s:${id}`, ttl)),
 *   save: (id, state, ttl) => kv.set(`s:${id}`, JSON.stringify(state), ttl),
 *   delete: (id) => kv.del(`s:${id}`),
 *   touch: async (id, ttl) => (await kv.expire(`s:${id}`, ttl)) === 1,
 * };
 * ```
 */
export interface SessionStore {
  /** The handler-side logic: present when the store extends {@link SessionStoreBase}. */
  readonly [SHARED_SESSIONS]?: typeof SharedSessions;
  /** The session's record, extending its expiry; `undefined` when it does not exist (any more). */
  load(
    sessionId: string,
    ttlMs: number | undefined,
  ): ServerSessionState | undefined | Promise<ServerSessionState | undefined>;
  /** Writes the session's record (created, or changed: log level, subscriptions). */
  save(sessionId: string, state: ServerSessionState, ttlMs: number | undefined): void | Promise<void>;
  /** Removes the record: the session ended (DELETE), on every node. */
  delete(sessionId: string): void | Promise<void>;
  /** Extends the record's expiry (a node holds a stream of it open); false when it is gone. */
  touch(sessionId: string, ttlMs: number | undefined): boolean | Promise<boolean>;
  /**
   * Sends the client's answers to a server-to-client request (sampling, elicitation, roots) to
   * every node, because the node whose handler waits for them may not be the one the client
   * POSTed to. Optional, with {@link onForward}: without them such answers reach only the node
   * they land on.
   */
  forward?(sessionId: string, message: unknown): void | Promise<void>;
  /** Receives what any node {@link forward}ed; returns an unsubscribe function. */
  onForward?(listener: (sessionId: string, message: unknown) => void): () => void;
  /**
   * Sends a server-wide notification (`resources/updated`, `list_changed`, a log message) to every
   * node, this one included, each of which delivers it to the sessions whose GET stream it holds.
   * Optional, with {@link onPublished}: without them a broadcast reaches this node's sessions only.
   */
  publish?(broadcast: unknown): void | Promise<void>;
  /** Receives what any node {@link publish}ed; returns an unsubscribe function. */
  onPublished?(listener: (broadcast: unknown) => void): () => void;
}

/**
 * What every session store extends: it brings the handler the code that uses a store, so a
 * handler without one (the single-node default) does not carry that code in its bundle.
 *
 * @example
 * ```ts
 * class KvSessionStore extends SessionStoreBase {
 *   async load(id: string, ttl: number | undefined) { return parse(await kv.getAndExpire(id, ttl)); }
 *   async save(id: string, state: ServerSessionState, ttl: number | undefined) { await kv.set(id, JSON.stringify(state), ttl); }
 *   async delete(id: string) { await kv.del(id); }
 *   async touch(id: string, ttl: number | undefined) { return kv.expire(id, ttl); }
 * }
 * ```
 */
export abstract class SessionStoreBase implements SessionStore {
  readonly [SHARED_SESSIONS] = SharedSessions;
  abstract load(
    sessionId: string,
    ttlMs: number | undefined,
  ): ServerSessionState | undefined | Promise<ServerSessionState | undefined>;
  abstract save(
    sessionId: string,
    state: ServerSessionState,
    ttlMs: number | undefined,
  ): void | Promise<void>;
  abstract delete(sessionId: string): void | Promise<void>;
  abstract touch(sessionId: string, ttlMs: number | undefined): boolean | Promise<boolean>;
}

/**
 * A {@link SessionStore} in this process's memory: for several handlers in one process (tests,
 * a blue/green switch), and as the reference of the contract. Several processes need a shared
 * store such as `RedisSessionStore` from `@mcpkit/redis`.
 *
 * @example
 * ```ts
 * const sessions = new InMemorySessionStore();
 * const a = createStreamableHttpHandler(server, { sessionStore: sessions, eventStore });
 * const b = createStreamableHttpHandler(server, { sessionStore: sessions, eventStore });
 * ```
 */
export class InMemorySessionStore extends SessionStoreBase {
  private readonly records = new Map<string, { json: string; expires: number }>();

  load(sessionId: string, ttlMs: number | undefined): ServerSessionState | undefined {
    const record = this.live(sessionId);
    if (!record) return undefined;
    record.expires = expiry(ttlMs);
    return JSON.parse(record.json) as ServerSessionState;
  }

  save(sessionId: string, state: ServerSessionState, ttlMs: number | undefined): void {
    this.records.set(sessionId, { json: JSON.stringify(state), expires: expiry(ttlMs) });
  }

  delete(sessionId: string): void {
    this.records.delete(sessionId);
  }

  touch(sessionId: string, ttlMs: number | undefined): boolean {
    const record = this.live(sessionId);
    if (record) record.expires = expiry(ttlMs);
    return record !== undefined;
  }

  /** Records held (expired ones included until they are next read). */
  get size(): number {
    return this.records.size;
  }

  private live(sessionId: string): { json: string; expires: number } | undefined {
    const record = this.records.get(sessionId);
    if (record && record.expires <= Date.now()) {
      this.records.delete(sessionId);
      return undefined;
    }
    return record;
  }
}

function expiry(ttlMs: number | undefined): number {
  return ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs;
}
