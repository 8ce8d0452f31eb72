/**
 * Running a call again on another node after the node running it died (cluster fail-over, see
 * `EventStore.claimStream`). The first run's messages are in the call's stream, and the client
 * has some of them: the second run must not send them again. Two rules, both exact for a
 * handler that does the same thing when run again:
 * - a message identical to one the first run stored is dropped, as many times as it was stored;
 * - a progress notification whose progress is not above the last one stored for its token is
 *   dropped (the spec has progress increase with every notification, so it cannot be new).
 * @module
 */
import type { JsonRpcRequest, RequestId } from '@mcpkit/core';
import { type ClassifiedBody, classifyBody } from '@mcpkit/core/internal';
import type { ClusterSupport, RerunFilter as RerunFilterLike } from '../delivery/clusterSeam.js';
import { guarded } from './storeErrors.js';

const PROGRESS = 'notifications/progress';

export class RerunFilter implements RerunFilterLike {
  /** The first run answered already: nothing needs to run again. */
  readonly answered: boolean;
  /** Stored messages not yet matched by the second run, with their counts. */
  private readonly pending = new Map<string, number>();
  /** The highest progress stored per progress token. */
  private readonly progress = new Map<unknown, number>();

  constructor(requestId: RequestId, earlier: readonly string[]) {
    let answered = false;
    for (const data of earlier) {
      this.pending.set(data, (this.pending.get(data) ?? 0) + 1);
      const message = parse(data);
      if (message && !('method' in message) && message.id === requestId) answered = true;
      const step = progressOf(message);
      if (step && step.value > (this.progress.get(step.token) ?? Number.NEGATIVE_INFINITY))
        this.progress.set(step.token, step.value);
    }
    this.answered = answered;
  }

  /** Whether the second run's message `data` repeats the first run's (it is then not sent). */
  repeats(data: string): boolean {
    const count = this.pending.get(data);
    if (count !== undefined) {
      if (count > 1) this.pending.set(data, count - 1);
      else this.pending.delete(data);
      return true;
    }
    // Only progress needs parsing: the substring test keeps the other messages cheap.
    if (!data.includes(PROGRESS)) return false;
    const step = progressOf(parse(data));
    if (!step) return false;
    const last = this.progress.get(step.token);
    if (last !== undefined && step.value <= last) return true;
    this.progress.set(step.token, step.value);
    return false;
  }
}

/**
 * The request of a body that can be run again elsewhere: a single request (not a batch, whose
 * answers share one stream), other than `initialize` (which a restored session never repeats).
 */
export function claimableRequest(body: ClassifiedBody): JsonRpcRequest | undefined {
  const kind = body.kinds[0];
  if (body.batch || kind?.kind !== 'request' || kind.message.method === 'initialize') return undefined;
  return kind.message;
}

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function progressOf(
  message: Record<string, unknown> | undefined,
): { token: unknown; value: number } | undefined {
  if (message?.method !== PROGRESS) return undefined;
  const params = message.params as { progressToken?: unknown; progress?: unknown } | undefined;
  if (typeof params?.progress !== 'number') return undefined;
  return { token: params.progressToken, value: params.progress };
}

/** The {@link ClusterSupport} of the session store's code. */
export const CLUSTER_SUPPORT: ClusterSupport = {
  claimable: claimableRequest,
  parse: (text) => {
    const value = parse(text);
    return value && classifyBody(value);
  },
  rerunFilter: (requestId, earlier) => new RerunFilter(requestId, earlier),
  guarded,
};
