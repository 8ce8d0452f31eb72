/**
 * The deadline guard: a server-side time limit per tool call. Past it the handler's signal
 * (`ctx.signal`) aborts, and the caller gets `McpError(-32001, …, { timeoutMs })` at once, without
 * waiting for the handler to notice. Whatever the handler returns later is dropped. One timer serves
 * every pending deadline (armed for the earliest), not one per call.
 * @module
 */
import { DeadlineTimer } from '@mcpkit/core';
import type { ServerMiddleware } from '../middleware/context.js';
import type { ToolCall } from '../middleware/hooks.js';
import { onCallTool } from '../middleware/hooks.js';
import { deadlinePassed } from './errors.js';

/** Options of {@link deadline}. */
export interface DeadlineOptions {
  /** The time limit of every tool, in milliseconds. Default 60,000; `0` means none. */
  ms?: number;
  /** Limits of single tools by name, overriding `ms` (`0`: none for that tool). */
  tools?: Readonly<Record<string, number>>;
}

interface Pending {
  readonly at: number;
  readonly expire: () => void;
}

/**
 * A time limit on tool calls.
 *
 * @throws {TypeError} for a negative or non-finite limit.
 * @example
 * ```ts
 * import { deadline } from '@mcpkit/server/guards';
 * server.use(deadline({ ms: 30_000, tools: { build_report: 300_000 } }));
 * ```
 */
export function deadline(options: DeadlineOptions = {}): ServerMiddleware {
  const fallback = checked(options.ms ?? 60_000, 'ms');
  const perTool = new Map(Object.entries(options.tools ?? {}).map(([name, ms]) => [name, checked(ms, name)]));
  const pending = new Set<Pending>();
  const timer = new DeadlineTimer((now) => {
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of pending) {
      if (entry.at <= now) {
        pending.delete(entry);
        entry.expire();
      } else if (entry.at < earliest) earliest = entry.at;
    }
    return earliest;
  });

  return onCallTool((call: ToolCall, next) => {
    const limit = perTool.get(call.name) ?? fallback;
    if (limit === 0) return next();
    return new Promise((resolve, reject) => {
      const entry: Pending = {
        at: Date.now() + limit,
        expire: () => {
          call.ctx.request.request.abort(deadlinePassed(call.name, limit));
          reject(deadlinePassed(call.name, limit));
        },
      };
      pending.add(entry);
      timer.schedule(entry.at);
      next().then(
        (result) => {
          pending.delete(entry);
          resolve(result);
        },
        (error: unknown) => {
          pending.delete(entry);
          reject(error);
        },
      );
    });
  });
}

function checked(ms: number, what: string): number {
  if (!(ms >= 0) || !Number.isFinite(ms))
    throw new TypeError(`deadline: the limit of ${what} must be a number of ms >= 0`);
  return ms;
}
