/**
 * `mcpkit serve --http --auth-issuer URL`: the demo server as an OAuth protected resource of that
 * authorization server, through `@mcpkit/auth/server` (`protect` and `jwtVerifier`). Its signing
 * keys are found through the issuer's metadata (RFC 8414, then OpenID Connect discovery).
 * @module
 */
import { type AuthAwareHandler, jwtVerifier, metadataUrl, protect } from '@mcpkit/auth/server';
import * as oauth from 'oauth4webapi';
import { CliError, ExitCode } from '../errors.js';

/** What the metadata publishes as `scopes_supported` unless `--auth-scope` says otherwise. */
export const DEMO_SCOPES: readonly string[] = ['mcp:read'];

/** The demo's protected `/mcp` handler, and the paths where it answers. */
export interface ProtectedDemo {
  readonly handler: (request: Request) => Promise<Response>;
  /** The canonical URL tokens must be issued for. */
  readonly resource: string;
  /** Request paths the handler serves: `/mcp` and the metadata documents. */
  readonly paths: ReadonlySet<string>;
}

/**
 * Wraps the demo's Streamable HTTP handler so every request needs a JWT access token from the
 * authorization server `as` whose audience is `audience` (default: the server's own `/mcp` URL);
 * its metadata publishes `scopes` as `scopes_supported`.
 *
 * @example
 * ```ts
 * const demo = protectDemo(handler, await issuerMetadata('https://auth.example.com'), undefined, 'http://127.0.0.1:3000/mcp', ['mcp:read']);
 * ```
 */
export function protectDemo(
  handler: AuthAwareHandler,
  as: oauth.AuthorizationServer,
  audience: string | undefined,
  mcpUrl: string,
  scopes: readonly string[] = DEMO_SCOPES,
): ProtectedDemo {
  if (!as.jwks_uri) {
    throw new CliError(ExitCode.Connection, `The authorization server ${as.issuer} publishes no jwks_uri.`);
  }
  const resource = audience ?? mcpUrl;
  const guarded = protect(handler, {
    resource,
    authorizationServers: [as.issuer],
    verifier: jwtVerifier({ issuer: as.issuer, audience: resource, jwks: as.jwks_uri }),
    // Published, not required: a client that names no scope asks for these (without any, many
    // authorization servers grant nothing), and a token without them still works with the demo.
    scopesSupported: scopes,
  });
  const paths = new Set([
    new URL(mcpUrl).pathname,
    new URL(metadataUrl(resource)).pathname,
    '/.well-known/oauth-protected-resource',
  ]);
  return { handler: guarded, resource, paths };
}

/**
 * The issuer's metadata: RFC 8414 first, then OpenID Connect discovery, as the MCP spec orders them.
 *
 * @example
 * ```ts
 * const as = await issuerMetadata('https://auth.example.com'); // as.jwks_uri
 * ```
 */
export async function issuerMetadata(issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  const loopback = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !loopback) {
    throw new CliError(
      ExitCode.Usage,
      `--auth-issuer must be an https URL (plain http only on loopback), got "${issuer}"`,
    );
  }
  let last: unknown;
  for (const algorithm of ['oauth2', 'oidc'] as const) {
    try {
      const response = await oauth.discoveryRequest(url, {
        algorithm,
        [oauth.allowInsecureRequests]: loopback,
      });
      return await oauth.processDiscoveryResponse(url, response);
    } catch (error) {
      last = error;
    }
  }
  const why = last instanceof Error ? last.message : String(last);
  throw new CliError(
    ExitCode.Connection,
    `Could not read the metadata of the authorization server ${issuer}: ${why}`,
    'Check --auth-issuer: it is the issuer identifier, e.g. https://auth.example.com',
  );
}
