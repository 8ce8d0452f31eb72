/**
 * What delivery needs from the cluster code (fail-over of a call whose node died, the one GET
 * stream across nodes) without importing it: the session store's code brings the implementation
 * (`sessions/rerun.ts`), so a single-node bundle carries only these types.
 * @module
 */
import type { JsonRpcRequest, RequestId } from '@mcpkit/core';
import type { ClassifiedBody } from '@mcpkit/core/internal';

/** Drops what the first run of a call stored already, when the call runs again on another node. */
export interface RerunFilter {
  /** The first run answered already: nothing needs to run again. */
  readonly answered: boolean;
  /** Whether the second run's message `data` repeats the first run's (it is then not sent). */
  repeats(data: string): boolean;
}

/**
 * What a session transport uses only when it is one copy of a clustered session, handed to it by
 * the session store's code so that single-node bundles do not carry it.
 *
 * @example
 * ```ts
 * declare const cluster: ClusterSupport;
 * declare const body: ClassifiedBody;
 * const request = cluster.claimable(body); // the request another node could run again
 * ```
 */
export interface ClusterSupport {
  claimable(body: ClassifiedBody): JsonRpcRequest | undefined;
  /** The body of a serialized request (`undefined` when it is not JSON). */
  parse(text: string): ClassifiedBody | undefined;
  rerunFilter(requestId: RequestId, earlier: readonly string[]): RerunFilter;
  /** Runs a store call; a failure becomes `SessionStoreUnavailable` (503). */
  guarded<T>(call: () => T | Promise<T>): Promise<T>;
}
