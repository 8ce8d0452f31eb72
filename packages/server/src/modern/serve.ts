/**
 * Serving one 2026-07-28 request, on any connection: decode (lift the envelope into a request
 * scope), check the method exists in the revision, dispatch through the same table as 2025
 * requests, encode the result and map the error code. Nothing is stored: the connection's session
 * only carries the bytes. See docs/2026-07-28.md §3, §4 and §6.
 * @module
 */
import { type Implementation, type IncomingRequest, methodExists } from '@mcpkit/core';
import {
  decodeModernRequest,
  encodeModernError,
  encodeModernResult,
  isPromiseLike,
  resultObject,
} from '@mcpkit/core/internal';
import { RequestContext, type SessionOpener } from '../kernel/context.js';
import { notInRevision } from '../kernel/notInRevision.js';
import type { ServerSession } from '../kernel/session.js';
import { INPUT_ROUND_METHODS, invokeWithInputRounds, ModernCall } from './inputRounds.js';
import type { ModernServer } from './modernServer.js';

const DISCOVER = 'server/discover';

/**
 * Answers one 2026-07-28 request (the era's `serve`), on a session's connection or, for a request
 * that has no session yet,: `session` opens one if the handler
 * asks for it (the 2026-07-28 HTTP path). `checked`: the caller has already refused what this
 * would (the envelope's shape, the revision, a method the revision or the server does not have:
 * `checkModernPost` of the HTTP front), so nothing is checked twice.
 *
 * @example
 * ```ts
 * declare const server: ModernServer;
 * declare const opener: SessionOpener;
 * declare const request: IncomingRequest;
 * const result = answerModern(server, opener, request);
 * ```
 */
export function answerModern(
  server: ModernServer,
  session: ServerSession | SessionOpener,
  request: IncomingRequest,
  checked = false,
): unknown {
  const method = request.method;
  const decoded = decodeModernRequest(request.params, request.extra?.authInfo, checked);
  if (!checked) {
    const revision = decoded.scope.revision;
    const refused = server.refusedRevision(revision);
    if (refused) throw refused;
    if (!methodExists(method, 'c2s', revision)) throw notInRevision(method, revision);
  }
  // The decoded request is the context's 2026 part as it is: its scope, the MRTR retry fields.
  const ctx = new RequestContext(session, request, decoded, server.eraContext);
  const params = decoded.params;
  let result: unknown;
  try {
    result = INPUT_ROUND_METHODS.has(method)
      ? invokeWithInputRounds(new ModernCall(server, ctx, method, params), server.inputRoundRunner())
      : server.dispatch(method, params, ctx);
  } catch (error) {
    throw encodeModernError(error);
  }
  if (isPromiseLike(result)) {
    return Promise.resolve(result).then(
      (value) => encodeModernResult(method, resultObject(value), serverInfoFor(server, method)),
      (error: unknown) => {
        throw encodeModernError(error);
      },
    );
  }
  return encodeModernResult(method, resultObject(result), serverInfoFor(server, method));
}

/** `server/discover` always names the server (a client learns who it talks to there); other results as configured. */
function serverInfoFor(server: ModernServer, method: string): Implementation | undefined {
  return method === DISCOVER ? server.info : server.resultServerInfo;
}
