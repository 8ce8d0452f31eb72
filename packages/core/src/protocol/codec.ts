/**
 * The contract of a revision codec: how messages of the latest shape are adapted to the revision
 * a peer negotiated. Implementations live in `codecs.ts`.
 * @module
 */
import type { ProtocolVersion } from './revisions.js';

/** Params of a message as they go on the wire. */
export type WireParams = Record<string, unknown> | undefined;

/**
 * Returned by {@link RevisionCodec.encodeParams} for a message the revision does not have.
 *
 * @example
 * ```ts
 * codecFor('2025-06-18').encodeParams('tasks/list', {}) === NOT_IN_REVISION; // true
 * ```
 */
export const NOT_IN_REVISION: unique symbol = Symbol('not in revision');

/**
 * Adapts outgoing messages, built in the shape of the latest revision, to one negotiated revision.
 *
 * Feature code never checks versions: it produces 2025-11-25 shapes and the session's codec makes
 * sure an older peer never receives a field or feature it cannot understand (a `structuredContent`
 * for a 2025-03-26 client becomes text it can read; `icons` vanish for 2025-06-18; and so on).
 *
 * @example
 * ```ts
 * const codec = codecFor('2025-03-26');
 * codec.encodeResult('tools/list', { tools: [{ name: 'a', title: 'A', inputSchema: {} }] });
 * // { tools: [{ name: 'a', inputSchema: {} }] }
 * ```
 */
export interface RevisionCodec {
  readonly version: ProtocolVersion;
  /** Whether incoming JSON-RPC batches are processed (2025-03-26 only). */
  readonly acceptsBatches: boolean;
  /** Adapts the result of `method` that this side is about to send. */
  encodeResult(method: string, result: Record<string, unknown>): Record<string, unknown>;
  /**
   * Adapts the params of a request or notification this side is about to send. Returns
   * {@link NOT_IN_REVISION} when the revision has no such message (it must not be sent).
   */
  encodeParams(method: string, params: WireParams): WireParams | typeof NOT_IN_REVISION;
}
