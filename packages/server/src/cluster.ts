/**
 * `@mcpkit/server/cluster`: what several server processes need to serve one endpoint together,
 * kept out of `@mcpkit/server/http` so that single-node bundles do not carry it.
 *
 * - {@link SessionStoreBase}: what a shared session store extends (`RedisSessionStore` from
 *   `@mcpkit/redis` does); pass one as `createStreamableHttpHandler(server, { sessionStore })`.
 * - {@link InMemorySessionStore}: the reference store, for several handlers in one process.
 * - {@link SessionStoreUnavailable}: reported to `onError` when the store is down (clients get 503).
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from '@mcpkit/server/cluster';
 * const sessionStore = new InMemorySessionStore();
 * const a = createStreamableHttpHandler(server, { sessionStore, eventStore });
 * const b = createStreamableHttpHandler(server, { sessionStore, eventStore });
 * ```
 * @module
 */
export type { SessionStore } from './http/sessions/store.js';
export { InMemorySessionStore, SessionStoreBase } from './http/sessions/storeBase.js';
export { SessionStoreUnavailable } from './http/sessions/storeErrors.js';
