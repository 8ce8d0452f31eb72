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
import type { ServerSessionState } from '../../kernel/sessionState.js';
import { SHARED_SESSIONS, type SharedSessionsLogic } from './storeErrors.js';

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
  readonly [SHARED_SESSIONS]?: SharedSessionsLogic;
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
