/**
 * The few HTTP responses the handlers build, and the status of every refusal in one place.
 *
 * Refusal bodies are JSON-RPC error responses without an `id` (the spec allows it); the messages
 * say what the client did wrong and never anything about the server's internals.
 * @module
 */
import { ErrorCode, type RequestId } from '@mcpkit/core';
import type { RawHttpReply } from './rawHttp.js';

/**
 * What the handlers answer with: a plain status, headers and body. The web-standard entry points
 * turn it into a `Response` ({@link toResponse}); a host adapter can write it out directly.
 */
export class Reply implements RawHttpReply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string | ReadableStream<Uint8Array> | null,
  ) {}
}

/** The web `Response` for a reply. */
export function toResponse(reply: RawHttpReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** A reply without a body (202 for accepted notifications, 204, 200 for DELETE). */
export function emptyReply(status: number): Reply {
  return new Reply(status, {}, null);
}

/** A 200 reply whose body is an SSE stream. */
export function sseReply(body: ReadableStream<Uint8Array>, sessionId?: string): Reply {
  return new Reply(200, sseHeaders(sessionId), body);
}

/** The response header carrying the session id (HTTP header names are case-insensitive). */
export const SESSION_HEADER = 'mcp-session-id';
/** The request header carrying the negotiated protocol revision. */
export const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

const JSON_TYPE = 'application/json';

/** Headers of every SSE response. `x-accel-buffering` stops nginx from holding events back. */
export function sseHeaders(sessionId?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
  if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
  return headers;
}

/** A 200 reply carrying one serialized JSON-RPC message (or batch). */
export function jsonReply(json: string, sessionId?: string, status = 200): Reply {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
  return new Reply(status, headers, json);
}

/** An HTTP refusal with a JSON-RPC error body (no `id` unless the request's id is known). */
export function refusal(
  status: number,
  message: string,
  code: number = ErrorCode.InvalidRequest,
  extraHeaders?: Record<string, string>,
  id?: RequestId,
): Reply {
  const error = { code, message };
  const body = id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, ...extraHeaders };
  return new Reply(status, headers, JSON.stringify(body));
}

/** Every refusal the handlers make, so status codes and wording stay consistent. */
export const Refuse = {
  forbiddenHost: () => refusal(403, 'Forbidden: the Host header is not allowed'),
  forbiddenOrigin: () => refusal(403, 'Forbidden: the Origin header is not allowed'),
  method: (allow: string) => refusal(405, 'Method Not Allowed', ErrorCode.InvalidRequest, { allow }),
  notAcceptable: (needs: string) => refusal(406, `Not Acceptable: the Accept header must include ${needs}`),
  unsupportedMediaType: () =>
    refusal(415, 'Unsupported Media Type: the Content-Type must be application/json'),
  tooLarge: (limit: number) => refusal(413, `Payload Too Large: the body exceeds ${limit} bytes`),
  parse: () => refusal(400, 'Parse error: the body is not valid JSON', ErrorCode.ParseError),
  tooDeep: (limit: number) =>
    refusal(
      400,
      `Parse error: the body nests arrays or objects deeper than the limit of ${limit} levels`,
      ErrorCode.ParseError,
    ),
  invalid: (reason: string, id?: RequestId) =>
    refusal(400, `Invalid Request: ${reason}`, ErrorCode.InvalidRequest, undefined, id),
  missingSession: () => refusal(400, 'Bad Request: the Mcp-Session-Id header is required'),
  tooManyRequests: (retryAfterMs: number) => {
    const wait = Math.max(1, Math.ceil(retryAfterMs));
    const error = {
      code: -32029,
      message: 'Too Many Requests: the rate limit is exceeded',
      data: { retryAfterMs: wait },
    };
    const headers = { 'content-type': JSON_TYPE, 'retry-after': String(Math.ceil(wait / 1000)) };
    return new Reply(429, headers, JSON.stringify({ jsonrpc: '2.0', error }));
  },
  unknownSession: () => refusal(404, 'Session not found: initialize a new session'),
  badProtocolVersion: (version: string) =>
    refusal(400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))}`),
  mismatchedProtocolVersion: (negotiated: string) =>
    refusal(400, `Bad Request: MCP-Protocol-Version does not match the negotiated version ${negotiated}`),
  conflict: (reason: string) => refusal(409, `Conflict: ${reason}`),
  unknownEventId: () => refusal(400, 'Bad Request: the Last-Event-ID is unknown or expired'),
  tooManySessions: (id?: RequestId) =>
    refusal(
      503,
      'Service Unavailable: the session limit is reached and every session is busy; try again later',
      ErrorCode.InternalError,
      { 'retry-after': '5' },
      id,
    ),
  tooManyClientSessions: (id?: RequestId) =>
    refusal(
      429,
      'Too Many Requests: this client already holds its maximum of sessions, all busy; close one first',
      ErrorCode.InvalidRequest,
      undefined,
      id,
    ),
  storeUnavailable: () =>
    refusal(
      503,
      'Service Unavailable: the session store cannot be reached; try again later',
      ErrorCode.InternalError,
      { 'retry-after': '1' },
    ),
  internal: () => refusal(500, 'Internal error', ErrorCode.InternalError),
} as const;
