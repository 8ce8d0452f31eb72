/**
 * The little the HTTP transports need to know about the JSON-RPC messages passing through them.
 * @module
 */
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId } from '@mcpkit/core';

/** A message or a 2025-03-26 batch, as `Transport.send` takes it. */
export type Outgoing = JsonRpcMessage | JsonRpcMessage[];

function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

/** The ids of the requests in `message`; empty for notifications and responses. */
export function requestIdsOf(message: Outgoing): RequestId[] {
  if (!Array.isArray(message)) return isRequest(message) ? [message.id] : [];
  const ids: RequestId[] = [];
  for (const member of message) if (isRequest(member)) ids.push(member.id);
  return ids;
}

/** True for an `initialize` request. */
export function isInitializeRequest(message: Outgoing): message is JsonRpcRequest {
  return !Array.isArray(message) && isRequest(message) && message.method === 'initialize';
}

/** True for a notification named `method`. */
export function isNotification(message: Outgoing, method: string): boolean {
  return !Array.isArray(message) && 'method' in message && !('id' in message) && message.method === method;
}

/** A short name for a message in error texts: its method, "response" or "batch". */
export function labelOf(message: Outgoing): string {
  if (Array.isArray(message)) return 'batch';
  return 'method' in message ? message.method : 'response';
}

/** A response that names its request. */
export type AnsweringResponse = JsonRpcResponse & { id: RequestId };

/** The response in `value` when it is one (a JSON object with an id and a result or an error). */
export function asResponse(value: unknown): AnsweringResponse | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const candidate = value as Record<string, unknown>;
  if ('method' in candidate || !('result' in candidate || 'error' in candidate)) return undefined;
  const id = candidate.id;
  return typeof id === 'string' || typeof id === 'number'
    ? (candidate as unknown as AnsweringResponse)
    : undefined;
}

/** Calls `visit` with each response in a parsed message or batch. */
export function forEachResponse(value: unknown, visit: (response: AnsweringResponse) => void): void {
  if (Array.isArray(value)) {
    for (const member of value) forEachResponse(member, visit);
    return;
  }
  const response = asResponse(value);
  if (response) visit(response);
}
