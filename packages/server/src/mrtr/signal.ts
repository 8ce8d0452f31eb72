/**
 * The small pieces of input-required rounds (2026-07-28) that feature code needs to recognize:
 * the signal a pending question throws and the input-required result shape. Kept apart from the
 * runner, so that checking for them adds next to nothing to a server that never asks.
 * @module
 */
import { LocalError } from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';

/** One question for the client, as it goes into `inputRequests`. */
export interface InputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** `{ resultType: 'input_required' }`: the questions for the client and the state to send back. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: Record<string, unknown>;
}

/**
 * Rejects a question whose answer must come from the client in a later round. It is a local
 * error: never sent, never reported to `onError`. Let it propagate; a handler that catches it gets
 * its question asked all the same, and whatever it returns in that run is dropped.
 *
 * @example
 * ```ts
 * try {
 *   await ctx.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
 * } catch (e) {
 *   if (e instanceof InputRequiredSignal) throw e; // the request continues in the next round
 * }
 * ```
 */
export class InputRequiredSignal extends LocalError {
  override name = 'InputRequiredSignal';
  constructor(readonly method: string) {
    super(`"${method}" needs an answer from the client; the request continues when the client retries it`);
  }
}

/** The methods a 2026-07-28 server may answer with an input-required result (MRTR "Supported Requests"). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

/**
 * True for a result that asks for input (`resultType: "input_required"`).
 *
 * @example
 * ```ts
 * isInputRequired({ resultType: 'input_required', requestState: 's' }); // true
 * ```
 */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return isRecord(value) && value.resultType === 'input_required';
}
