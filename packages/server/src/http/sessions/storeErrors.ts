/**
 * The one failure a shared session store adds: it cannot be reached.
 * @module
 */

/** The key under which a session store carries the handler-side logic that uses it. */
export const SHARED_SESSIONS: unique symbol = Symbol.for('@mcpkit/server/shared-sessions');

/**
 * The store could not be reached: the handler answers 503 instead of failing the request, and
 * reports this error to the server's `onError`. Its `cause` is the store's own error, never sent
 * to the client.
 *
 * @example
 * ```ts
 * const server = new McpServer(info, {
 *   onError: (error) => {
 *     if (error instanceof SessionStoreUnavailable) alertOps(error.cause);
 *   },
 * });
 * ```
 */
export class SessionStoreUnavailable extends Error {
  override readonly name = 'SessionStoreUnavailable';
}

/**
 * @internal Runs a store call, turning a throw or rejection into {@link SessionStoreUnavailable}.
 *
 * @example
 * ```ts
 * const state = await guarded(() => store.load(id, ttl));
 * ```
 */
export async function guarded<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new SessionStoreUnavailable('The session store cannot be reached', { cause: error });
  }
}

/**
 * What a store carries under {@link SHARED_SESSIONS}: the handler-side logic's class,
 * named here by shape only so the store contract does not import the logic that reads it.
 *
 * @example
 * ```ts
 * declare const store: SessionStore;
 * const logic: SharedSessionsLogic | undefined = store[SHARED_SESSIONS];
 * ```
 */
export type SharedSessionsLogic = abstract new (...args: never[]) => object;
