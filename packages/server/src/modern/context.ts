/**
 * What a 2026-07-28 request's context does its own way: "ask the client" (an input-required round,
 * not a request) and "log" (the envelope's level, not the connection's). The era hands this to
 * each request context it makes (the kernel's `ContextEra` port).
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
import type { AskOptions, RequestContext } from '../kernel/context.js';
import type { ContextEra } from '../kernel/ports.js';
import type { RequestScope } from '../kernel/scope.js';
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
 * How a 2026-07-28 request's context asks and logs: questions to the client become input-required
 * rounds, and logs follow the envelope's log level; its scope is the envelope's. One per server
 * (what features plugged in for the era is per server), its methods on the prototype (the context
 * itself stays the kernel's one class, so call sites in features see one shape whichever era a
 * request is of).
 *
 * @example
 * ```ts
 * declare const session: ServerSession;
 * declare const request: IncomingRequest;
 * const decoded = decodeModernRequest(request.params, undefined, false);
 * const ctx = new RequestContext(session, request, decoded, new ModernContext());
 * ```
 */
export class ModernContext implements ContextEra {
  /** What features plugged in for this era (`Era.plug`), by their keys. */
  readonly #parts = new Map<symbol, unknown>();

  sendLog(ctx: RequestContext, level: LoggingLevel, data: unknown, logger: string | undefined): void {
    // The envelope's level decides, not the connection's (which may be a 2025 session's); a request
    // without a level gets no logs at all (CL-M5).
    const wanted = ctx.modern!.scope.logLevel;
    if (wanted === undefined || LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(wanted)) return;
    if (!ctx.session.server.capabilities.logging) return;
    const params: Record<string, unknown> = logger === undefined ? { level, data } : { level, data, logger };
    const sent = ctx.session.notify(Notification.Message, params, ctx.request.id);
    if (sent) sent.catch(() => {});
  }

  requestClient(
    ctx: RequestContext,
    method: string,
    params: object,
    options: OutgoingRequestOptions | undefined,
  ): Promise<unknown> {
    return askClientUnderModern(ctx, method, params, (options as AskOptions | undefined)?.inputKey);
  }

  scopeOf(ctx: RequestContext): RequestScope {
    return ctx.modern!.scope;
  }

  inputResponsesOf(ctx: RequestContext): unknown {
    return ctx.modern!.inputResponses;
  }

  part(key: symbol): unknown {
    return this.#parts.get(key);
  }

  /** Plugs a feature's behaviour for this era under `key` (the era's `plug`). */
  plug(key: symbol, part: unknown): void {
    this.#parts.set(key, part);
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
function askClientUnderModern<R>(
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
  // Set by the rounds' runner (inputRounds.ts), as its own record; the context shows a view of it.
  const rounds = ctx.rounds as InputRounds | undefined;
  // Before the capability: outside the MRTR methods no capability would help, so -32021 would mislead.
  if (!rounds) return Promise.reject(new CapabilityError(cannotAskIn(revision, ctx.request.method)));
  const missing = missingForRequest(method, params, ctx.scope.clientCapabilities);
  if (missing) {
    return Promise.reject(
      new MissingRequiredClientCapabilityError(
        missing,
        `"${method}" needs the client capability ${Object.keys(missing)[0]}, which this request did not declare`,
      ),
    );
  }
  return rounds.recorder.ask<R>(method, { ...(params as Record<string, unknown>) }, inputKey);
}
