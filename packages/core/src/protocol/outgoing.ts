/**
 * The checks both sides make before sending a request, written once: the peer must have declared
 * the capability the request needs, and the negotiated revision must have the method. Either
 * failure is local (`CapabilityError`): nothing is sent.
 * @module
 */
import { CapabilityError } from '../jsonrpc/errors.js';
import { NOT_IN_REVISION, type RevisionCodec, type WireParams } from './codec.js';

/**
 * Encodes an outgoing request's params for the negotiated revision, refusing it when `gap` (the
 * missing capability, from `missingClientCapability` or `missingServerCapability`) is set or the
 * revision lacks the method.
 *
 * @throws {CapabilityError} for a missing capability or a method the revision does not have.
 * @example
 * ```ts
 * const params = encodeOutgoingRequest(codec, 'roots/list', {}, missingClientCapability('roots/list', {}, caps));
 * ```
 */
export function encodeOutgoingRequest(
  codec: RevisionCodec,
  method: string,
  params: WireParams,
  gap: string | undefined,
): WireParams {
  if (gap) throw new CapabilityError(gap);
  const encoded = codec.encodeParams(method, params);
  if (encoded === NOT_IN_REVISION) {
    throw new CapabilityError(`"${method}" is not available in protocol revision ${codec.version}`);
  }
  return encoded;
}

/**
 * A notification's params encoded for the negotiated revision, or `undefined` when the revision
 * lacks the notification (it is then dropped, not sent). For the engine's own notifications
 * (progress, cancellation), which always carry params: `undefined` cannot mean "no params" here.
 *
 * @example
 * ```ts
 * const params = encodeOutgoingNotification(codec, 'notifications/tasks/status', status);
 * ```
 */
export function encodeOutgoingNotification(
  codec: RevisionCodec,
  method: string,
  params: Record<string, unknown>,
): WireParams | undefined {
  const encoded = codec.encodeParams(method, params);
  return encoded === NOT_IN_REVISION ? undefined : encoded;
}
