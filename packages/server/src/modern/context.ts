/**
 * The request context of a 2026-07-28 request: the kernel's context with the era's own answers to
 * "ask the client" (an input-required round, not a request) and "log" (the envelope's level, not the
 * connection's). Made by the era for each request it serves, in place of the kernel's.
 * @module
 */
import {
  CapabilityError,
  LOGGING_LEVELS,
  type LoggingLevel,
  Method,
  MissingRequiredClientCapabilityError,
  Notification,
  type OutgoingRequestOptions,
} from '@mcpkit/core';
import { type AskOptions, RequestContext } from '../kernel/context.js';
import { missingForRequest } from '../mrtr/missingCapability.js';
import { cannotAskIn } from '../mrtr/recorder.js';
import type { InputRounds } from '../mrtr/runner.js';

/** The questions a 2026-07-28 handler can put to the client, all as input requests. */
const QUESTIONS: ReadonlySet<string> = new Set([
  Method.ElicitationCreate,
  Method.SamplingCreateMessage,
  Method.RootsList,
]);

/**
 * A 2026-07-28 request's context: `ctx.modern` is set, questions to the client become
 * input-required rounds, and logs follow the envelope's log level.
 *
 * @example
 * ```ts
 * declare const session: ServerSession;
 * declare const request: IncomingRequest;
 * const ctx = new ModernRequestContext(session, request, decodeModernRequest(request.params, undefined, false));
 * ```
 */
export class ModernRequestContext extends RequestContext {
  /** @internal The rounds of `tools/call`, `prompts/get` and `resources/read`, set by the runner. */
  declare rounds: InputRounds | undefined;

  override sendLog(level: LoggingLevel, data: unknown, logger?: string): void {
    // The envelope's level decides, not the connection's (which may be a 2025 session's); a request
    // without a level gets no logs at all (CL-M5).
    const wanted = this.modern!.scope.logLevel;
    if (wanted === undefined || LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(wanted)) return;
    if (!this.session.server.capabilities.logging) return;
    const params: Record<string, unknown> = logger === undefined ? { level, data } : { level, data, logger };
    const sent = this.session.notify(Notification.Message, params, this.request.id);
    if (sent) sent.catch(() => {});
  }

  override requestClient<R = Record<string, unknown>>(
    method: string,
    params: object,
    options?: OutgoingRequestOptions,
  ): Promise<R> {
    return askClientUnderModern<R>(this, method, params, (options as AskOptions | undefined)?.inputKey);
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
 * declare const ctx: ModernRequestContext;
 * await askClientUnderModern(ctx, 'roots/list', {}); // resolves on the retry that carries the answer
 * ```
 */
export function askClientUnderModern<R>(
  ctx: ModernRequestContext,
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
