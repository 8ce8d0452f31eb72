/**
 * Several observers as one, each keeping its own `state` slot on the messages it sees.
 * @module
 */
import type { ObservedMessage, ObservedRequest, Observer } from './observer.js';

/**
 * One observer that forwards to each of `observers` in order (`undefined` entries are skipped);
 * `runHandler` nests, the first outermost. Each observer keeps its own `state` on a request or
 * notification: the combination holds one slot per observer and shows each its own during its calls.
 *
 * @example
 * ```ts
 * declare const tracing: Observer; // e.g. createOtelObserver() from @mcpkit/otel
 * declare const metrics: Observer; // e.g. createPrometheusMetrics().observer from @mcpkit/node/metrics
 * const observer = combineObservers(tracing, metrics);
 * ```
 */
export function combineObservers(...observers: Array<Observer | undefined>): Observer | undefined {
  const list = observers.filter((o): o is Observer => o !== undefined);
  if (list.length <= 1) return list[0];
  const runners = list.flatMap((o, index) => (o.runHandler ? [index] : []));
  const combined: Observer = {
    requestStarted: (request) => start(list, request, (o) => o.requestStarted?.(request)),
    runHandler: <T>(message: ObservedMessage, handler: () => T): T => {
      const slots = message.state as unknown[];
      let run = handler;
      for (let r = runners.length - 1; r >= 0; r--) {
        const inner = run;
        const index = runners[r]!;
        run = () => inSlot(message, slots, index, () => list[index]!.runHandler!(message, inner));
      }
      return run();
    },
    requestFinished: (request: ObservedRequest, outcome) =>
      each(list, request, (o) => o.requestFinished?.(request, outcome)),
    sessionOpened: (session) => {
      for (const o of list) o.sessionOpened?.(session);
    },
    sessionClosed: (session, durationMs) => {
      for (const o of list) o.sessionClosed?.(session, durationMs);
    },
    messageSize: (direction, bytes, session) => {
      for (const o of list) o.messageSize?.(direction, bytes, session);
    },
  };
  // Only when someone listens: the server writes errors to the console when nobody does.
  if (list.some((o) => o.error)) {
    combined.error = (error, session) => {
      for (const o of list) o.error?.(error, session);
    };
  }
  // Only when someone listens: the engine skips notifications when the member is absent.
  if (list.some((o) => o.notificationStarted || o.notificationFinished)) {
    combined.notificationStarted = (n) => start(list, n, (o) => o.notificationStarted?.(n));
    combined.notificationFinished = (n, durationMs) =>
      each(list, n, (o) => o.notificationFinished?.(n, durationMs));
  }
  return combined;
}

/** Gives `message` one state slot per observer, then calls `call` for each in its own slot. */
function start(list: readonly Observer[], message: ObservedMessage, call: (o: Observer) => void): void {
  message.state = new Array(list.length);
  each(list, message, call);
}

function each(list: readonly Observer[], message: ObservedMessage, call: (o: Observer) => void): void {
  const slots = message.state as unknown[];
  for (let i = 0; i < list.length; i++) inSlot(message, slots, i, () => call(list[i]!));
}

/** Calls `fn` with `message.state` set to slot `index`, keeps what it leaves there, restores. */
function inSlot<T>(message: ObservedMessage, slots: unknown[], index: number, fn: () => T): T {
  const outer = message.state;
  message.state = slots[index];
  try {
    return fn();
  } finally {
    slots[index] = message.state;
    message.state = outer;
  }
}
