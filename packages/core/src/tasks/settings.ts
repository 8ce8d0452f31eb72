/**
 * What both task receivers (the server's `TaskManager`, the client's `ClientTaskReceiver`) take
 * from their options the same way. Reached through `@mcpkit/core/internal`; not public.
 * @module
 */
import { InMemoryTaskStore } from './memoryStore.js';
import { type TaskTtlLimits, ttlGranter } from './receiver.js';
import type { TaskStore } from './store.js';

/** How often a requestor is told to poll, when the receiver's options do not say. */
const DEFAULT_POLL_INTERVAL = 1_000;

/**
 * A receiver's store (its own in-memory one unless given), its TTL rule and its poll interval.
 *
 * @example
 * ```ts
 * const { store, ownsStore, grantTtl, pollInterval } = receiverSettings({ maxTtl: 600_000 });
 * ```
 */
export function receiverSettings(options: TaskTtlLimits & { store?: TaskStore; pollInterval?: number }): {
  store: TaskStore;
  /** True when the receiver made the store, so closing the receiver closes it. */
  ownsStore: boolean;
  grantTtl: (requested: number | undefined) => number;
  pollInterval: number;
} {
  return {
    store: options.store ?? new InMemoryTaskStore(),
    ownsStore: options.store === undefined,
    grantTtl: ttlGranter(options),
    pollInterval: options.pollInterval ?? DEFAULT_POLL_INTERVAL,
  };
}
