/**
 * THE HOOK for input-required rounds (MRTR, docs/2026-07-28.md §5, docs/input-required.md). Under
 * 2026-07-28 the handler invocation of `tools/call`, `prompts/get` and `resources/read` goes
 * through {@link invokeWithInputRounds}, which runs it in the server's {@link InputRoundRunner};
 * every `ctx.elicit()`/`ctx.sample()`/`ctx.listRoots()` (any request to the client) goes through
 * `askClientUnderModern` (context.ts), which records it as a question of the round.
 * @module
 */
import type { RequestContext } from '../kernel/context.js';
import { principalOf } from '../kernel/principal.js';
import type { InputRoundCall, InputRoundRunner, InputRounds } from '../mrtr/runner.js';
import { INPUT_REQUIRED_METHODS } from '../mrtr/signal.js';
import type { ModernServer } from './modernServer.js';

/**
 * The methods whose results may be `input_required` (the MRTR table).
 *
 * @example
 * ```ts
 * INPUT_ROUND_METHODS.has('tools/call'); // true
 * ```
 */
export const INPUT_ROUND_METHODS: ReadonlySet<string> = INPUT_REQUIRED_METHODS;

/**
 * One 2026-07-28 request whose handler may answer `input_required`, as the runner sees it: built
 * once per request by the 2026 path, and handed to {@link dispatchInRounds} by the runner, so no
 * closure is made per request. The principal is worked out only when a round needs it.
 */
export class ModernCall implements InputRoundCall {
  constructor(
    readonly server: ModernServer,
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
 * declare const server: ModernServer;
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
