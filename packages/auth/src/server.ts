/**
 * `@mcpkit/auth/server`: make an mcpkit HTTP server an OAuth 2.1 protected resource.
 * @module
 */
export {
  type AuthAwareHandler,
  metadataUrl,
  type ProtectedHandler,
  type ProtectOptions,
  protect,
  protectedResourceMetadata,
} from './server/protect.js';
export {
  INSUFFICIENT_SCOPE,
  InsufficientScopeError,
  requireScopes,
  type ScopeGuard,
  type ScopeRequirements,
} from './server/scopes.js';
export {
  type IntrospectionVerifierOptions,
  InvalidTokenError,
  introspectionVerifier,
  type JwtVerifierOptions,
  jwtVerifier,
  type TokenVerifier,
  type VerifiedToken,
} from './server/verify.js';
