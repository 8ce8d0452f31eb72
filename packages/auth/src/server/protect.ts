/**
 * The protected-resource side of MCP authorization, inside the web-standard handler: Protected
 * Resource Metadata (RFC 9728), bearer checks, and the 401/403 challenges a client discovers from.
 * @module
 */
import { InvalidTokenError, type TokenVerifier, type VerifiedToken } from './verify.js';

/** Options of {@link protect}. */
export interface ProtectOptions {
  /** This server's canonical URI (the MCP endpoint URL); tokens must be issued for it. */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers this server trusts, in preference order. */
  readonly authorizationServers: readonly string[];
  /** Checks each bearer token. */
  readonly verifier: TokenVerifier;
  /** Scopes every request needs; a token without them gets 403 `insufficient_scope`. */
  readonly requiredScopes?: readonly string[];
  /** Scopes advertised in the metadata document (defaults to `requiredScopes`). */
  readonly scopesSupported?: readonly string[];
}

/** A web-standard handler that takes the verified caller, as mcpkit's Streamable HTTP handler does. */
export type AuthAwareHandler = (request: Request, extra: { authInfo: VerifiedToken }) => Promise<Response>;

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The Protected Resource Metadata document (RFC 9728) for `options`.
 *
 * @example
 * ```ts
 * declare const verifier: TokenVerifier;
 * const doc = protectedResourceMetadata({ resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'], verifier });
 * ```
 */
export function protectedResourceMetadata(options: ProtectOptions): Record<string, unknown> {
  const scopes = options.scopesSupported ?? options.requiredScopes;
  return {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(scopes && scopes.length > 0 ? { scopes_supported: [...scopes] } : {}),
  };
}

/**
 * The URL where the metadata of `resource` is served (path-aware form of RFC 9728 §3.1).
 *
 * @example
 * ```ts
 * metadataUrl('https://mcp.example.com/mcp'); // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 * ```
 */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}`;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'mcp-protocol-version',
};

/**
 * Wraps a web-standard MCP handler so it serves its Protected Resource Metadata (path-aware and
 * root, with CORS), refuses requests without a valid token for this resource (401 with
 * `WWW-Authenticate: Bearer resource_metadata="…"`) or without the required scopes (403
 * `insufficient_scope`), and hands the verified caller on as `authInfo`.
 *
 * @example
 * ```ts
 * const handler = protect(createStreamableHttpHandler(server), {
 *   resource: 'https://mcp.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   verifier: jwtVerifier({ issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp', jwks: 'https://auth.example.com/jwks' }),
 *   requiredScopes: ['mcp:read'],
 * });
 * ```
 */
export function protect(
  handler: AuthAwareHandler,
  options: ProtectOptions,
): (request: Request) => Promise<Response> {
  const metadata = JSON.stringify(protectedResourceMetadata(options));
  const metadataPath = new URL(metadataUrl(options.resource)).pathname;
  const challenge = `Bearer resource_metadata="${metadataUrl(options.resource)}"`;
  const required = options.requiredScopes ?? [];
  const scopeParam = required.length > 0 ? `, scope="${required.join(' ')}"` : '';
  return async (request) => {
    const path = new URL(request.url).pathname;
    if (path === metadataPath || path === WELL_KNOWN) {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
      return new Response(metadata, { headers: { 'content-type': 'application/json', ...CORS } });
    }
    const token = bearerToken(request);
    if (token === undefined) return unauthorized(`${challenge}${scopeParam}`, 'missing bearer token');
    let authInfo: VerifiedToken;
    try {
      authInfo = await options.verifier(token);
    } catch (error) {
      const why = error instanceof InvalidTokenError ? error.message : 'the token could not be verified';
      return unauthorized(
        `${challenge}${scopeParam}, error="invalid_token", error_description="${why}"`,
        why,
      );
    }
    const missing = required.filter((scope) => !authInfo.scopes.includes(scope));
    if (missing.length > 0) {
      const header = `${challenge}, scope="${required.join(' ')}", error="insufficient_scope"`;
      return new Response(JSON.stringify({ error: 'insufficient_scope' }), {
        status: 403,
        headers: { 'www-authenticate': header, 'content-type': 'application/json' },
      });
    }
    return handler(request, { authInfo });
  };
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header || header.length > 8192) return undefined;
  const space = header.indexOf(' ');
  if (space === -1 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1).trim();
  return token === '' ? undefined : token;
}

function unauthorized(header: string, why: string): Response {
  return new Response(JSON.stringify({ error: 'invalid_token', error_description: why }), {
    status: 401,
    headers: { 'www-authenticate': header, 'content-type': 'application/json' },
  });
}
