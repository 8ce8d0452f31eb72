/**
 * The few HTTP responses the handlers build, and the status of every refusal in one place.
 *
 * Refusal bodies are JSON-RPC error responses without an `id` (the spec allows it); the messages
 * say what the client did wrong and never anything about the server's internals.
 * @module
 */
import { ErrorCode, type RequestId } from '@mcpkit/core';

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

/** A 200 response carrying one serialized JSON-RPC message (or batch). */
export function jsonResponse(json: string, sessionId?: string): Response {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
  return new Response(json, { status: 200, headers });
}

/** An HTTP refusal with a JSON-RPC error body (no `id` unless the request's id is known). */
export function refusal(
  status: number,
  message: string,
  code: number = ErrorCode.InvalidRequest,
  extraHeaders?: Record<string, string>,
  id?: RequestId,
): Response {
  const error = { code, message };
  const body = id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, ...extraHeaders };
  return new Response(JSON.stringify(body), { status, headers });
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
  invalid: (reason: string, id?: RequestId) =>
    refusal(400, `Invalid Request: ${reason}`, ErrorCode.InvalidRequest, undefined, id),
  missingSession: () => refusal(400, 'Bad Request: the Mcp-Session-Id header is required'),
  unknownSession: () => refusal(404, 'Session not found: initialize a new session'),
  badProtocolVersion: (version: string) =>
    refusal(400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))}`),
  mismatchedProtocolVersion: (negotiated: string) =>
    refusal(400, `Bad Request: MCP-Protocol-Version does not match the negotiated version ${negotiated}`),
  conflict: (reason: string) => refusal(409, `Conflict: ${reason}`),
  unknownEventId: () => refusal(400, 'Bad Request: the Last-Event-ID is unknown or expired'),
  tooManySessions: () => refusal(503, 'Service Unavailable: too many sessions', ErrorCode.InternalError),
  internal: () => refusal(500, 'Internal error', ErrorCode.InternalError),
} as const;
