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
import { CapabilityError, type ClientCapabilities, MissingRequiredClientCapabilityError } from '@mcpkit/core';
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
 * The client capability a request to the client needs under 2026-07-28, or `undefined` when the
 * request's envelope declared it. URL-mode elicitation needs `elicitation.url`; form mode is
 * what a bare `elicitation: {}` means.
 *
 * @example
 * ```ts
 * missingForRequest('roots/list', {}, {}); // { roots: {} }
 * missingForRequest('roots/list', {}, { roots: {} }); // undefined
 * ```
 */
export function missingForRequest(
  method: string,
  params: object,
  declared: ClientCapabilities,
): Record<string, unknown> | undefined {
  const caps = declared as Record<string, Record<string, unknown> | undefined>;
  switch (method) {
    case 'sampling/createMessage':
      return caps.sampling ? undefined : { sampling: {} };
    case 'roots/list':
      return caps.roots ? undefined : { roots: {} };
    case 'elicitation/create': {
      const url = (params as { mode?: unknown }).mode === 'url';
      if (!caps.elicitation) return { elicitation: url ? { url: {} } : {} };
      return url && !caps.elicitation.url ? { elicitation: { url: {} } } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A request to the client made from a handler of a 2026-07-28 request. A capability the envelope
 * did not declare is `-32021` (MissingRequiredClientCapabilityError); otherwise, until
 * input-required rounds are in, the revision's lack of server-to-client requests is named.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * await askClientUnderModern(ctx, 'roots/list', {}); // rejects
 * ```
 */
export function askClientUnderModern<R>(ctx: RequestContext, method: string, params: object): Promise<R> {
  const missing = missingForRequest(method, params, ctx.scope.clientCapabilities);
  if (missing) {
    return Promise.reject(
      new MissingRequiredClientCapabilityError(
        missing,
        `"${method}" needs the client capability ${Object.keys(missing)[0]}, which this request did not declare`,
      ),
    );
  }
  return Promise.reject(
    new CapabilityError(
      `Cannot send "${method}" to the client: protocol revision ${ctx.scope.revision} has no server-to-client requests`,
    ),
  );
}
