/**
 * JSON-RPC 2.0 over `postMessage` as the bridge reads and writes it: a shape check of what a view
 * sends (anything else is dropped), and the errors it answers refused requests with.
 * @module
 */

/** A JSON-RPC id. */
export type RpcId = string | number;

/** A message from the view, after the shape check. */
export type ViewMessage =
  | { kind: 'request'; id: RpcId; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string; params: Record<string, unknown> }
  | { kind: 'response'; id: RpcId; result?: unknown; error?: { code: number; message: string } };

/**
 * The error codes of refusals: the JSON-RPC ones, and `-32000` (implementation-defined) for policy.
 *
 * @example
 * ```ts
 * declare const answer: { error?: { code: number; message: string } };
 * if (answer.error?.code === RpcCode.Refused) console.warn('the host refused:', answer.error.message);
 * ```
 */
export const RpcCode = {
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Refused: -32000,
} as const;

/**
 * A refusal the bridge answers a view's request with.
 *
 * @example
 * ```ts
 * throw new BridgeRefusal(RpcCode.Refused, 'This host does not open links');
 * ```
 */
export class BridgeRefusal extends Error {
  override readonly name = 'BridgeRefusal';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether `value` is a plain object (not null, not an array).
 *
 * @example
 * ```ts
 * isRecord({ a: 1 }); // true
 * isRecord([1]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The message `data` is, or `undefined` when it is not JSON-RPC 2.0 of a known shape.
 *
 * @example
 * ```ts
 * readViewMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }); // { kind: 'notification', … }
 * ```
 */
export function readViewMessage(data: unknown): ViewMessage | undefined {
  if (!isRecord(data) || data.jsonrpc !== '2.0') return undefined;
  const params = data.params === undefined ? {} : data.params;
  if (typeof data.method === 'string') {
    if (!isRecord(params)) return undefined;
    if (data.id === undefined) return { kind: 'notification', method: data.method, params };
    return isId(data.id) ? { kind: 'request', id: data.id, method: data.method, params } : undefined;
  }
  if (!isId(data.id)) return undefined;
  if ('result' in data) return { kind: 'response', id: data.id, result: data.result };
  if (isRecord(data.error) && typeof data.error.code === 'number' && typeof data.error.message === 'string') {
    return { kind: 'response', id: data.id, error: { code: data.error.code, message: data.error.message } };
  }
  return undefined;
}

/**
 * The `error` member for a failure: a refusal's own code and message, an MCP error's code and
 * message, anything else an internal error with no detail (nothing of the host leaks to a view).
 *
 * @example
 * ```ts
 * errorOf(new BridgeRefusal(-32000, 'no')); // { code: -32000, message: 'no' }
 * ```
 */
export function errorOf(error: unknown): { code: number; message: string } {
  if (error instanceof BridgeRefusal) return { code: error.code, message: error.message };
  if (
    isRecord(error) &&
    typeof error.code === 'number' &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string'
  ) {
    return { code: error.code, message: error.message };
  }
  return { code: RpcCode.InternalError, message: 'The host could not complete the request' };
}
