/**
 * What a session store extends, and the reference store in memory. Apart from the
 * {@link SessionStore} contract because a store brings the handler-side logic
 * (`shared.ts`), which reads the contract: the contract itself names that logic only by its symbol.
 * @module
 */
import type { ServerSessionState } from '../../kernel/sessionState.js';
import { SharedSessions } from './shared.js';
import type { SessionStore } from './store.js';
import { SHARED_SESSIONS } from './storeErrors.js';

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
