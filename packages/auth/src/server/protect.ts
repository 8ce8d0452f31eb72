/**
 * The protected-resource side of MCP authorization, inside the web-standard handler: Protected
 * Resource Metadata (RFC 9728), bearer checks, and the 401/403 challenges a client discovers from.
 * @module
 */
import { scopesNeededBy } from './peek.js';
import { INSUFFICIENT_SCOPE, type ScopeGuard, union } from './scopes.js';
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
  /** Scopes advertised in the metadata document (defaults to `requiredScopes` and those of `scopes`). */
  readonly scopesSupported?: readonly string[];
  /**
   * Scopes per tool, prompt and resource (from `requireScopes`, also installed with
   * `server.use()`): a POST calling an item the token has no scope for gets `403
   * insufficient_scope` naming the scopes, before the server runs anything.
   */
  readonly scopes?: ScopeGuard;
  /**
   * With `scopes`: the largest POST body read to check them, in bytes; a larger one gets 413
   * rather than go unchecked. Default 4 MiB, the HTTP handler's own default limit.
   */
  readonly maxBodyBytes?: number;
}

/**
 * A handler that takes the verified caller through a `handle(request, { authInfo })` method, as
 * mcpkit's HTTP handlers do. A method, not a second argument of the handler function: runtimes pass
 * their own objects there (Bun its `Server`, Workers their `env`), which must never pass for a
 * verified caller. The function itself serves CORS preflights (they carry no credentials), and
 * `applyCors` lets the 401/403 answers carry the handler's CORS headers.
 *
 * @example
 * ```ts
 * const mcp: AuthAwareHandler = createStreamableHttpHandler(server);
 * ```
 */
export interface AuthAwareHandler {
  (request: Request): Promise<Response>;
  handle(request: Request, extra: { authInfo: VerifiedToken }): Promise<Response>;
  applyCors?(request: Request, response: Response): Response;
}

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
  const scopes =
    options.scopesSupported ?? union(options.requiredScopes ?? [], options.scopes?.declaredScopes ?? []);
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
 * The handler {@link protect} returns: one argument, plus the paths of the metadata documents it
 * serves beside the MCP endpoint, so a server that routes by path (`serve(handler, { path })` of
 * `@mcpkit/node/http`) can send them to it.
 *
 * @example
 * ```ts
 * declare const handler: ProtectedHandler;
 * handler.wellKnownPaths; // ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']
 * ```
 */
export interface ProtectedHandler {
  (request: Request): Promise<Response>;
  /** The Protected Resource Metadata paths: the path-aware one, then the root one. */
  readonly wellKnownPaths: readonly string[];
}

/**
 * Wraps a web-standard MCP handler so it serves its Protected Resource Metadata (path-aware and
 * root, with CORS), refuses requests without a valid token for this resource (401 with
 * `WWW-Authenticate: Bearer resource_metadata="…"`) or without the required scopes (403
 * `insufficient_scope`), and hands the verified caller on as `authInfo` through `handler.handle`.
 * The result takes exactly one argument, so it can be a runtime's `fetch` as it is.
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
export function protect(handler: AuthAwareHandler, options: ProtectOptions): ProtectedHandler {
  const metadata = JSON.stringify(protectedResourceMetadata(options));
  const metadataPath = new URL(metadataUrl(options.resource)).pathname;
  const challenge = `Bearer resource_metadata="${metadataUrl(options.resource)}"`;
  const required = options.requiredScopes ?? [];
  const scopeParam = required.length > 0 ? `, scope="${required.join(' ')}"` : '';
  /** The verified caller, or the 401/403 that refuses the request. */
  const authenticate = async (request: Request): Promise<VerifiedToken | Response> => {
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
    if (required.some((scope) => !authInfo.scopes.includes(scope))) {
      return forbidden(challenge, required, { error: 'insufficient_scope' });
    }
    if (options.scopes) {
      const needs = await scopesNeededBy(request, options.scopes, options.maxBodyBytes);
      if (needs === 'too-large') return tooLarge();
      if (needs?.scopes.some((scope) => !authInfo.scopes.includes(scope))) {
        const scopes = union(required, needs.scopes);
        return forbidden(challenge, scopes, refusal(needs.id, scopes));
      }
    }
    return authInfo;
  };
  const guarded = async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === metadataPath || path === WELL_KNOWN) {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
      return new Response(metadata, { headers: { 'content-type': 'application/json', ...CORS } });
    }
    // A CORS preflight never carries credentials: the handler answers it (405 when CORS is off).
    if (request.method === 'OPTIONS') return handler(request);
    const caller = await authenticate(request);
    if (!(caller instanceof Response)) return handler.handle(request, { authInfo: caller });
    // The page must be able to read the challenge: the handler's CORS headers, when it has any.
    return handler.applyCors ? handler.applyCors(request, caller) : caller;
  };
  const wellKnownPaths = metadataPath === WELL_KNOWN ? [WELL_KNOWN] : [metadataPath, WELL_KNOWN];
  return Object.assign(guarded, { wellKnownPaths: Object.freeze(wellKnownPaths) });
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header || header.length > 8192) return undefined;
  const space = header.indexOf(' ');
  if (space === -1 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1).trim();
  return token === '' ? undefined : token;
}

function tooLarge(): Response {
  const error = { code: -32600, message: 'The request body is too large' };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error }), {
    status: 413,
    headers: { 'content-type': 'application/json' },
  });
}

/** `403 insufficient_scope` naming every scope the request needs, so a client can step up. */
function forbidden(challenge: string, scopes: readonly string[], body: unknown): Response {
  const header = `${challenge}, scope="${scopes.join(' ')}", error="insufficient_scope"`;
  return new Response(JSON.stringify(body), {
    status: 403,
    headers: { 'www-authenticate': header, 'content-type': 'application/json' },
  });
}

/** The JSON-RPC error a peek refusal carries, for clients that read the body. */
function refusal(id: string | number | null, scopes: readonly string[]): unknown {
  const scope = scopes.join(' ');
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: INSUFFICIENT_SCOPE,
      message: `Insufficient scope: this request needs ${scope}`,
      data: { error: 'insufficient_scope', scope },
    },
  };
}

function unauthorized(header: string, why: string): Response {
  return new Response(JSON.stringify({ error: 'invalid_token', error_description: why }), {
    status: 401,
    headers: { 'www-authenticate': header, 'content-type': 'application/json' },
  });
}
