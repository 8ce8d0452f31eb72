/**
 * Requests waiting on authorization: while a transport hands a 401 (or a step-up 403) to an auth
 * provider, which may be a person logging in in a browser, the requests it was sending stop their
 * timeouts and resume with the time they had left. Only a client needs this: it installs it on
 * its connection ({@link installAuthorizationPauses}); a server's connection never carries it,
 * nor its bytes.
 * @module
 */
import type { RequestId } from './messages.js';

/** What a pause needs of one pending request: its deadlines, moved by the time it waited. */
export interface PausableRequest {
  /** `+Infinity` while the request waits on authorization: the deadline sweep passes it by. */
  deadline: number;
  hardDeadline: number;
}

/** What the pauses need of the connection that installs them. */
export interface PauseHost {
  /** The pending request `id`, if it still is. */
  pending(id: RequestId): PausableRequest | undefined;
  /** Has the deadline timer fire by `deadline`. */
  schedule(deadline: number): void;
}

/** The pause of one request: since when, and the deadline it had then. */
interface Pause {
  readonly since: number;
  readonly deadline: number;
}

/**
 * The requests of one connection that wait on authorization, and how long they have waited.
 *
 * @example
 * ```ts
 * declare const host: PauseHost;
 * const pauses = new AuthorizationPauses(host);
 * pauses.authorizing([1], true); // a login starts
 * pauses.authorizing([1], false); // it ended: request 1's timeout runs again
 * ```
 */
export class AuthorizationPauses {
  readonly #paused = new Map<RequestId, Pause>();
  /** The time spent with at least one request waiting, up to `#since`. */
  #total = 0;
  #since = 0;

  constructor(private readonly host: PauseHost) {}

  /** How long, in ms, requests have waited on authorization (wall-clock, overlapping waits once). */
  get total(): number {
    return this.#total + (this.#paused.size > 0 ? Date.now() - this.#since : 0);
  }

  /** The transport's word that requests `ids` wait on authorization (`waiting`), or no longer. */
  authorizing(ids: readonly RequestId[], waiting: boolean): void {
    const now = Date.now();
    for (const id of ids) {
      const entry = this.host.pending(id);
      if (!waiting) {
        if (this.#resume(id, now) && entry) this.host.schedule(entry.deadline);
        continue;
      }
      if (!entry || this.#paused.has(id)) continue;
      if (this.#paused.size === 0) this.#since = now;
      this.#paused.set(id, { since: now, deadline: entry.deadline });
      entry.deadline = Number.POSITIVE_INFINITY;
    }
  }

  /** Ends `id`'s wait, if it waits; moves its deadlines by the time it waited. */
  #resume(id: RequestId, now: number): boolean {
    const pause = this.#paused.get(id);
    if (!pause) return false;
    this.#paused.delete(id);
    if (this.#paused.size === 0) this.#total += now - this.#since;
    const entry = this.host.pending(id);
    if (entry) {
      const waited = now - pause.since;
      entry.hardDeadline += waited;
      entry.deadline = pause.deadline + waited;
    }
    return true;
  }
}

/** A connection that can carry {@link AuthorizationPauses}. */
export interface PausableConnection {
  /** @internal Installs the pauses; see {@link installAuthorizationPauses}. */
  usePauses(make: (host: PauseHost) => AuthorizationPauses): AuthorizationPauses;
}

/**
 * Has `connection` stop its requests' timeouts while its transport waits on authorization
 * (`MessageSink.authorizing`). A client does this once per connection it opens; the pauses
 * returned say how long its requests have waited (`total`), for a limit kept across several
 * requests (a handshake's).
 *
 * @example
 * ```ts
 * declare const connection: Connection;
 * const pauses = installAuthorizationPauses(connection);
 * const started = Date.now() - pauses.total;
 * ```
 */
export function installAuthorizationPauses(connection: PausableConnection): AuthorizationPauses {
  return connection.usePauses((host) => new AuthorizationPauses(host));
}
