/**
 * What a question to the client needs the client to have declared under 2026-07-28: shared by the
 * input-required rounds (modern/), their runner (here) and the tasks extension's questions.
 * @module
 */
import type { ClientCapabilities } from '@mcpkit/core';

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
