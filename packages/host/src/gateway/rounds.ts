/**
 * The caller of one 2026-07-28 request at the gateway, across its input-required rounds: the
 * upstream's questions are collected for the next round, its progress and log messages go to the
 * round being served now, and the whole call is cancelled through a {@link CallCancel}. Nothing
 * here makes a timer, an `AbortController` or a promise per request beyond the one the round
 * waits on.
 * @module
 */
import type { CancelSource, ClientCapabilities, LoggingLevel, OutgoingRequestOptions } from '@mcpkit/core';
import type { RequestContext } from '@mcpkit/server';
import type { Downstream } from './router.js';

/**
 * The cancellation of one upstream call across its rounds (a round's own request ends with the
 * round). Never reused once stopped: a signal made for it (`signalOf`) would stay aborted.
 *
 * @example
 * ```ts
 * const cancel = new CallCancel();
 * cancel.stop(new Error('gone')); // the upstream requests made with `cancelledBy: cancel` are cancelled
 * ```
 */
export class CallCancel implements CancelSource {
  stopped = false;
  stopReason: unknown;
  private listeners: Array<(reason: unknown) => void> | undefined;

  addCancelListener(listener: (reason: unknown) => void): void {
    if (this.listeners) this.listeners.push(listener);
    else this.listeners = [listener];
  }

  removeCancelListener(listener: (reason: unknown) => void): void {
    const at = this.listeners ? this.listeners.indexOf(listener) : -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  /** Cancels every request made on its behalf. */
  stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopReason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
  }
}

/** What ended a round's wait. */
export type Wake = 'asked' | 'settled' | 'cancelled';

/** How an upstream call ended. */
export type Outcome = { value: unknown } | { error: unknown };

interface Question {
  readonly method: string;
  readonly params: Record<string, unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The caller behind a 2026 request's upstream call (see the module documentation).
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * const caller = new RoundCaller('modern:1');
 * caller.start(Promise.resolve({ content: [] }));
 * await caller.round(ctx); // 'settled'
 * ```
 */
export class RoundCaller implements Downstream {
  readonly closed = false;
  /** The round being served now; `undefined` between rounds. */
  ctx: RequestContext | undefined;
  /** The upstream call's end, once it ended. */
  outcome: Outcome | undefined;
  /** The call's cancellation (replaced when the caller serves another call after a stop). */
  cancel = new CallCancel();
  private open: Map<string, Question> | undefined;
  private next = 0;
  private wake: ((why: Wake) => void) | undefined;
  private afterSettle: (() => void) | undefined;
  /** A task of the request's, running after its answer (see {@link hold}). */
  private held: Promise<void> | undefined;
  /** Where the upstream's questions go while {@link held}: the task's own channel to the client. */
  private heldVia: Downstream | undefined;
  /** Bound once: the round's request was cancelled. */
  private readonly roundCancelled = (): void => this.wakeUp('cancelled');

  constructor(readonly key: string) {}

  get clientCapabilities(): ClientCapabilities {
    return (this.ctx?.scope.clientCapabilities ??
      this.heldVia?.clientCapabilities ??
      {}) as ClientCapabilities;
  }

  /** Follows `work`, the upstream call: its end wakes the round. */
  start(work: Promise<unknown>): void {
    this.outcome = undefined;
    work.then(
      (value) => this.settle({ value }),
      (error: unknown) => this.settle({ error }),
    );
  }

  /**
   * Keeps the caller (and its host) busy with `work`, a task started for the request, after the
   * request is answered: the caller is released once `work` ends. What the upstream asks
   * meanwhile has no round to go to: it goes to `via`, the task's context (under the tasks
   * extension, an entry of the task's `inputRequests`, answered by `tasks/update`).
   */
  hold(work: Promise<unknown>, via: Downstream): void {
    this.heldVia = via;
    this.held = work.then(ignore, ignore);
  }

  /** Runs `then` once nothing holds the caller any more. */
  whenFree(then: () => void): void {
    const held = this.held;
    if (!held) {
      then();
      return;
    }
    void held.then(() => {
      if (this.held === held) {
        this.held = undefined;
        this.heldVia = undefined;
      }
      then();
    });
  }

  /** Serves the round `ctx`: resolves once a question is open, the call ended, or `ctx` is cancelled. */
  round(ctx: RequestContext): Promise<Wake> | Wake {
    this.ctx = ctx;
    if (this.outcome) return 'settled';
    if (this.open?.size) return 'asked';
    const source = ctx.cancellation;
    if (source.stopped) return 'cancelled';
    source.addCancelListener(this.roundCancelled);
    return new Promise<Wake>((resolve) => {
      this.wake = resolve;
    });
  }

  /** The round was answered: until the next one, progress and log messages have nowhere to go. */
  endRound(): void {
    this.ctx = undefined;
  }

  request<R>(method: string, params?: object, options?: OutgoingRequestOptions): Promise<R> {
    const via = this.heldVia;
    if (via) return via.request<R>(method, params, options);
    return new Promise<R>((resolve, reject) => {
      const key = `${this.next++}`;
      const question: Question = {
        method,
        params: { ...(params as Record<string, unknown>) },
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      this.open ??= new Map();
      this.open.set(key, question);
      options?.signal?.addEventListener(
        'abort',
        () => {
          if (this.open?.delete(key)) reject(options.signal?.reason);
        },
        { once: true },
      );
      this.wakeUp('asked');
    });
  }

  /** List changes reach 2026 clients through `subscriptions/listen` (see the gateway). */
  notify(): void {}

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.ctx?.sendLog(level, data, logger);
  }

  /** The upstream's progress, to the round being served, if it asked for progress. */
  progress(progress: number, total?: number, message?: string): void {
    const ctx = this.ctx;
    if (ctx?.meta?.progressToken !== undefined) void ctx.progress(progress, total, message);
  }

  /** The open questions, as `inputRequests`. */
  inputRequests(): Record<string, { method: string; params: Record<string, unknown> }> {
    const requests: Record<string, { method: string; params: Record<string, unknown> }> = {};
    for (const [key, { method, params }] of this.open ?? []) requests[key] = { method, params };
    return requests;
  }

  /** Hands the client's answers to the questions they answer; the others stay open. */
  answer(responses: Record<string, unknown> | undefined): void {
    if (!this.open || !responses) return;
    for (const [key, question] of this.open) {
      if (!Object.hasOwn(responses, key)) continue;
      this.open.delete(key);
      question.resolve(responses[key]);
    }
  }

  /** Refuses every open question (the request is over); `reason` is made only if one is open. */
  reset(reason: () => Error): void {
    if (this.open?.size) {
      const error = reason();
      for (const question of this.open.values()) question.reject(error);
      this.open.clear();
    }
    this.ctx = undefined;
  }

  /** Runs `then` once the upstream call ended (at once if it has). */
  whenSettled(then: () => void): void {
    if (this.outcome) then();
    else this.afterSettle = then;
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    this.wakeUp('settled');
    const then = this.afterSettle;
    this.afterSettle = undefined;
    then?.();
  }

  private wakeUp(why: Wake | undefined): void {
    const wake = this.wake;
    if (!wake) return;
    this.wake = undefined;
    this.ctx?.cancellation.removeCancelListener(this.roundCancelled);
    if (why) wake(why);
  }
}

function ignore(): void {}
