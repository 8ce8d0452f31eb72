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
 * An upstream's question cannot be sent to a 2026 client as a request: the gateway answers the
 * downstream request `input_required` with the question, and keeps the upstream call running,
 * parked under a random id that goes into `requestState` (sealed by the server's MRTR runner with
 * the params and the principal, so a client cannot alter it or use another's). The client's retry
 * brings the answer; the gateway hands it to the waiting upstream and waits again, for the result
 * or the next question. A round not retried within `parkMs` cancels the upstream call.
 * @module
 */
import {
  type ClientCapabilities,
  ErrorCode,
  type LoggingLevel,
  McpError,
  type OutgoingRequestOptions,
} from '@mcpkit/core';
import type { RequestContext } from '@mcpkit/server';
import type { McpHost } from '../host.js';
import type { SessionState } from './handlers.js';
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

/** The work of one request on a leased host, cancelled by `signal` (the lease's, not the round's). */
export type ModernWork<T> = (state: SessionState, signal: AbortSignal) => Promise<T>;

interface Question {
  readonly method: string;
  readonly params: Record<string, unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The caller behind a leased host: its questions are collected for the next input-required round. */
class RoundCaller implements Downstream {
  readonly closed = false;
  /** The request being served now (each round is a new one). */
  ctx: RequestContext | undefined;
  private readonly open = new Map<string, Question>();
  private next = 0;
  private wake: (() => void) | undefined;

  constructor(readonly key: string) {}

  get clientCapabilities(): ClientCapabilities {
    return (this.ctx?.scope.clientCapabilities ?? {}) as ClientCapabilities;
  }

  request<R>(method: string, params?: object, options?: OutgoingRequestOptions): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const key = `${this.next++}`;
      const question: Question = {
        method,
        params: { ...(params as Record<string, unknown>) },
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      this.open.set(key, question);
      options?.signal?.addEventListener(
        'abort',
        () => {
          if (this.open.delete(key)) reject(options.signal?.reason);
        },
        { once: true },
      );
      this.wake?.();
    });
  }

  /** List changes reach 2026 clients through `subscriptions/listen`, which the gateway does not feed yet. */
  notify(): void {}

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.ctx?.sendLog(level, data, logger);
  }

  /** Resolves once a question is open. */
  asked(): Promise<'asked'> {
    if (this.open.size > 0) return Promise.resolve('asked');
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve('asked');
      };
    });
  }

  /** The open questions, as `inputRequests`. */
  inputRequests(): Record<string, { method: string; params: Record<string, unknown> }> {
    const requests: Record<string, { method: string; params: Record<string, unknown> }> = {};
    for (const [key, { method, params }] of this.open) requests[key] = { method, params };
    return requests;
  }

  /** Hands the client's answers to the questions they answer; the others stay open. */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, question] of this.open) {
      if (!responses || !Object.hasOwn(responses, key)) continue;
      this.open.delete(key);
      question.resolve(responses[key]);
    }
  }

  /** Refuses every open question (the request is over). */
  reset(reason: Error): void {
    for (const question of this.open.values()) question.reject(reason);
    this.open.clear();
    this.wake = undefined;
    this.ctx = undefined;
  }
}

interface Lease {
  state: SessionState;
  /** Whose requests this host serves (see the module documentation). */
  principal: string;
  readonly caller: RoundCaller;
  controller: AbortController;
  outcome: Promise<{ value: unknown } | { error: unknown }> | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The hosts serving 2026 requests, leased one request at a time.
 *
 * @example
 * ```ts
 * declare const makeState: (caller: Downstream) => SessionState;
 * declare const ctx: RequestContext;
 * const front = new ModernFront(makeState);
 * const result = await front.run(ctx, (state, signal) => state.host.callTool('echo', {}, { signal }));
 * ```
 */
export class ModernFront {
  private readonly idle: Lease[] = [];
  private readonly leases = new Set<Lease>();
  private readonly parked = new Map<string, Lease>();
  /** Requests waiting for a host, first come first served. */
  private readonly waiting: Array<{ signal: AbortSignal; principal: string; take: (lease: Lease) => void }> =
    [];
  private readonly maxHosts: number;
  private readonly parkMs: number;
  private count = 0;

  constructor(
    private readonly makeState: (caller: Downstream) => SessionState,
    options: ModernFrontOptions = {},
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
  async run<T>(ctx: RequestContext, work: ModernWork<T>): Promise<T | Record<string, unknown>> {
    const lease = ctx.requestState === undefined ? await this.acquire(ctx, work) : this.resume(ctx);
    lease.caller.ctx = ctx;
    const cancel = cancellation(ctx.signal);
    const next = await Promise.race([lease.outcome!, lease.caller.asked(), cancel.promise]).finally(
      cancel.stop,
    );
    if (next === 'cancelled') {
      // The client gave up on this round: the upstream call is cancelled, and the host freed once it ends.
      lease.controller.abort(ctx.signal.reason);
      void lease.outcome!.then(() => this.release(lease));
      throw ctx.signal.reason;
    }
    if (next !== 'asked') {
      this.release(lease);
      if ('error' in next) throw next.error;
      return next.value as T;
    }
    const id = crypto.randomUUID();
    this.parked.set(id, lease);
    lease.timer = setTimeout(() => this.expire(id), this.parkMs);
    return { resultType: 'input_required', inputRequests: lease.caller.inputRequests(), requestState: id };
  }

  /** Cancels every upstream call and closes every host of the pool. */
  async close(): Promise<void> {
    for (const lease of this.leases) {
      clearTimeout(lease.timer);
      lease.controller.abort(new McpError(ErrorCode.InternalError, 'The gateway is closing'));
    }
    this.parked.clear();
    await Promise.allSettled([...this.leases].map((lease) => lease.state.host.close()));
  }

  private async acquire<T>(ctx: RequestContext, work: ModernWork<T>): Promise<Lease> {
    const principal = principalOf(ctx);
    const lease =
      this.takeIdle(principal) ??
      this.create(principal) ??
      this.takeIdle(undefined) ??
      (await this.wait(ctx.signal, principal));
    this.bind(lease, principal);
    lease.outcome = work(lease.state, lease.controller.signal).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return lease;
  }

  /** An idle host of `principal` (of anyone's, when `undefined`), taken out of the idle list. */
  private takeIdle(principal: string | undefined): Lease | undefined {
    const index = this.idle.findIndex((lease) => principal === undefined || lease.principal === principal);
    return index < 0 ? undefined : this.idle.splice(index, 1)[0];
  }

  /** Gives `lease` to `principal`: a host that served someone else is closed and started afresh. */
  private bind(lease: Lease, principal: string): void {
    if (lease.principal === principal) return;
    void lease.state.host.close();
    lease.state = this.makeState(lease.caller);
    lease.principal = principal;
  }

  /** A new host for the pool, unless it is full. */
  private create(principal: string): Lease | undefined {
    if (this.leases.size >= this.maxHosts) return undefined;
    const caller = new RoundCaller(`modern:${++this.count}`);
    const lease: Lease = {
      state: this.makeState(caller),
      principal,
      caller,
      controller: new AbortController(),
      outcome: undefined,
      timer: undefined,
    };
    this.leases.add(lease);
    return lease;
  }

  /** Waits for a host to be released; a request cancelled meanwhile gives up its place. */
  private wait(signal: AbortSignal, principal: string): Promise<Lease> {
    return new Promise<Lease>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const waiter = { signal, principal, take: resolve };
      this.waiting.push(waiter);
      signal.addEventListener(
        'abort',
        () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal.reason);
        },
        { once: true },
      );
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
    lease.controller.abort(new McpError(ErrorCode.RequestTimeout, 'The client did not answer in time'));
    void lease.outcome!.then(() => this.release(lease));
  }

  private release(lease: Lease): void {
    lease.caller.reset(
      new McpError(ErrorCode.InternalError, 'The request this question belonged to is over'),
    );
    lease.outcome = undefined;
    if (lease.controller.signal.aborted) lease.controller = new AbortController();
    // A waiter of the same principal first; else the first in line (its `bind` restarts the host).
    const index = this.waiting.findIndex((waiter) => waiter.principal === lease.principal);
    const next = this.waiting.splice(index < 0 ? 0 : index, 1)[0];
    if (next) next.take(lease);
    else this.idle.push(lease);
  }
}

/** Resolves `'cancelled'` when `signal` aborts, until `stop()`. */
function cancellation(signal: AbortSignal): { promise: Promise<'cancelled'>; stop: () => void } {
  let stop = (): void => {};
  const promise = new Promise<'cancelled'>((resolve) => {
    if (signal.aborted) return resolve('cancelled');
    const onAbort = () => resolve('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
    stop = () => signal.removeEventListener('abort', onAbort);
  });
  return { promise, stop };
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
