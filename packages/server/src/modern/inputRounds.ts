/**
 * THE HOOK for input-required rounds (MRTR, docs/2026-07-28.md §5). Under 2026-07-28 the handler
 * invocation of `tools/call`, `prompts/get` and `resources/read` goes through
 * {@link invokeWithInputRounds}, and every `ctx.elicit()`/`ctx.sample()`/`ctx.listRoots()` (any
 * request to the client) through {@link askClientUnderModern}. Today the first is a pass-through
 * and the second refuses clearly; the MRTR runner (packages/server/src/mrtr/) replaces both bodies.
 * The incoming `inputResponses` and `requestState` are on the context (`ctx.inputResponses`,
 * `ctx.requestState`).
 * @module
 */
import { CapabilityError } from '@mcpkit/core';
import type { RequestContext } from '../context.js';

/**
 * The methods whose results may be `input_required` (the MRTR table).
 *
 * @example
 * ```ts
 * INPUT_ROUND_METHODS.has('tools/call'); // true
 * ```
 */
export const INPUT_ROUND_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

/**
 * Runs the handler of a request that may answer `input_required`. `run` dispatches the request
 * (routing, validation, middleware, handler) and returns its result in the 2025-11-25 shape; the
 * caller encodes it for 2026-07-28 afterwards.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * const result = invokeWithInputRounds(ctx, () => ({ content: [] }));
 * ```
 */
export function invokeWithInputRounds(_ctx: RequestContext, run: () => unknown): unknown {
  return run();
}

/**
 * A request to the client made from a handler of a 2026-07-28 request. The revision has no
 * server-to-client requests; until input-required rounds are in, this says so.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * await askClientUnderModern(ctx, 'roots/list', {}); // rejects with a CapabilityError
 * ```
 */
export function askClientUnderModern<R>(ctx: RequestContext, method: string, _params: object): Promise<R> {
  return Promise.reject(
    new CapabilityError(
      `Cannot send "${method}" to the client: protocol revision ${ctx.scope.revision} has no server-to-client requests`,
    ),
  );
}
