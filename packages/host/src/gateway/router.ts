/**
 * Which downstream session a request from an upstream belongs to.
 *
 * Over stdio, and in general, a server's `sampling/createMessage`, `elicitation/create` or
 * `roots/list` says nothing on the wire about the call that caused it. A gateway therefore routes
 * it by the calls in flight: to the one downstream session that has a call running on that
 * upstream. When no session, or more than one, has a call in flight there, the request is
 * refused; it is never guessed. A gateway with one host per downstream session (the default)
 * always knows: every request of its upstreams belongs to its one session.
 * @module
 */
import {
  type CancelSource,
  type ClientCapabilities,
  ErrorCode,
  type LoggingLevel,
  McpError,
  type OutgoingRequestOptions,
  RELATED_TASK_META_KEY,
} from '@mcpkit/core';

/**
 * Who an upstream's requests and messages go to: a downstream `Downstream`, or (under
 * 2026-07-28, where there is no session) the caller of one request, whose questions become
 * input-required rounds.
 *
 * @example
 * ```ts
 * import type { Downstream } from '@mcpkit/server';
 * declare const session: Downstream;
 * const downstream: Downstream = session;
 * ```
 */
export interface Downstream {
  readonly key: string;
  readonly closed: boolean;
  readonly clientCapabilities: ClientCapabilities;
  request<R = Record<string, unknown>>(
    method: string,
    params?: object,
    options?: OutgoingRequestOptions,
  ): Promise<R>;
  notify(method: string, params?: Record<string, unknown>): void | Promise<void>;
  log(level: LoggingLevel, data: unknown, logger?: string): void | Promise<void>;
}

/**
 * The calls in flight of one host, by upstream server and downstream session.
 *
 * @example
 * ```ts
 * import type { ServerSession } from '@mcpkit/server';
 * declare const session: ServerSession;
 * const router = new CallRouter();
 * const end = router.begin('everything', session);
 * router.target('everything'); // session
 * end();
 * ```
 */
export class CallRouter {
  private readonly inFlight = new Map<string, ServerCalls>();
  #lastServer: string | undefined;
  #lastCalls: ServerCalls | undefined;
  /** Upstream tasks a gateway task follows, by server and upstream task id: who asks for them. */
  private readonly upstreamTasks = new Map<string, Downstream>();
  /** URL-mode elicitations sent on, by server and elicitation id: whose completion it is. */
  private readonly urlElicitations = new Map<string, Downstream>();
  /** Who made a call, by what it was made on behalf of (its `cancelledBy`): see {@link attribute}. */
  #callers: WeakMap<CancelSource, Downstream> | undefined;
  /** Who last answered each server's `roots/list`: whose roots it holds (see {@link rootsAnswered}). */
  #rootsFrom: Map<string, Downstream> | undefined;

  /**
   * @param owner The one session of a per-session host: every request goes there. A 2026 pool
   *   host sets it to the request it serves alone, and clears it (routing by calls in flight)
   *   while it serves several requests at once or none.
   */
  constructor(public owner?: Downstream) {}

  /** Marks a call of `session` on `server` as running; returns the function that ends it. */
  begin(server: string, session: Downstream): () => void {
    if (!this.enter(server, session)) return noop;
    return () => this.leave(server, session);
  }

  /**
   * {@link begin} without the closure, for the per-call path: a call of `session` on `server` is
   * running until {@link leave} is called with the same two, once, and only if this returned true
   * (a router with an owner counts nothing; the owner may change while the call runs).
   */
  enter(server: string, session: Downstream): boolean {
    if (this.owner) return false;
    const calls = this.callsOn(server);
    // One session at a time (a shared host with one client, or calls that do not overlap): a
    // counter, no map operation.
    if (calls.sessions === undefined && (calls.count === 0 || calls.only === session)) {
      calls.only = session;
      calls.count++;
      return true;
    }
    let sessions = calls.sessions;
    if (sessions === undefined) {
      sessions = calls.count > 0 ? new Map([[calls.only!, calls.count]]) : new Map();
      calls.sessions = sessions;
    }
    calls.only = undefined;
    calls.count = 0;
    sessions.set(session, (sessions.get(session) ?? 0) + 1);
    return true;
  }

  /** Ends a call {@link enter} counted. */
  leave(server: string, session: Downstream): void {
    const calls = this.callsOn(server);
    const sessions = calls.sessions;
    if (sessions === undefined) {
      if (calls.only !== session || calls.count === 0) return;
      if (--calls.count === 0) calls.only = undefined;
      return;
    }
    const left = (sessions.get(session) ?? 1) - 1;
    if (left > 0) sessions.set(session, left);
    else sessions.delete(session);
    // Back to the counter once a single session is left.
    if (sessions.size <= 1) {
      const [only] = sessions;
      calls.sessions = undefined;
      calls.only = only?.[0];
      calls.count = only?.[1] ?? 0;
    }
  }

  /** How many sessions have calls in flight on `server`. */
  #sessionCount(server: string): number {
    const calls = this.inFlight.get(server);
    if (!calls) return 0;
    return calls.sessions ? calls.sessions.size : calls.count > 0 ? 1 : 0;
  }

  /** The sessions with calls in flight on `server`. */
  #sessions(server: string): Downstream[] {
    const calls = this.inFlight.get(server);
    if (!calls) return [];
    if (calls.sessions) return [...calls.sessions.keys()];
    return calls.count > 0 ? [calls.only!] : [];
  }

  /** The calls in flight on `server` (the last server asked for is kept: usually the same one). */
  private callsOn(server: string): ServerCalls {
    if (this.#lastCalls !== undefined && this.#lastServer === server) return this.#lastCalls;
    let calls = this.inFlight.get(server);
    if (!calls) {
      calls = { only: undefined, count: 0, sessions: undefined };
      this.inFlight.set(server, calls);
    }
    this.#lastServer = server;
    this.#lastCalls = calls;
    return calls;
  }

  /** The session `server`'s requests and notifications belong to now, if exactly one. */
  target(server: string): Downstream | undefined {
    if (this.owner) return this.owner.closed ? undefined : this.owner;
    const calls = this.inFlight.get(server);
    if (!calls) return undefined;
    if (calls.sessions) return calls.sessions.size === 1 ? calls.sessions.keys().next().value : undefined;
    return calls.count > 0 ? calls.only : undefined;
  }

  /**
   * The session a request of `server` goes to, checked for the capability it needs.
   *
   * @throws {McpError} `-32601` when that session did not declare `capability`; `-32603` when no
   *   single session can be told apart.
   */
  sessionFor(server: string, method: string, capability: (session: Downstream) => boolean): Downstream {
    const session = this.target(server);
    if (!session) {
      const running = this.#sessionCount(server);
      // None of them could answer anyway: the spec's error for a missing capability.
      if (running > 1 && !this.#sessions(server).some(capability)) {
        throw new McpError(
          ErrorCode.MethodNotFound,
          `The clients behind this gateway do not support "${method}"`,
        );
      }
      throw new McpError(
        ErrorCode.InternalError,
        running === 0
          ? `"${method}" from "${server}" arrived outside any call of a connected client, so the gateway has no one to ask`
          : `"${method}" from "${server}" arrived while ${running} clients have calls in flight on it; the gateway cannot tell whose it is and refuses it`,
      );
    }
    if (!capability(session)) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The client behind this gateway does not support "${method}"`,
      );
    }
    return session;
  }

  /**
   * Routes what `server` asks on behalf of its task `upstreamTaskId` (the related-task `_meta` of
   * its request) to `via`, a gateway task's context; returns the function that forgets it.
   */
  followTask(server: string, upstreamTaskId: string, via: Downstream): () => void {
    const key = `${server}\u0000${upstreamTaskId}`;
    this.upstreamTasks.set(key, via);
    return () => {
      if (this.upstreamTasks.get(key) === via) this.upstreamTasks.delete(key);
    };
  }

  /** The gateway task a request of `server` belongs to, by the upstream task its `_meta` names. */
  taskOf(server: string, params: unknown): Downstream | undefined {
    if (this.upstreamTasks.size === 0) return undefined;
    const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const related = meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined;
    if (typeof related?.taskId !== 'string') return undefined;
    return this.upstreamTasks.get(`${server}\u0000${related.taskId}`);
  }

  /**
   * Remembers that a call made on behalf of `source` (the `cancelledBy` it is sent with) is
   * `caller`'s: a question the upstream sends on that call's own stream names it (see
   * {@link askedFor}). Weakly held: forgotten with the downstream request.
   */
  attribute(source: CancelSource, caller: Downstream): void {
    this.#callers ??= new WeakMap();
    this.#callers.set(source, caller);
  }

  /** The caller {@link attribute} remembered for `source`, if any. */
  callerOf(source: CancelSource | undefined): Downstream | undefined {
    return source === undefined ? undefined : this.#callers?.get(source);
  }

  /** Remembers that `by` answered `server`'s last `roots/list`: the server now holds its roots. */
  rootsAnswered(server: string, by: Downstream): void {
    this.#rootsFrom ??= new Map();
    this.#rootsFrom.set(server, by);
  }

  /** The servers whose roots came from `by` (its last `roots/list` answer was `by`'s). */
  rootsFrom(by: Downstream): string[] {
    if (!this.#rootsFrom) return [];
    return [...this.#rootsFrom].filter(([, from]) => from === by).map(([server]) => server);
  }

  /**
   * Who a question of `server` goes to: the gateway task following the upstream task its `_meta`
   * names, or the caller of the call it was sent about (`onBehalfOf`, when the transport tells:
   * Streamable HTTP), both attributable on any connection; else the session {@link sessionFor}
   * names.
   *
   * @throws {McpError} as {@link sessionFor}; `-32601` when the task's client lacks `capability`.
   */
  askedFor(
    server: string,
    params: unknown,
    method: string,
    capability: (session: Downstream) => boolean,
    onBehalfOf?: CancelSource,
  ): Downstream {
    const task = this.taskOf(server, params) ?? this.callerOf(onBehalfOf);
    if (!task) return this.sessionFor(server, method, capability);
    if (!capability(task)) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The client behind this gateway does not support "${method}"`,
      );
    }
    return task;
  }

  /**
   * Remembers which session was sent `server`'s URL-mode elicitation `id`. Kept even with an
   * owner: a host lent to one caller after another (a lane, a 2026 pool host) changes owners, and
   * the completion may come after the call that asked has ended.
   */
  elicited(server: string, id: string, session: Downstream): void {
    if (this.urlElicitations.size >= MAX_PENDING_URL_ELICITATIONS) {
      // The oldest is most likely abandoned: a bound, so unanswered ones cannot grow the map.
      this.urlElicitations.delete(this.urlElicitations.keys().next().value!);
    }
    this.urlElicitations.set(`${server}\u0000${id}`, session);
  }

  /**
   * The session `server`'s `notifications/elicitation/complete` for `id` goes to: the one that
   * was sent that elicitation, and only if that server sent it (else a per-session host's owner).
   */
  completed(server: string, id: string): Downstream | undefined {
    const key = `${server}\u0000${id}`;
    const session = this.urlElicitations.get(key);
    this.urlElicitations.delete(key);
    if (session) return session.closed ? undefined : session;
    if (this.owner) return this.owner.closed ? undefined : this.owner;
    return undefined;
  }
}

/**
 * The calls in flight on one upstream: while one session has them (the common case), its count;
 * from a second session on, a map of counts by session.
 */
interface ServerCalls {
  only: Downstream | undefined;
  count: number;
  sessions: Map<Downstream, number> | undefined;
}

/** URL-mode elicitations a shared gateway remembers at most while waiting for their completion. */
const MAX_PENDING_URL_ELICITATIONS = 1_000;

function noop(): void {}
