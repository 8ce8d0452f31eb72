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
  private readonly inFlight = new Map<string, Map<Downstream, number>>();
  /** Upstream tasks a gateway task follows, by server and upstream task id: who asks for them. */
  private readonly upstreamTasks = new Map<string, Downstream>();
  /** URL-mode elicitations sent on, by server and elicitation id: whose completion it is. */
  private readonly urlElicitations = new Map<string, Downstream>();

  /**
   * @param owner The one session of a per-session host: every request goes there. A 2026 pool
   *   host sets it to the request it serves alone, and clears it (routing by calls in flight)
   *   while it serves several requests at once or none.
   */
  constructor(public owner?: Downstream) {}

  /** Marks a call of `session` on `server` as running; returns the function that ends it. */
  begin(server: string, session: Downstream): () => void {
    if (this.owner) return noop;
    let sessions = this.inFlight.get(server);
    if (!sessions) {
      sessions = new Map();
      this.inFlight.set(server, sessions);
    }
    sessions.set(session, (sessions.get(session) ?? 0) + 1);
    return () => {
      const left = (sessions.get(session) ?? 1) - 1;
      if (left > 0) sessions.set(session, left);
      else sessions.delete(session);
    };
  }

  /** The session `server`'s requests and notifications belong to now, if exactly one. */
  target(server: string): Downstream | undefined {
    if (this.owner) return this.owner.closed ? undefined : this.owner;
    const sessions = this.inFlight.get(server);
    if (sessions?.size !== 1) return undefined;
    return sessions.keys().next().value;
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
      const sessions = this.inFlight.get(server);
      // None of them could answer anyway: the spec's error for a missing capability.
      if (sessions && sessions.size > 1 && ![...sessions.keys()].some(capability)) {
        throw new McpError(
          ErrorCode.MethodNotFound,
          `The clients behind this gateway do not support "${method}"`,
        );
      }
      const running = sessions?.size ?? 0;
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

  /** Remembers which session was sent `server`'s URL-mode elicitation `id` (shared hosts only). */
  elicited(server: string, id: string, session: Downstream): void {
    if (this.owner) return;
    if (this.urlElicitations.size >= MAX_PENDING_URL_ELICITATIONS) {
      // The oldest is most likely abandoned: a bound, so unanswered ones cannot grow the map.
      this.urlElicitations.delete(this.urlElicitations.keys().next().value!);
    }
    this.urlElicitations.set(`${server}\u0000${id}`, session);
  }

  /**
   * The session `server`'s `notifications/elicitation/complete` for `id` goes to: the one that
   * was sent that elicitation, and only if that server sent it.
   */
  completed(server: string, id: string): Downstream | undefined {
    if (this.owner) return this.owner.closed ? undefined : this.owner;
    const key = `${server}\u0000${id}`;
    const session = this.urlElicitations.get(key);
    this.urlElicitations.delete(key);
    return session?.closed ? undefined : session;
  }
}

/** URL-mode elicitations a shared gateway remembers at most while waiting for their completion. */
const MAX_PENDING_URL_ELICITATIONS = 1_000;

function noop(): void {}
