/**
 * JSON-RPC 2.0 message shapes, error codes and the envelope check.
 *
 * The check is hand-written: it runs on every message, so it reads a handful of properties and
 * allocates nothing on the happy path. Parameters are validated later, by the handler that owns
 * the method.
 * @module
 */
import { isRecord } from '../shared.js';

/** A request id: a string or an integer, never null, never reused within a session. */
export type RequestId = string | number;

/** The `error` member of an error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

/** An error response. `id` is absent when the request's id could not be read (never `null`). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/**
 * JSON-RPC and MCP error codes.
 *
 * @example
 * ```ts
 * throw new McpError(ErrorCode.InvalidParams, 'Unknown prompt: "greet"');
 * ```
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** mcpkit, reserved: local failures are {@link LocalError}s now and carry no wire code. */
  RequestTimeout: -32001,
  /** mcpkit, reserved: local failures are {@link LocalError}s now and carry no wire code. */
  ConnectionClosed: -32000,
  /** mcpkit, reserved: local failures are {@link LocalError}s now and carry no wire code. */
  RequestCancelled: -32800,
  /** MCP: resource not found. */
  ResourceNotFound: -32002,
  /** MCP: the request needs URL-mode elicitation first (2025-11-25). */
  UrlElicitationRequired: -32042,
  /** MCP 2026-07-28: an HTTP header disagrees with the body, or a required header is missing. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** What {@link classifyMessage} found. */
export type MessageKind =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'response'; readonly message: JsonRpcResponse }
  | {
      /**
       * Something with a `result` or an `error` and no `method`: a response, but a malformed one.
       * It is never answered (its id is one of ours); the engine drops and reports it.
       */
      readonly kind: 'invalid-response';
      /** The id, when it could be read, so a pending request can be settled. */
      readonly id: RequestId | undefined;
      readonly reason: string;
    }
  | {
      readonly kind: 'invalid';
      /** The id to answer with, when it could be read. */
      readonly id: RequestId | undefined;
      /** True when the message names a method but no id: it is never answered. */
      readonly isNotification: boolean;
      readonly reason: string;
    };

/**
 * True for a valid request id: a string, or an integer (not NaN, not fractional, not null).
 *
 * @example
 * ```ts
 * isRequestId(7); // true
 * isRequestId(1.5); // false
 * ```
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function invalid(value: Record<string, unknown> | null, reason: string): MessageKind {
  const id = value !== null && isRequestId(value.id) ? value.id : undefined;
  const isNotification = value !== null && typeof value.method === 'string' && !('id' in value);
  return { kind: 'invalid', id, isNotification, reason };
}

/**
 * Checks one JSON value against the JSON-RPC 2.0 envelope rules as MCP tightens them.
 *
 * @example
 * ```ts
 * classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind; // 'request'
 * classifyMessage({ jsonrpc: '2.0', id: null, method: 'ping' }).kind; // 'invalid'
 * ```
 */
export function classifyMessage(value: unknown): MessageKind {
  if (!isRecord(value)) return invalid(null, 'A message must be a JSON object');
  const method = value.method;
  if (method === undefined && ('result' in value || 'error' in value)) return classifyResponse(value);
  if (value.jsonrpc !== '2.0') return invalid(value, 'The "jsonrpc" member must be exactly "2.0"');
  if (method !== undefined) {
    if (typeof method !== 'string') return invalid(value, 'The "method" member must be a string');
    const params = value.params;
    if (params !== undefined && !isRecord(params)) {
      return invalid(value, 'The "params" member must be an object');
    }
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isRequestId(value.id)) {
      return invalid(value, 'The "id" member must be a string or an integer');
    }
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  return invalid(value, 'A message needs a "method", a "result" or an "error" member');
}

/** A body (one message, or a batch) with every message classified by {@link classifyMessage}. */
export interface ClassifiedBody {
  /** The body as parsed. */
  readonly value: unknown;
  /** The body is a JSON array (a batch), even one of a single message. */
  readonly batch: boolean;
  /** What each message is, in order (one entry when not a batch). */
  readonly kinds: readonly MessageKind[];
}

/**
 * Classifies every message of a body once. A transport that must look inside a body before
 * delivering it (Streamable HTTP decides its answer from the requests it holds) hands the result
 * to the connection through `MessageSink.classified`, so the envelope rules run once per message.
 *
 * @example
 * ```ts
 * const body = classifyBody([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
 * body.batch; // true
 * body.kinds[0].kind; // 'request'
 * ```
 */
export function classifyBody(value: unknown): ClassifiedBody {
  if (!Array.isArray(value)) return { value, batch: false, kinds: [classifyMessage(value)] };
  return { value, batch: true, kinds: value.map((item) => classifyMessage(item)) };
}

function invalidResponse(id: RequestId | undefined, reason: string): MessageKind {
  return { kind: 'invalid-response', id, reason };
}

/**
 * Checks a message that has a `result` or an `error` and no `method`. `"error": null` (sent by
 * some JSON-RPC libraries next to a `result`) counts as absent.
 */
function classifyResponse(value: Record<string, unknown>): MessageKind {
  const id = isRequestId(value.id) ? value.id : undefined;
  if (value.jsonrpc !== '2.0') return invalidResponse(id, 'The "jsonrpc" member must be exactly "2.0"');
  const error = value.error;
  const hasError = error !== undefined && error !== null;
  const result = value.result;
  if (result !== undefined && result !== null) {
    if (hasError) return invalidResponse(id, 'A response must not have both a "result" and an "error"');
    if (id === undefined) return invalidResponse(id, 'A response "id" must be a string or an integer');
    if (!isRecord(result)) return invalidResponse(id, 'The "result" member must be an object');
    // Drop the null "error" so that everything after this check can trust `'error' in message`.
    const message: JsonRpcResultResponse =
      'error' in value ? { jsonrpc: '2.0', id, result } : (value as unknown as JsonRpcResultResponse);
    return { kind: 'response', message };
  }
  if (!hasError) return invalidResponse(id, 'A response needs a "result" object or an "error" object');
  if (result === null) return invalidResponse(id, 'A response must not have both a "result" and an "error"');
  if (!isRecord(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalidResponse(id, 'The "error" member must have an integer "code" and a string "message"');
  }
  if (value.id !== undefined && value.id !== null && id === undefined) {
    return invalidResponse(id, 'A response "id" must be a string or an integer');
  }
  return { kind: 'response', message: value as unknown as JsonRpcErrorResponse };
}

/**
 * Builds an error response. The id is left out when unknown, as MCP requires (never `null`).
 *
 * @example
 * ```ts
 * errorResponse(undefined, ErrorCode.ParseError, 'Parse error');
 * // { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }
 * ```
 */
export function errorResponse(
  id: RequestId | undefined,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}
