/**
 * Timing one operation and reporting it as one {@link AuditEvent}.
 * @module
 */
import type { CancelSource } from '@mcpkit/core';
import type { AuditContext, AuditEvent } from './types.js';

/** Where audit events go, and whether arguments are shown. */
export interface AuditSink {
  readonly emit: ((event: AuditEvent, context: AuditContext) => void) | undefined;
  /** In full (`true`), as `sha256:HEX` of their JSON, or `'[redacted]'` (`false`). */
  readonly showArguments: boolean | 'sha256';
}

/**
 * Runs `work` and emits one event for it (none when the host has no audit sink).
 *
 * @example
 * ```ts
 * const result = await audited(sink, { server, operation: 'resources/read', item: uri }, () => client.readResource(uri));
 * ```
 */
export async function audited<T>(
  sink: AuditSink,
  what: Pick<AuditEvent, 'server' | 'operation' | 'item'> & {
    arguments?: unknown;
    /** What it was made on behalf of (see {@link AuditContext}). */
    onBehalfOf?: CancelSource | undefined;
  },
  work: () => Promise<T>,
  outcomeOf: (result: T) => AuditEvent['outcome'] | { outcome: AuditEvent['outcome']; reason: string } = () =>
    'ok',
): Promise<T> {
  const emit = sink.emit;
  if (!emit) return work().catch(unwrapDenial);
  const started = Date.now();
  const report = async (outcome: AuditEvent['outcome'], reason?: string) => {
    const durationMs = Date.now() - started;
    const args = what.arguments === undefined ? undefined : await shown(what.arguments, sink.showArguments);
    emit(
      {
        time: new Date(started).toISOString(),
        server: what.server,
        operation: what.operation,
        item: what.item,
        decision: outcome === 'denied' ? 'denied' : 'allowed',
        outcome,
        durationMs,
        ...(reason === undefined ? {} : { reason }),
        ...(args === undefined ? {} : { arguments: args }),
      },
      { onBehalfOf: what.onBehalfOf },
    );
  };
  try {
    const result = await work();
    const outcome = outcomeOf(result);
    if (typeof outcome === 'string') await report(outcome);
    else await report(outcome.outcome, outcome.reason);
    return result;
  } catch (error) {
    const denied = error instanceof PolicyDenial;
    await report(denied ? 'denied' : 'error', error instanceof Error ? error.message : String(error));
    throw denied ? error.original : error;
  }
}

/** Arguments as an audit event shows them. */
async function shown(args: unknown, how: AuditSink['showArguments']): Promise<unknown> {
  if (how === true) return args;
  if (how === false) return '[redacted]';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(args)));
  return `sha256:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function unwrapDenial(error: unknown): never {
  throw error instanceof PolicyDenial ? error.original : error;
}

/**
 * Thrown inside {@link audited} work to record a refusal: the audit says `denied`, and the
 * caller receives `original` (an `isError` result is returned instead by the tool path).
 *
 * @example
 * ```ts
 * throw new PolicyDenial('no consent hook', new McpError(-1, 'User rejected sampling request'));
 * ```
 */
export class PolicyDenial extends Error {
  constructor(
    message: string,
    readonly original: unknown,
  ) {
    super(message);
  }
}
