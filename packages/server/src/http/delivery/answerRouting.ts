/**
 * Which answers are this node's: when a session store routes the client's answers to
 * server-to-client requests between nodes, each copy of a session remembers the ids of the
 * requests it sent and still waits for, so it takes only its own answers and forwards the rest.
 * @module
 */
import type { RequestId } from '@mcpkit/core';

/** Requests to the client remembered per session when answers are routed between nodes. */
const MAX_AWAITING = 256;

/**
 * The requests one copy of a session sent to the client and still waits for.
 *
 * @example
 * ```ts
 * const routing = new AnswerRouting();
 * routing.await(7);
 * routing.claim({ jsonrpc: '2.0', id: 7, result: {} }); // true: the answer is this copy's
 * ```
 */
export class AnswerRouting {
  private readonly awaiting = new Set<RequestId>();

  /** Remembers a request sent to the client. */
  await(id: RequestId): void {
    this.awaiting.add(id);
    // Answers that never come (timeouts, cancellations) must not pile up.
    if (this.awaiting.size > MAX_AWAITING) this.awaiting.delete(this.awaiting.values().next().value!);
  }

  /**
   * Whether `value` (a body of responses only) answers requests this copy sent, all of them; when
   * it does, they are no longer awaited.
   */
  claim(value: unknown): boolean {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    const ids: RequestId[] = [];
    for (const item of items) {
      const id = (item as { id?: unknown }).id;
      if ((typeof id !== 'string' && typeof id !== 'number') || !this.awaiting.has(id)) return false;
      ids.push(id);
    }
    for (const id of ids) this.awaiting.delete(id);
    return true;
  }
}
