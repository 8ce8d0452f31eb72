/**
 * The page's side of the backend API: every call carries the token of the page's own URL in a
 * header (never in a cookie, so another origin's page cannot send it along), and the event stream
 * is an `EventSource` on the same origin.
 * @module
 */

/** The token the console printed in its URL. */
const token = new URLSearchParams(location.search).get('token') ?? '';

/**
 * A failure the backend reported: the server's JSON-RPC error, or the backend's own.
 *
 * @example
 * ```ts
 * try { await call('listTools'); } catch (error) { if (error instanceof ApiError) console.log(error.code); }
 * ```
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Runs one operation of the backend.
 *
 * @example
 * ```ts
 * const tools = await call<Tool[]>('listTools');
 * ```
 */
export async function call<T = unknown>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`/api/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': token },
    body: JSON.stringify(params),
  });
  const body = (await response.json().catch(() => ({ error: { message: `HTTP ${response.status}` } }))) as {
    result?: T;
    error?: { message: string; code?: number; data?: unknown };
  };
  if (body.error) throw new ApiError(body.error.message, body.error.code, body.error.data);
  return body.result as T;
}

/**
 * Listens to the backend's events; returns the function that stops listening.
 *
 * @example
 * ```ts
 * const stop = listen({ log: (entry) => console.log(entry) });
 * ```
 */
export function listen(handlers: Record<string, (data: any) => void>): () => void {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  for (const [type, handler] of Object.entries(handlers)) {
    source.addEventListener(type, (event) => handler(JSON.parse((event as MessageEvent<string>).data)));
  }
  return () => source.close();
}

/** A fresh id for a tool call, so the page can cancel it. */
export function callId(): string {
  return crypto.randomUUID();
}
