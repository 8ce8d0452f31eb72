/**
 * Discovery, in the order of the 2025-11-25 authorization spec: the 401 challenge, Protected
 * Resource Metadata (RFC 9728), then authorization-server metadata (RFC 8414 / OpenID Connect).
 * The protocol work is oauth4webapi's; this file only decides which URLs to try, in which order.
 * @module
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from './errors.js';

/** Options every outgoing request of the client shares. */
export interface RequestContext {
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** The oauth4webapi request options this client sets. */
export interface OAuthRequestOptions {
  [oauth.allowInsecureRequests]: boolean;
  [oauth.customFetch]?: (url: string, init: RequestInit) => Promise<Response>;
}

/** The parts of a `WWW-Authenticate: Bearer` challenge the client acts on. */
export interface BearerChallenge {
  readonly resourceMetadata?: string;
  readonly scope?: string;
  readonly error?: string;
}

/**
 * True for hosts where plain HTTP is allowed (the spec's loopback exception).
 *
 * @example
 * ```ts
 * isLoopback(new URL('http://127.0.0.1:8080/token')); // true
 * ```
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** oauth4webapi options for a request to `url`: plain HTTP only for loopback, and the caller's fetch. */
export function httpOptions(url: URL | string | undefined, ctx: RequestContext): OAuthRequestOptions {
  const target = url === undefined ? undefined : new URL(String(url));
  return {
    [oauth.allowInsecureRequests]: target !== undefined && isLoopback(target),
    ...(ctx.fetch ? { [oauth.customFetch]: ctx.fetch } : {}),
  };
}

/**
 * Reads the Bearer challenge of a 401/403 with oauth4webapi's header parser.
 *
 * @example
 * ```ts
 * const response = await fetch('https://mcp.example.com/mcp', { method: 'POST' });
 * const challenge = await bearerChallenge(response); // { resourceMetadata, scope, error }
 * ```
 */
export async function bearerChallenge(response: Response): Promise<BearerChallenge | undefined> {
  if (!response.headers.has('www-authenticate')) return undefined;
  let challenges: oauth.WWWAuthenticateChallenge[] = [];
  try {
    await oauth.protectedResourceRequest(
      '-',
      'GET',
      new URL('https://challenge.invalid/'),
      undefined,
      undefined,
      {
        [oauth.customFetch]: async () => response,
      },
    );
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError) challenges = error.cause;
  }
  const bearer = challenges.find((challenge) => challenge.scheme === 'bearer');
  if (!bearer) return undefined;
  const params = bearer.parameters as Record<string, string | undefined>;
  return { resourceMetadata: params.resource_metadata, scope: params.scope, error: params.error };
}

/**
 * The PRM URLs to try for `resource`, each with the `resource` its document must name: the
 * header's URL and the path-aware well-known URL describe the MCP endpoint itself (the header's may
 * also describe the origin), the root well-known URL describes the origin.
 */
export function prmCandidates(
  resource: URL,
  fromHeader: string | undefined,
): Array<{ url: URL; names: URL[] }> {
  const origin = new URL(resource.origin);
  const urls: Array<{ url: URL; names: URL[] }> = [];
  if (fromHeader) urls.push({ url: new URL(fromHeader, resource), names: [resource, origin] });
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  if (path)
    urls.push({ url: new URL(`/.well-known/oauth-protected-resource${path}`, origin), names: [resource] });
  urls.push({ url: new URL('/.well-known/oauth-protected-resource', origin), names: [origin] });
  return urls;
}

/**
 * Fetches Protected Resource Metadata, trying each candidate; undefined when none answers and the
 * server named none (a 2025-03-26 server: the caller falls back to its origin). When the 401 named
 * a document and no candidate answers, that is the failure to report: guessing on would end in a
 * misleading error from a later step (a registration endpoint that is not there). A document that
 * names another resource stops the flow: it must never steer this client.
 */
export async function discoverResource(
  resource: URL,
  challenge: BearerChallenge | undefined,
  ctx: RequestContext,
): Promise<oauth.ResourceServer | undefined> {
  let named: string | undefined;
  for (const { url, names } of prmCandidates(resource, challenge?.resourceMetadata)) {
    const response = await getMetadata(url, ctx);
    if (typeof response === 'string') {
      if (challenge?.resourceMetadata !== undefined) named ??= `${url.href} (${response})`;
      continue;
    }
    for (const name of names) {
      try {
        return await oauth.processResourceDiscoveryResponse(name, response.clone());
      } catch {
        // another accepted name may match
      }
    }
    throw new AuthorizationError(
      `the protected resource metadata at ${url.href} does not describe ${resource.href}; refusing to authorize`,
    );
  }
  if (named !== undefined) {
    throw new AuthorizationError(
      `no protected resource metadata at ${named}, the document the server's 401 names; the server must serve it`,
    );
  }
  return undefined;
}

/**
 * GETs a metadata document; when unreachable or not 2xx, why (`404`, `unreachable`), and the
 * caller tries the next URL.
 */
async function getMetadata(url: URL, ctx: RequestContext): Promise<Response | string> {
  try {
    const response = await (ctx.fetch ?? fetch)(url.href, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
    });
    if (response.ok) return response;
    await response.body?.cancel();
    return String(response.status);
  } catch {
    return 'unreachable';
  }
}

/**
 * The metadata URLs of `issuer` in the spec's order: RFC 8414 path insertion, OIDC path insertion,
 * OIDC path append (for an issuer with a path); RFC 8414 then OIDC at the root otherwise.
 */
export function asMetadataCandidates(issuer: URL): URL[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  const at = (p: string) => new URL(p, issuer.origin);
  if (!path) return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/** Authorization-server metadata for `issuer`; its `issuer` must equal the one asked for. */
export async function discoverAuthorizationServer(
  issuer: URL,
  ctx: RequestContext,
): Promise<oauth.AuthorizationServer | undefined> {
  for (const url of asMetadataCandidates(issuer)) {
    if (url.protocol !== 'https:' && !isLoopback(url)) return undefined;
    const response = await getMetadata(url, ctx);
    if (typeof response === 'string') continue;
    try {
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch {
      // Wrong issuer or not metadata: the next form is tried.
    }
  }
  return undefined;
}

/**
 * 2025-03-26 back-compat (no PRM): the metadata at the MCP server's origin. That revision has no
 * issuer rule and servers put their issuer under a path of the origin, so the document is accepted
 * when its `issuer` is on the MCP server's own origin (oauth4webapi then checks it against that).
 */
export async function discoverLegacyAuthorizationServer(
  resource: URL,
  ctx: RequestContext,
): Promise<oauth.AuthorizationServer | undefined> {
  const response = await getMetadata(
    new URL('/.well-known/oauth-authorization-server', resource.origin),
    ctx,
  );
  if (typeof response === 'string') return undefined;
  try {
    const { issuer } = (await response.clone().json()) as { issuer?: unknown };
    if (typeof issuer !== 'string' || new URL(issuer).origin !== resource.origin) return undefined;
    return await oauth.processDiscoveryResponse(new URL(issuer), response);
  } catch {
    return undefined;
  }
}

/** 2025-03-26 back-compat without metadata: the MCP server's origin, default endpoint paths. */
export function legacyAuthorizationServer(resource: URL): oauth.AuthorizationServer {
  const origin = resource.origin;
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
}
