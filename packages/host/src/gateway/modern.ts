/**
 * Revision 2026-07-28 at the gateway's front. A 2026 request has no session: each one is served
 * on a throwaway session, so the gateway's host-per-session would start every upstream for every
 * request. Instead a 2026 request leases a host from a small pool, alone, for as long as it runs:
 * whatever an upstream asks meanwhile (elicitation, sampling, roots) belongs to that request,
 * exactly, as with a host per session.
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
import { type CancelSource, ErrorCode, McpError } from '@mcpkit/core';
import type { RequestContext } from '@mcpkit/server';
import type { McpHost } from '../host.js';
import type { SessionState } from './handlers.js';
import { CallCancel, RoundCaller } from './rounds.js';
import type { Downstream } from './router.js';

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
   * Hosts (each with its own upstream connections) serving 2026 requests at once; more requests
   * wait for one to be free. Default 8.
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

/** A request waiting for a host of the pool. */
interface Waiter {
  readonly principal: string;
  take(lease: Lease): void;
}

interface Lease {
  state: SessionState;
  /** Whose requests this host serves (see the module documentation). */
  principal: string;
  readonly caller: RoundCaller;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** A host of the pool (returned to it after each request), or a request on the shared host. */
  readonly pooled: boolean;
}

/**
 * The hosts serving 2026 requests, leased one request at a time; or, for a gateway with shared
 * upstreams, its one host serving them all at once.
 *
 * @example
 * ```ts
 * declare const makeState: (caller: Downstream) => SessionState;
 * declare const ctx: RequestContext;
 * const front = new ModernFront(makeState);
 * const result = await front.run(ctx, (state, caller) =>
 *   state.host.callTool('echo', {}, { cancelledBy: caller.cancel }),
 * );
 * ```
 */
export class ModernFront {
  private readonly idle: Lease[] = [];
  private readonly leases = new Set<Lease>();
  private readonly parked = new Map<string, Lease>();
  /** Requests waiting for a host, first come first served. */
  private readonly waiting: Waiter[] = [];
  private readonly maxHosts: number;
  private readonly parkMs: number;
  private count = 0;

  /**
   * @param makeState A new host whose questions go to `caller`.
   * @param shared The gateway's shared host, when it has one: every 2026 request runs on it, at
   *   once, and an upstream's question goes to the one request with a call in flight on that
   *   upstream (refused when several have), as for a shared gateway's sessions.
   */
  constructor(
    private readonly makeState: (caller: Downstream) => SessionState,
    options: ModernFrontOptions = {},
    private readonly shared?: SessionState,
  ) {
    this.maxHosts = options.maxHosts ?? 8;
    this.parkMs = options.parkMs ?? 300_000;
  }

  /** The hosts of the pool, leased or idle. */
  hosts(): McpHost[] {
    return [...this.leases].map((lease) => lease.state.host);
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
    for (const lease of [...this.leases, ...this.parked.values()]) {
      clearTimeout(lease.timer);
      lease.caller.cancel.stop(closing);
    }
    this.parked.clear();
    await Promise.allSettled([...this.leases].map((lease) => lease.state.host.close()));
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
      return this.begin({ state: this.shared, principal: '', caller, timer: undefined, pooled: false }, work);
    }
    const principal = principalOf(ctx);
    const lease = this.takeIdle(principal) ?? this.create(principal) ?? this.takeIdle(undefined);
    if (lease) return this.begin(this.bind(lease, principal), work);
    return this.wait(ctx.cancellation, principal).then((waited) =>
      this.begin(this.bind(waited, principal), work),
    );
  }

  private begin<T>(lease: Lease, work: ModernWork<T>): Lease {
    lease.caller.start(work(lease.state, lease.caller));
    return lease;
  }

  /** An idle host of `principal` (of anyone's, when `undefined`), taken out of the idle list. */
  private takeIdle(principal: string | undefined): Lease | undefined {
    const idle = this.idle;
    if (idle.length === 0) return undefined;
    // The last released first: most often the one a principal just used.
    const last = idle[idle.length - 1]!;
    if (principal === undefined || last.principal === principal) return idle.pop();
    const index = idle.findIndex((lease) => lease.principal === principal);
    return index < 0 ? undefined : idle.splice(index, 1)[0];
  }

  /** Gives `lease` to `principal`: a host that served someone else is closed and started afresh. */
  private bind(lease: Lease, principal: string): Lease {
    if (lease.principal === principal) return lease;
    void lease.state.host.close();
    lease.state = this.makeState(lease.caller);
    lease.principal = principal;
    return lease;
  }

  /** A new host for the pool, unless it is full. */
  private create(principal: string): Lease | undefined {
    if (this.leases.size >= this.maxHosts) return undefined;
    const caller = new RoundCaller(`modern:${++this.count}`);
    const lease: Lease = { state: this.makeState(caller), principal, caller, timer: undefined, pooled: true };
    this.leases.add(lease);
    return lease;
  }

  /**
   * Waits for a host to be released; a request cancelled meanwhile gives up its place. Listens on
   * the request's cancellation rather than `ctx.signal`, which would make an `AbortController` for
   * every request that waits (most of them, when the pool is busy).
   */
  private wait(cancellation: CancelSource, principal: string): Promise<Lease> {
    return new Promise<Lease>((resolve, reject) => {
      if (cancellation.stopped) return reject(cancellation.stopReason);
      const gaveUp = (reason: unknown): void => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(reason);
      };
      const waiter: Waiter = {
        principal,
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
    const caller = lease.caller;
    caller.reset(overError);
    // A task the request started still runs on this host: it is free once the task ends.
    caller.whenFree(() => this.free(lease));
  }

  private free(lease: Lease): void {
    const caller = lease.caller;
    if (!lease.pooled) return;
    if (caller.cancel.stopped) caller.cancel = new CallCancel();
    // A waiter of the same principal first; else the first in line (its `bind` restarts the host).
    if (this.waiting.length > 0) {
      const index = this.waiting.findIndex((waiter) => waiter.principal === lease.principal);
      const next = this.waiting.splice(index < 0 ? 0 : index, 1)[0]!;
      next.take(lease);
    } else this.idle.push(lease);
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
