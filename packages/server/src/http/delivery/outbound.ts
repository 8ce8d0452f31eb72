/**
 * Reading an outgoing message (or batch) for routing: is it a request to the client, a response,
 * and which request it answers.
 * @module
 */
import type { JsonRpcMessage, RequestId } from '@mcpkit/core';

/** A request (or a batch holding one): it has a method and an id. */
export function isRequest(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
  const items = Array.isArray(message) ? message : [message];
  return items.some((item) => 'method' in item && 'id' in item);
}

export function isResponse(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
  return Array.isArray(message) || !('method' in message);
}

/** The request a response (or batch of responses) answers, preferring ids with an open exchange. */
export function responseIdOf(
  message: JsonRpcMessage | JsonRpcMessage[],
  exchanges: ReadonlyMap<RequestId, unknown>,
): RequestId | undefined {
  if (!Array.isArray(message)) return 'method' in message ? undefined : message.id;
  for (const item of message) {
    const id = (item as { id?: RequestId }).id;
    if (id !== undefined && !('method' in item) && exchanges.has(id)) return id;
  }
  return undefined;
}

/** The UTF-8 size of `text` (for an observer of message sizes; web APIs only). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
