/**
 * Bearer-token verification for a protected MCP server: one {@link TokenVerifier} hook and two
 * built-ins, JWT access tokens checked against the issuer's JWKS (jose) and RFC 7662 introspection
 * (oauth4webapi).
 * @module
 */
import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';

/** What a verified access token says about its caller; handlers see it as `ctx.authInfo`. */
export interface VerifiedToken {
  readonly token: string;
  readonly clientId?: string;
  readonly scopes: readonly string[];
  /** Seconds since epoch. */
  readonly expiresAt?: number;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * A token the verifier refused. Its message is safe to show to the peer: it never holds the token.
 *
 * @example
 * ```ts
 * throw new InvalidTokenError('the token has expired');
 * ```
 */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/**
 * Checks a bearer token and says who presented it. Throw {@link InvalidTokenError} to refuse it.
 *
 * @example
 * ```ts
 * const verifier: TokenVerifier = async (token) => {
 *   if (token !== 'dev-token') throw new InvalidTokenError('unknown token');
 *   return { token, scopes: ['mcp:read'] };
 * };
 * ```
 */
export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier; the token's `iss` must equal it. */
  readonly issuer: string;
  /** This server's canonical URI; the token's `aud` must contain it. */
  readonly audience: string;
  /** The issuer's JWKS URL (from its metadata's `jwks_uri`), or a key getter for tests. */
  readonly jwks: string | URL | JWTVerifyGetKey;
  /** Clock tolerance in seconds for `exp`/`nbf` (default 5). */
  readonly clockTolerance?: number;
}

/**
 * Verifies JWT access tokens (RFC 9068): signature against the issuer's JWKS, `iss`, `exp`/`nbf`,
 * and an audience that must be this server, so a token issued for another resource is refused.
 *
 * @example
 * ```ts
 * const verify = jwtVerifier({
 *   issuer: 'https://auth.example.com',
 *   audience: 'https://mcp.example.com/mcp',
 *   jwks: 'https://auth.example.com/jwks',
 * });
 * ```
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys =
    typeof options.jwks === 'function' ? options.jwks : createRemoteJWKSet(new URL(String(options.jwks)));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        clockTolerance: options.clockTolerance ?? 5,
        requiredClaims: ['exp'],
      });
      return {
        token,
        clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        expiresAt: payload.exp,
        extra: { sub: payload.sub },
      };
    } catch (error) {
      throw new InvalidTokenError(describeJoseError(error));
    }
  };
}

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `the token's ${error.claim} claim is not valid here`;
  return 'the token could not be verified';
}

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's metadata (needs `issuer` and `introspection_endpoint`). */
  readonly authorizationServer: oauth.AuthorizationServer;
  /** This server's credentials at the authorization server. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** This server's canonical URI; an active token's `aud` must contain it. */
  readonly audience: string;
  /** Allow plain HTTP to a loopback authorization server (tests). */
  readonly allowLoopbackHttp?: boolean;
}

/**
 * Verifies opaque tokens through RFC 7662 introspection. An inactive token, or one whose `aud`
 * does not name this server, is refused.
 *
 * @example
 * ```ts
 * const verify = introspectionVerifier({
 *   authorizationServer: { issuer: 'https://auth.example.com', introspection_endpoint: 'https://auth.example.com/introspect' },
 *   clientId: 'mcp-server', clientSecret: process.env.SECRET!, audience: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const as = options.authorizationServer;
  const client: oauth.Client = { client_id: options.clientId };
  const auth = oauth.ClientSecretBasic(options.clientSecret);
  const insecure = options.allowLoopbackHttp === true;
  return async (token) => {
    let result: oauth.IntrospectionResponse;
    try {
      const response = await oauth.introspectionRequest(as, client, auth, token, {
        [oauth.allowInsecureRequests]: insecure,
      });
      result = await oauth.processIntrospectionResponse(as, client, response);
    } catch {
      throw new InvalidTokenError('the token could not be introspected');
    }
    if (!result.active) throw new InvalidTokenError('the token is not active');
    const aud = result.aud === undefined ? [] : Array.isArray(result.aud) ? result.aud : [result.aud];
    if (!aud.includes(options.audience))
      throw new InvalidTokenError("the token's aud claim is not valid here");
    return {
      token,
      clientId: result.client_id,
      scopes: typeof result.scope === 'string' ? result.scope.split(' ').filter(Boolean) : [],
      expiresAt: result.exp,
      extra: { sub: result.sub },
    };
  };
}
