/**
 * THE HOOK for input-required rounds (MRTR, docs/2026-07-28.md §5, docs/input-required.md). Under
 * 2026-07-28 the handler invocation of `tools/call`, `prompts/get` and `resources/read` goes
 * through {@link invokeWithInputRounds}, which runs it in the server's {@link InputRoundRunner};
 * every `ctx.elicit()`/`ctx.sample()`/`ctx.listRoots()` (any request to the client) goes through
 * {@link askClientUnderModern}, which records it as a question of the round.
 * @module
 */
import {
  CapabilityError,
  type ClientCapabilities,
  Method,
  MissingRequiredClientCapabilityError,
} from '@mcpkit/core';
import type { RequestContext } from '../context.js';
import { principalOf } from '../http/sessions/principal.js';
import { cannotAskIn } from '../mrtr/recorder.js';
import type { InputRoundCall, InputRoundRunner, InputRounds } from '../mrtr/runner.js';
import { INPUT_REQUIRED_METHODS } from '../mrtr/signal.js';
import type { Server } from '../server.js';

/**
 * The methods whose results may be `input_required` (the MRTR table).
 *
 * @example
 * ```ts
 * INPUT_ROUND_METHODS.has('tools/call'); // true
 * ```
 */
export const INPUT_ROUND_METHODS: ReadonlySet<string> = INPUT_REQUIRED_METHODS;

/** The questions a 2026-07-28 handler can put to the client, all as input requests. */
const QUESTIONS: ReadonlySet<string> = new Set([
  Method.ElicitationCreate,
  Method.SamplingCreateMessage,
  Method.RootsList,
]);

/**
 * One 2026-07-28 request whose handler may answer `input_required`, as the runner sees it: built
 * once per request by the 2026 path, and handed to {@link dispatchInRounds} by the runner, so no
 * closure is made per request. The principal is worked out only when a round needs it.
 */
export class ModernCall implements InputRoundCall {
  constructor(
    readonly server: Server,
    readonly ctx: RequestContext,
    readonly method: string,
    /** What the handler sees: the decoded params (no envelope, no retry fields). */
    readonly decoded: Record<string, unknown>,
  ) {}
  get params(): Record<string, unknown> | undefined {
    return this.ctx.request.params;
  }
  get inputResponses(): unknown {
    return this.ctx.modern?.inputResponses;
  }
  get requestState(): unknown {
    return this.ctx.modern?.requestState;
  }
  get principal(): string | undefined {
    return principalOf(this.ctx.scope.principal);
  }
  get clientCapabilities(): Record<string, unknown> {
    return this.ctx.scope.clientCapabilities as Record<string, unknown>;
  }
  get revision(): string {
    return this.ctx.scope.revision;
  }
}

/**
 * Runs the handler of a request that may answer `input_required`: the server's dispatch (routing,
 * validation, middleware, handler) in the server's {@link InputRoundRunner}, which re-runs it on
 * each retry with the answers recorded so far, or turns its open questions into an input-required
 * result. The result is in the 2025-11-25 shape; the caller encodes it for 2026-07-28. A first
 * call whose dispatch answers synchronously without asking is answered synchronously (a promise
 * otherwise), like the 2025 path; it may throw instead of rejecting.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * declare const server: Server;
 * const result = invokeWithInputRounds(new ModernCall(server, ctx, 'tools/call', { name: 'echo' }), server.inputRoundRunner());
 * ```
 */
export function invokeWithInputRounds(call: ModernCall, runner: InputRoundRunner): unknown {
  return runner.start(call, dispatchInRounds);
}

function dispatchInRounds(rounds: InputRounds, call: ModernCall): unknown {
  const ctx = call.ctx;
  ctx.rounds = rounds;
  return call.server.dispatch(call.method, call.decoded, ctx);
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
 * A request to the client made from a handler of a 2026-07-28 request. Elicitation, sampling and
 * roots become questions of an input-required round; a capability the envelope did not declare is
 * `-32021` (MissingRequiredClientCapabilityError, which a handler may catch); the revision has no
 * other server-to-client request, and outside `tools/call`, `prompts/get` and `resources/read` no
 * question can be asked (both a local CapabilityError naming the revision).
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * await askClientUnderModern(ctx, 'roots/list', {}); // resolves on the retry that carries the answer
 * ```
 */
export function askClientUnderModern<R>(
  ctx: RequestContext,
  method: string,
  params: object,
  inputKey?: string,
): Promise<R> {
  const revision = ctx.scope.revision;
  if (!QUESTIONS.has(method)) {
    return Promise.reject(
      new CapabilityError(
        `Cannot send "${method}" to the client: protocol revision ${revision} has no server-to-client requests`,
      ),
    );
  }
  // Before the capability: outside the MRTR methods no capability would help, so -32021 would mislead.
  if (!ctx.rounds) return Promise.reject(new CapabilityError(cannotAskIn(revision, ctx.request.method)));
  const missing = missingForRequest(method, params, ctx.scope.clientCapabilities);
  if (missing) {
    return Promise.reject(
      new MissingRequiredClientCapabilityError(
        missing,
        `"${method}" needs the client capability ${Object.keys(missing)[0]}, which this request did not declare`,
      ),
    );
  }
  return ctx.rounds.recorder.ask<R>(method, { ...(params as Record<string, unknown>) }, inputKey);
}
