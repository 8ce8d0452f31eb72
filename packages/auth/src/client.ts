/**
 * `@mcpkit/auth/client`: the OAuth 2.1 client of the MCP authorization spec, as an `AuthProvider`
 * for mcpkit's HTTP client transports.
 * @module
 */
export { type BearerChallenge, bearerChallenge, isLoopback } from './client/discovery.js';
export { AuthorizationError } from './client/errors.js';
export type { CallbackParameters, CrossAppAccess, RedirectHook } from './client/grants.js';
export { importSigningKey } from './client/keys.js';
export {
  canonicalResource,
  type OAuthClientOptions,
  OAuthClientProvider,
  type TokenEndpointAuthMethod,
} from './client/provider.js';
export type { AuthObserver, AuthStep, AuthStepName } from './client/steps.js';
export { MemoryTokenStore, type StoredClient, type StoredTokens, type TokenStore } from './client/store.js';
