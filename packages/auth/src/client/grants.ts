/**
 * Token requests through oauth4webapi: authorization code with PKCE S256, refresh, client
 * credentials, and cross-app access (RFC 8693 token exchange, then the RFC 7523 JWT-bearer grant).
 * Every request carries the RFC 8707 `resource`.
 * @module
 */
import * as oauth from 'oauth4webapi';
import { httpOptions, type RequestContext } from './discovery.js';
import { AuthorizationError, wrapError } from './errors.js';
import type { StoredTokens } from './store.js';

/** One authorization server and how this client talks to it. */
export interface GrantContext extends RequestContext {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  /** The canonical URI of the MCP server (RFC 8707 `resource`). */
  readonly resource: string;
}

/** What the redirect hook hands back: the query of the redirect URI the user came back to. */
export type CallbackParameters = URLSearchParams | URL | { code: string; state: string; iss?: string };

/** Sends the user to `url` and resolves with the parameters of the redirect back. Never opens a browser by itself. */
export type RedirectHook = (authorizationUrl: URL) => Promise<CallbackParameters>;

/** Refuses an authorization server that does not advertise PKCE S256 (spec MUST). */
export function requireS256(as: oauth.AuthorizationServer): void {
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new AuthorizationError(
      `the authorization server ${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported); refusing to authorize`,
    );
  }
}

/** The authorization-code grant with PKCE S256 and a checked `state`. */
export async function authorizationCodeGrant(
  g: GrantContext,
  redirectUri: string,
  scope: string | undefined,
  redirect: RedirectHook,
): Promise<StoredTokens> {
  requireS256(g.as);
  if (!g.as.authorization_endpoint)
    throw new AuthorizationError(`${g.as.issuer} has no authorization_endpoint`);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(g.as.authorization_endpoint);
  if (url.protocol !== 'https:' && !httpOptions(url, g)[oauth.allowInsecureRequests]) {
    throw new AuthorizationError(`the authorization endpoint ${url.origin} is not HTTPS`);
  }
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', g.client.client_id);
  params.set('redirect_uri', redirectUri);
  params.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  params.set('code_challenge_method', 'S256');
  params.set('state', state);
  params.set('resource', g.resource);
  if (scope) params.set('scope', scope);
  const callback = toSearchParams(await redirect(url));
  let validated: URLSearchParams;
  try {
    validated = oauth.validateAuthResponse(g.as, g.client, callback, state);
  } catch (error) {
    // The redirect carried `error` (RFC 6749 §4.1.2.1): the server refused, nothing was exchanged.
    if (error instanceof oauth.AuthorizationResponseError)
      throw wrapError('the authorization request', error, 'the authorization server refused the login');
    throw wrapError('the authorization response', error);
  }
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      g.as,
      g.client,
      g.clientAuth,
      validated,
      redirectUri,
      verifier,
      {
        ...httpOptions(g.as.token_endpoint, g),
        additionalParameters: { resource: g.resource },
      },
    );
    return toStored(g, await oauth.processAuthorizationCodeResponse(g.as, g.client, response));
  } catch (error) {
    throw wrapError('the authorization code exchange', error);
  }
}

function toSearchParams(value: CallbackParameters): URLSearchParams {
  if (value instanceof URL) return value.searchParams;
  if (value instanceof URLSearchParams) return value;
  const params = new URLSearchParams({ code: value.code, state: value.state });
  if (value.iss) params.set('iss', value.iss);
  return params;
}

/** Exchanges a refresh token, with `resource`. */
export async function refreshGrant(
  g: GrantContext,
  refreshToken: string,
  scope?: string,
): Promise<StoredTokens> {
  try {
    const response = await oauth.refreshTokenGrantRequest(g.as, g.client, g.clientAuth, refreshToken, {
      ...httpOptions(g.as.token_endpoint, g),
      additionalParameters: { resource: g.resource, ...(scope ? { scope } : {}) },
    });
    const result = await oauth.processRefreshTokenResponse(g.as, g.client, response);
    return toStored(g, result, refreshToken);
  } catch (error) {
    throw wrapError('the token refresh', error);
  }
}

/** The client-credentials grant (machine to machine), with `resource`. */
export async function clientCredentialsGrant(
  g: GrantContext,
  scope: string | undefined,
): Promise<StoredTokens> {
  try {
    const parameters: Record<string, string> = { resource: g.resource };
    if (scope) parameters.scope = scope;
    const response = await oauth.clientCredentialsGrantRequest(
      g.as,
      g.client,
      g.clientAuth,
      parameters,
      httpOptions(g.as.token_endpoint, g),
    );
    return toStored(g, await oauth.processClientCredentialsResponse(g.as, g.client, response));
  } catch (error) {
    throw wrapError('the client credentials grant', error);
  }
}

/** Where cross-app access gets its authorization grant: the enterprise IdP's token exchange. */
export interface CrossAppAccess {
  /** The IdP's metadata (issuer, token_endpoint). */
  readonly idp: oauth.AuthorizationServer;
  /** This client's id at the IdP, and its secret there when it is confidential (client_secret_basic). */
  readonly idpClientId: string;
  readonly idpClientSecret?: string;
  /** The user's identity assertion at the IdP (an ID token). */
  readonly idToken: () => Promise<string> | string;
}

/**
 * Cross-app access (SEP-990): RFC 8693 token exchange at the IdP for an ID-JAG, then the RFC 7523
 * JWT-bearer grant at the MCP server's authorization server.
 */
export async function crossAppGrant(
  g: GrantContext,
  xaa: CrossAppAccess,
  scope: string | undefined,
): Promise<StoredTokens> {
  let assertion: string;
  try {
    const exchange: Record<string, string> = {
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: g.as.issuer,
      resource: g.resource,
      subject_token: await xaa.idToken(),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    };
    if (scope) exchange.scope = scope;
    const idpClient: oauth.Client = { client_id: xaa.idpClientId };
    const idpAuth = xaa.idpClientSecret ? oauth.ClientSecretBasic(xaa.idpClientSecret) : oauth.None();
    const result = await tokenRequest(xaa.idp, idpClient, idpAuth, TOKEN_EXCHANGE, exchange, g);
    assertion = result.access_token;
  } catch (error) {
    throw wrapError('the cross-app token exchange', error);
  }
  try {
    const params: Record<string, string> = { assertion, resource: g.resource };
    if (scope) params.scope = scope;
    return toStored(g, await tokenRequest(g.as, g.client, g.clientAuth, JWT_BEARER, params, g));
  } catch (error) {
    throw wrapError('the JWT-bearer grant', error);
  }
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** One extension-grant request at `as`'s token endpoint; token exchange answers with token_type N_A. */
async function tokenRequest(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  auth: oauth.ClientAuth,
  grantType: string,
  params: Record<string, string>,
  ctx: RequestContext,
): Promise<oauth.TokenEndpointResponse> {
  const response = await oauth.genericTokenEndpointRequest(
    as,
    client,
    auth,
    grantType,
    params,
    httpOptions(as.token_endpoint, ctx),
  );
  return oauth.processGenericTokenEndpointResponse(as, client, response, {
    recognizedTokenTypes: { n_a: () => {} },
  });
}

function toStored(
  g: GrantContext,
  result: oauth.TokenEndpointResponse,
  previousRefresh?: string,
): StoredTokens {
  return {
    accessToken: result.access_token,
    refreshToken: result.refresh_token ?? previousRefresh,
    expiresAt: result.expires_in === undefined ? undefined : Date.now() + result.expires_in * 1000,
    scope: result.scope,
    issuer: g.as.issuer,
  };
}
