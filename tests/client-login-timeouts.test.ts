/**
 * Regression: the time a person spends logging in after a 401 counted against the client's
 * timers. A 2026-07-28 server behind `protect()` was spoken to as 2025-11-25 when the login took
 * longer than the era probe's wait (`eraProbeTimeout`), the handshake failed past its limit
 * (the CLI's 15 s over HTTP), and a request meeting a 401 later timed out during the login.
 *
 * Real parts: `oidc-provider` on loopback, an mcpkit server wrapped with `protect`, the client's
 * `OAuthClientProvider`; the person is the fixture's `browser`, who takes a while before starting.
 */
import { OAuthClientProvider } from '@mcpkit/auth/client';
import { jwtVerifier, protect } from '@mcpkit/auth/server';
import { McpClient, type ProtocolEra } from '@mcpkit/client';
import {
  AuthorizationTimeoutError,
  SseClientTransport,
  StreamableHttpClientTransport,
} from '@mcpkit/client/http';
import { RequestCancelledError, type Transport } from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createLegacySseHandler, createStreamableHttpHandler } from '@mcpkit/server/http';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../packages/cli/src/terminalStyle.js';
import { WatchedTransport } from '../packages/cli/src/trace.js';
import { LoggedTransport } from '../packages/console/src/protocolLog.js';
import { browser, useAuthServer } from './support/authServer.js';

const REDIRECT = 'http://127.0.0.1/callback';
/** Longer than every timer below: each of them would have expired during a login. */
const LOGIN_MS = 1000;
const SHORT_MS = 300;
const { as, cleanups } = useAuthServer();

/** What the protected server speaks: both eras, 2025-11-25 only, or the legacy HTTP+SSE transport. */
type Speaks = 'both' | '2025' | 'sse';

/**
 * An mcpkit server at `<origin>/mcp` (`/sse` for the legacy transport) behind `protect`;
 * `require` changes the scopes asked.
 */
async function startProtected(speaks: Speaks) {
  const options = speaks === 'both' ? {} : { protocolVersions: ['2025-11-25' as const] };
  const server = new McpServer({ name: 'protected', version: '1.0.0' }, options);
  server.tool('whoami', (_args, ctx) => JSON.stringify({ scopes: ctx.authInfo?.scopes }));
  const mcp = speaks === 'sse' ? createLegacySseHandler(server) : createStreamableHttpHandler(server);
  let current: (request: Request) => Promise<Response> = mcp;
  const served = await serve((request: Request) => current(request));
  cleanups.push(() => served.close());
  const resource = `${served.url.replace(/\/$/, '')}/${speaks === 'sse' ? 'sse' : 'mcp'}`;
  const require = (scopes: string[]) => {
    const issuer = as().issuer;
    current = protect(mcp, {
      resource,
      authorizationServers: [issuer],
      verifier: jwtVerifier({ issuer, audience: resource, jwks: `${issuer}/jwks` }),
      requiredScopes: scopes,
      scopesSupported: ['mcp:read', 'mcp:write'],
    });
  };
  require(['mcp:read']);
  return { resource, require };
}

/** A person who takes `delay` ms before logging in (forever when Infinity); logins counted. */
interface Person {
  logins: number;
  delay: number;
}

/**
 * A protected server, a person who takes `delay` ms to log in, and a client (not yet connected)
 * with `OAuthClientProvider` over Streamable HTTP; `legacy` makes the server 2025-11-25 only.
 */
async function loginStack(
  delay: number,
  options: { era?: ProtocolEra; speaks?: Speaks; authorizationTimeout?: number } = {},
) {
  const speaks = options.speaks ?? 'both';
  const { resource, require } = await startProtected(speaks);
  const person: Person = { logins: 0, delay };
  const login = browser(REDIRECT);
  const redirect = async (url: URL) => {
    person.logins++;
    if (person.delay === Number.POSITIVE_INFINITY) return new Promise<URL>(() => {});
    await new Promise((resolve) => setTimeout(resolve, person.delay));
    return login(url);
  };
  const auth = new OAuthClientProvider({ serverUrl: resource, redirectUri: REDIRECT, redirect });
  const mcp = new McpClient(
    { name: 'login-timers', version: '1.0.0' },
    { eraProbeTimeout: SHORT_MS, protocolEra: options.era ?? 'auto', onError: () => {} },
  );
  cleanups.push(() => mcp.close());
  const http = {
    authProvider: auth,
    ...(options.authorizationTimeout ? { authorizationTimeout: options.authorizationTimeout } : {}),
  };
  const transport =
    speaks === 'sse'
      ? new SseClientTransport(resource, { ...http, endpointTimeout: SHORT_MS })
      : new StreamableHttpClientTransport(resource, http);
  return { mcp, transport, auth, person, require };
}

/** The scopes the server saw on a `whoami` call. */
function scopesOf(result: { content: unknown[] }): string[] {
  return JSON.parse((result.content[0] as { text: string }).text).scopes;
}

describe('time spent logging in does not count against the client timers', () => {
  it('regression: a login slower than eraProbeTimeout no longer falls back to 2025-11-25', async () => {
    const { mcp, transport, person } = await loginStack(LOGIN_MS);
    await mcp.connect(transport);
    expect(person.logins).toBe(1);
    expect(mcp.protocolVersion).toBe('2026-07-28');
  });

  it('regression: a login slower than eraProbeTimeout and the handshake limit still negotiates 2026-07-28', async () => {
    const { mcp, transport, person } = await loginStack(LOGIN_MS);
    // The probe waits 300 ms, the whole handshake 500 ms (the CLI passes its 15 s the same way,
    // as connect's `timeout`): the login takes 1 s inside the probe's first request.
    await mcp.connect(transport, { timeout: 500 });
    expect(person.logins).toBe(1);
    expect(mcp.protocolVersion).toBe('2026-07-28');
    expect(scopesOf(await mcp.callTool('whoami', {}))).toContain('mcp:read');
  });

  it.each([
    ['the CLI', (inner: Transport) => new WatchedTransport(inner, createStyle(false))],
    ['the console', (inner: Transport) => new LoggedTransport(inner, () => {})],
  ])('regression: %s wraps the transport, and the login still stops the timers', async (_, wrap) => {
    const { mcp, transport, person } = await loginStack(LOGIN_MS);
    // The CLI's handshake passes its limit (15 s over HTTP) as connect's timeout, as here.
    await mcp.connect(wrap(transport), { timeout: 500 });
    expect(person.logins).toBe(1);
    expect(mcp.protocolVersion).toBe('2026-07-28');
  });

  it('a login during the probe of a 2025-only server leaves initialize the handshake time it had', async () => {
    const { mcp, transport, person } = await loginStack(LOGIN_MS, { speaks: '2025' });
    await mcp.connect(transport, { timeout: 500 });
    expect(person.logins).toBe(1);
    expect(mcp.protocolVersion).toBe('2025-11-25');
  });

  it('the legacy HTTP+SSE transport: a login after its GET meets a 401 does not use up endpointTimeout', async () => {
    const { mcp, transport, person } = await loginStack(LOGIN_MS, { speaks: 'sse', era: '2025' });
    await mcp.connect(transport, { timeout: SHORT_MS });
    expect(person.logins).toBe(1);
    expect(scopesOf(await mcp.callTool('whoami', {}, { timeout: SHORT_MS }))).toContain('mcp:read');
  });

  it.each(['auto', '2025'] as const)(
    'a request with timeout 300 ms whose 401 starts a 1 s login succeeds (era %s)',
    async (era) => {
      const { mcp, transport, person, auth } = await loginStack(0, { era });
      await mcp.connect(transport);
      // The token is gone (expired, no refresh): the next request meets a 401 and a slow login.
      await auth.logout();
      person.delay = LOGIN_MS;
      const result = await mcp.callTool('whoami', {}, { timeout: SHORT_MS, maxTotalTimeout: SHORT_MS });
      expect(scopesOf(result)).toContain('mcp:read');
      expect(person.logins).toBe(2);
    },
  );

  it('a step-up (403 insufficient_scope) with a slow login does not time the request out', async () => {
    const { mcp, transport, person, require } = await loginStack(0);
    await mcp.connect(transport);
    require(['mcp:read', 'mcp:write']);
    person.delay = LOGIN_MS;
    expect(scopesOf(await mcp.callTool('whoami', {}, { timeout: SHORT_MS }))).toContain('mcp:write');
    expect(person.logins).toBe(2);
  });

  it('a login that never ends is bounded by authorizationTimeout, and is not taken for a legacy server', async () => {
    const { mcp, transport, person } = await loginStack(Number.POSITIVE_INFINITY, {
      authorizationTimeout: 400,
    });
    const failure = await mcp.connect(transport).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthorizationTimeoutError);
    expect((failure as Error).message).toMatch(
      /waited on authorization .* more than 400 ms \(authorizationTimeout\)/,
    );
    // One login only: the probe's failure was final, no `initialize` started a second one.
    expect(person.logins).toBe(1);
  });

  it('aborting a request during its login rejects at once', async () => {
    const { mcp, transport, person, auth } = await loginStack(0);
    await mcp.connect(transport);
    await auth.logout();
    person.delay = Number.POSITIVE_INFINITY;
    const controller = new AbortController();
    const call = mcp.callTool('whoami', {}, { signal: controller.signal });
    await expect.poll(() => person.logins).toBe(2);
    const started = Date.now();
    controller.abort('the person gave up');
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    // The default authorizationTimeout is 10 minutes: "at once" is anything far below it.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('aborting connect during the login rejects at once', async () => {
    const { mcp, transport, person } = await loginStack(Number.POSITIVE_INFINITY);
    const controller = new AbortController();
    const connecting = mcp.connect(transport, { signal: controller.signal });
    await expect.poll(() => person.logins).toBe(1);
    controller.abort();
    await expect(connecting).rejects.toBeInstanceOf(RequestCancelledError);
  });
});
