/**
 * Revision 2026-07-28 at the gateway's front. A 2026 request has no session: each one is served
 * on a throwaway session, so the gateway's host-per-session would start every upstream for every
 * request. Instead a 2026 request leases a host from a small pool, alone, for as long as it runs:
 * whatever an upstream asks meanwhile (elicitation, sampling, roots) belongs to that request,
 * exactly, as with a host per session.
 *
 * A request whose client declared no capability an upstream's question could need (no
 * `elicitation`, no `sampling`, no `roots` when the gateway forwards roots) can be asked nothing,
 * so it needs no host to itself: such requests of one principal run together on one host of the
 * pool, at once, routed by calls in flight as on a shared gateway (a question is refused with
 * -32601 either way). Spreading them over the pool, one per host, cost 2.5–3× the CPU of one
 * host (nothing batches; docs/benchmarks.md "Gateway").
 *
 * A host is reused only by requests of the same principal (the token's subject, client or token;
 * all anonymous requests are one principal): upstream sessions, and what they keep, are never
 * shared between callers who authenticate as different identities. A host idle for one principal
 * is closed and started afresh when another needs it and the pool is full.
 *
 * A gateway with shared upstreams has no pool: its 2026 requests run on its one host at once,
 * and a question goes to the one request with a call in flight on that upstream (refused when
 * several have), as for its 2025 sessions.
 *
 * An upstream's question cannot be sent to a 2026 client as a request: the gateway answers the
 * downstream request `input_required` with the question, and keeps the upstream call running,
 * parked under a random id that goes into `requestState` (sealed by the server's MRTR runner with
 * the params and the principal, so a client cannot alter it or use another's). The client's retry
 * brings the answer; the gateway hands it to the waiting upstream and waits again, for the result
 * or the next question. A round not retried within `parkMs` cancels the upstream call.
 * @module
 */
import { type CancelSource, type ClientCapabilities, ErrorCode, McpError } from '@mcpkit/core';
import type { RequestContext } from '@mcpkit/server';
import type { McpHost } from '../host.js';
import { RoundCaller } from './rounds.js';
import type { SessionState } from './sessionHost.js';

/**
 * Limits of the 2026 front.
 *
 * @example
 * ```ts
 * const options: ModernFrontOptions = { maxHosts: 4, parkMs: 60_000 };
 * ```
 */
export interface ModernFrontOptions {
  /**
   * Hosts (each with its own upstream connections) serving 2026 requests at once (a principal's
   * requests that can be asked nothing share one); more requests wait for one to be free. Default 8.
   */
  maxHosts?: number;
  /** How long a request waiting for the client's input-required retry is kept. Default 300 000 ms. */
  parkMs?: number;
}

/**
 * The work of one request, on `state`: `caller` is who its upstreams' questions, progress and log
 * messages go to, and `caller.cancel` cancels it (it outlives the request's rounds).
 */
export type ModernWork<T> = (state: SessionState, caller: RoundCaller) => Promise<T>;

/** A host of the pool. */
interface PoolHost {
  state: SessionState;
  /** Whose requests this host serves (see the module documentation). */
  principal: string;
  /** Requests running on it now (a task they started included). */
  users: number;
  /** Serving requests that can be asked nothing, any number at once; else one request. */
  sharing: boolean;
}

/** A request waiting for a host of the pool. */
interface Waiter {
  readonly principal: string;
  readonly sharing: boolean;
  take(lease: Lease): void;
}

/** One request's hold on a host. */
interface Lease {
  /** Its pool host; `undefined` for a request on the gateway's shared host. */
  readonly host: PoolHost | undefined;
  readonly state: SessionState;
  readonly caller: RoundCaller;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The hosts serving 2026 requests, leased one request at a time (or to a principal's requests
 * that can be asked nothing, together); or, for a gateway with shared upstreams, its one host
 * serving them all at once.
 *
 * @example
 * ```ts
 * declare const makeState: () => SessionState;
 * declare const ctx: RequestContext;
 * const front = new ModernFront(makeState);
 * const result = await front.run(ctx, (state, caller) =>
 *   state.host.callTool('echo', {}, { cancelledBy: caller.cancel }),
 * );
 * ```
 */
export class ModernFront {
  private readonly idle: PoolHost[] = [];
  private readonly pool = new Set<PoolHost>();
  /** The pool host serving a principal's requests together, while it serves any. */
  private readonly sharingHosts = new Map<string, PoolHost>();
  private readonly running = new Set<Lease>();
  private readonly parked = new Map<string, Lease>();
  /** Requests waiting for a host, first come first served. */
  private readonly waiting: Waiter[] = [];
  private readonly maxHosts: number;
  private readonly parkMs: number;
  private readonly forwardRoots: boolean;
  private count = 0;

  /**
   * @param makeState A new host, routing its upstreams' questions by calls in flight until the
   *   front names an owner (`state.router.owner`).
   * @param shared The gateway's shared host, when it has one: every 2026 request runs on it, at
   *   once, and an upstream's question goes to the one request with a call in flight on that
   *   upstream (refused when several have), as for a shared gateway's sessions.
   */
  constructor(
    private readonly makeState: () => SessionState,
    options: ModernFrontOptions & {
      /** The gateway's `forwardRoots`: then a client that declared `roots` gets a host to itself. */
      forwardRoots?: boolean | undefined;
    } = {},
    private readonly shared?: SessionState,
  ) {
    this.maxHosts = options.maxHosts ?? 8;
    this.parkMs = options.parkMs ?? 300_000;
    this.forwardRoots = options.forwardRoots ?? false;
  }

  /** The hosts of the pool, leased or idle. */
  hosts(): McpHost[] {
    return [...this.pool].map((host) => host.state.host);
  }

  /**
   * Serves one round of a 2026 request: starts `work` on a leased host (first round) or resumes
   * the parked one with the client's answers (retry), then answers with the result, or
   * `input_required` with the upstream's open questions.
   *
   * @throws {McpError} `-32602` for a `requestState` the gateway no longer holds.
   */
  run<T>(ctx: RequestContext, work: ModernWork<T>): Promise<T | Record<string, unknown>> {
    try {
      const lease = ctx.requestState === undefined ? this.acquire(ctx, work) : this.resume(ctx);
      if (!(lease instanceof Promise)) return this.serve(ctx, lease);
      return lease.then((leased) => this.serve(ctx, leased));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Cancels every upstream call and closes every host of the pool. */
  async close(): Promise<void> {
    const closing = new McpError(ErrorCode.InternalError, 'The gateway is closing');
    for (const lease of [...this.running, ...this.parked.values()]) {
      clearTimeout(lease.timer);
      lease.caller.cancel.stop(closing);
    }
    this.parked.clear();
    await Promise.allSettled([...this.pool].map((host) => host.state.host.close()));
  }

  /** One round on `lease`: the result, or the open questions as `input_required`. */
  private async serve<T>(ctx: RequestContext, lease: Lease): Promise<T | Record<string, unknown>> {
    const caller = lease.caller;
    const wake = await caller.round(ctx);
    if (wake === 'cancelled') {
      // The client gave up on this round: the upstream call is cancelled, and the host freed once it ends.
      caller.endRound();
      caller.cancel.stop(ctx.cancellation.stopReason);
      caller.whenSettled(() => this.release(lease));
      throw ctx.cancellation.stopReason;
    }
    if (wake === 'settled') {
      const outcome = caller.outcome!;
      this.release(lease);
      if ('error' in outcome) throw outcome.error;
      return outcome.value as T;
    }
    caller.endRound();
    const id = crypto.randomUUID();
    this.parked.set(id, lease);
    lease.timer = setTimeout(() => this.expire(id), this.parkMs);
    return { resultType: 'input_required', inputRequests: caller.inputRequests(), requestState: id };
  }

  private acquire<T>(ctx: RequestContext, work: ModernWork<T>): Lease | Promise<Lease> {
    if (this.shared) {
      const caller = new RoundCaller(`modern:${++this.count}`);
      return this.begin({ host: undefined, state: this.shared, caller, timer: undefined }, work);
    }
    const principal = principalOf(ctx);
    const sharing = !this.askable(ctx.scope.clientCapabilities as ClientCapabilities);
    const host =
      (sharing ? this.sharingHosts.get(principal) : undefined) ??
      this.takeIdle(principal) ??
      this.create(principal) ??
      this.takeIdle(undefined);
    if (host) return this.begin(this.lease(host, principal, sharing), work);
    return this.wait(ctx.cancellation, principal, sharing).then((lease) => this.begin(lease, work));
  }

  /** Whether an upstream could ask a client with `capabilities` anything. */
  private askable(capabilities: ClientCapabilities): boolean {
    return (
      capabilities.elicitation !== undefined ||
      capabilities.sampling !== undefined ||
      (this.forwardRoots && capabilities.roots !== undefined)
    );
  }

  private begin<T>(lease: Lease, work: ModernWork<T>): Lease {
    this.running.add(lease);
    lease.caller.start(work(lease.state, lease.caller));
    return lease;
  }

  /**
   * A request of `principal` on `host`: alone (the host's questions go to it), or together with
   * the principal's other requests that can be asked nothing. A host that served someone else
   * is closed and started afresh.
   */
  private lease(host: PoolHost, principal: string, sharing: boolean): Lease {
    if (host.principal !== principal) {
      void host.state.host.close();
      host.state = this.makeState();
      host.principal = principal;
    }
    const caller = new RoundCaller(`modern:${++this.count}`);
    host.users++;
    host.sharing = sharing;
    host.state.router.owner = sharing ? undefined : caller;
    if (sharing) this.sharingHosts.set(principal, host);
    return { host, state: host.state, caller, timer: undefined };
  }

  /** An idle host of `principal` (of anyone's, when `undefined`), taken out of the idle list. */
  private takeIdle(principal: string | undefined): PoolHost | undefined {
    const idle = this.idle;
    if (idle.length === 0) return undefined;
    // The last released first: most often the one a principal just used.
    const last = idle[idle.length - 1]!;
    if (principal === undefined || last.principal === principal) return idle.pop();
    const index = idle.findIndex((host) => host.principal === principal);
    return index < 0 ? undefined : idle.splice(index, 1)[0];
  }

  /** A new host for the pool, unless it is full. */
  private create(principal: string): PoolHost | undefined {
    if (this.pool.size >= this.maxHosts) return undefined;
    const host: PoolHost = { state: this.makeState(), principal, users: 0, sharing: false };
    this.pool.add(host);
    return host;
  }

  /**
   * Waits for a host to be released; a request cancelled meanwhile gives up its place. Listens on
   * the request's cancellation rather than `ctx.signal`, which would make an `AbortController` for
   * every request that waits (most of them, when the pool is busy).
   */
  private wait(cancellation: CancelSource, principal: string, sharing: boolean): Promise<Lease> {
    return new Promise<Lease>((resolve, reject) => {
      if (cancellation.stopped) return reject(cancellation.stopReason);
      const gaveUp = (reason: unknown): void => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(reason);
      };
      const waiter: Waiter = {
        principal,
        sharing,
        take: (lease) => {
          cancellation.removeCancelListener(gaveUp);
          resolve(lease);
        },
      };
      this.waiting.push(waiter);
      cancellation.addCancelListener(gaveUp);
    });
  }

  private resume(ctx: RequestContext): Lease {
    const id = ctx.requestState!;
    const lease = this.parked.get(id);
    if (!lease) {
      throw new McpError(
        ErrorCode.InvalidParams,
        'This input-required round is over (answered, or not retried in time): send the request again without requestState',
      );
    }
    this.parked.delete(id);
    clearTimeout(lease.timer);
    lease.caller.answer(ctx.inputResponses);
    return lease;
  }

  private expire(id: string): void {
    const lease = this.parked.get(id);
    if (!lease) return;
    this.parked.delete(id);
    lease.caller.cancel.stop(new McpError(ErrorCode.RequestTimeout, 'The client did not answer in time'));
    lease.caller.whenSettled(() => this.release(lease));
  }

  private release(lease: Lease): void {
    lease.caller.reset(overError);
    // A task the request started still runs on this host: it is free once the task ends.
    lease.caller.whenFree(() => this.free(lease));
  }

  private free(lease: Lease): void {
    this.running.delete(lease);
    const host = lease.host;
    if (!host || --host.users > 0) return;
    if (host.sharing) this.sharingHosts.delete(host.principal);
    // Between requests, an upstream's question has no one to go to: refused, never kept for the next.
    host.state.router.owner = undefined;
    if (this.waiting.length === 0) {
      this.idle.push(host);
      return;
    }
    // A waiter of the same principal first; else the first in line (its lease restarts the host).
    const index = this.waiting.findIndex((waiter) => waiter.principal === host.principal);
    const next = this.waiting.splice(index < 0 ? 0 : index, 1)[0]!;
    next.take(this.lease(host, next.principal, next.sharing));
    if (next.sharing) this.joinWaiting(host);
  }

  /** The waiting requests of a sharing host's principal that can be asked nothing join it. */
  private joinWaiting(host: PoolHost): void {
    for (let index = 0; index < this.waiting.length; ) {
      const waiter = this.waiting[index]!;
      if (waiter.sharing && waiter.principal === host.principal) {
        this.waiting.splice(index, 1);
        waiter.take(this.lease(host, host.principal, true));
      } else index++;
    }
  }
}

function overError(): Error {
  return new McpError(ErrorCode.InternalError, 'The request this question belonged to is over');
}

/**
 * Who a request comes from, for sharing hosts: the token's subject (with its client), else its
 * client, else the token itself (kept in memory only); `''` for every anonymous request.
 */
function principalOf(ctx: RequestContext): string {
  const auth = ctx.authInfo;
  if (!auth) return '';
  const subject = auth.extra?.sub;
  if (typeof subject === 'string') return `sub:${auth.clientId ?? ''}:${subject}`;
  if (auth.clientId !== undefined) return `client:${auth.clientId}`;
  return `token:${auth.token ?? ''}`;
}
