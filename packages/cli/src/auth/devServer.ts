/**
 * `mcpkit auth-server`: a development OAuth 2.1 authorization server on loopback, so that
 * `mcpkit serve --auth-issuer` and `mcpkit login` can be tried without an identity provider. It is
 * panva's `oidc-provider` (an optional peer of the CLI, loaded only by this verb) with dynamic
 * client registration, PKCE, resource indicators (JWT access tokens whose audience is the MCP
 * server) and refresh tokens, and oidc-provider's own development login and consent pages, which
 * accept any name and password. Everything lives in memory and the signing keys are throwaway:
 * for development only, and it binds 127.0.0.1 and nothing else.
 * @module
 */
import type { RequestListener } from 'node:http';
import type { CliIo } from '../cliIo.js';
import { CliError, ExitCode } from '../errors.js';
import { startHttp, stopHttp } from '../httpServe.js';
import { createStyle, wantsColor } from '../output.js';
import { untilStopped } from '../stopped.js';

/** The scopes the development server grants for any resource, and publishes. */
export const DEV_SCOPES = ['mcp:read', 'mcp:write'] as const;

/** The account name the banner suggests (any name is accepted). */
export const DEV_USER = 'dev-user';

/** A running development authorization server. */
export interface DevAuthServer {
  /** `http://127.0.0.1:PORT`: the issuer identifier to give `mcpkit serve --auth-issuer`. */
  readonly issuer: string;
  close(): Promise<void>;
}

/** Loads oidc-provider, or says how to install it: the CLI does not depend on it. */
async function loadProvider(): Promise<typeof import('oidc-provider').default> {
  try {
    return (await import('oidc-provider')).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliError(
      ExitCode.Usage,
      '"mcpkit auth-server" needs the oidc-provider package, which is not installed',
      'npm install -D oidc-provider (beside mcpkit), then run it again',
    );
  }
}

/**
 * Starts the development authorization server on 127.0.0.1:`port` (0: any free port); its access
 * tokens live `accessTokenTtl` seconds (default an hour; a short one shows clients refreshing).
 *
 * @example
 * ```ts
 * const dev = await startDevAuthServer(9000);
 * console.log(dev.issuer); // http://127.0.0.1:9000
 * await dev.close();
 * ```
 */
export async function startDevAuthServer(
  port: number,
  { accessTokenTtl = 3600 }: { readonly accessTokenTtl?: number } = {},
): Promise<DevAuthServer> {
  const Provider = await loadProvider();
  // The issuer names the port, known only once listening; until the provider exists: 503.
  let callback: RequestListener = (_req, res) => res.writeHead(503).end();
  const { http, base: issuer } = await startHttp(
    { host: '127.0.0.1', port },
    () => (req, res) => callback(req, res),
  );
  const provider = new Provider(issuer, {
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets an opaque token for the userinfo endpoint only.
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: accessTokenTtl,
          scope: DEV_SCOPES.join(' '),
        }),
      },
    },
    scopes: ['openid', 'offline_access'],
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  });
  callback = provider.callback();
  return { issuer, close: () => stopHttp(http) };
}

/**
 * `mcpkit auth-server [--port N]`: runs the development authorization server until Ctrl-C.
 *
 * @example
 * ```ts
 * declare const io: CliIo;
 * const code = await runDevAuthServer({ port: 9000 }, io);
 * ```
 */
export async function runDevAuthServer(settings: { readonly port: number }, io: CliIo): Promise<number> {
  const dev = await startDevAuthServer(settings.port);
  const style = createStyle(wantsColor(io.stdout, io.env));
  io.stdout.write(`${style.bold('mcpkit development authorization server')} listening on ${style.cyan(dev.issuer)}
${style.yellow('For development only:')} any name and password log in, keys and tokens live in memory, 127.0.0.1 only.
Issuer:    ${dev.issuer}
Test user: ${DEV_USER} (any password; every name is accepted)
Scopes:    ${DEV_SCOPES.join(' ')} (access tokens are JWTs for the resource a client names)

Try it:
  npx mcpkit serve --http --auth-issuer ${dev.issuer}
  npx mcpkit login http://127.0.0.1:3000/mcp

Press Ctrl-C to stop.
`);
  await untilStopped(io);
  await dev.close();
  return ExitCode.Success;
}
