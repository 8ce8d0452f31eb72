/**
 * The console's Authorization (issue 32): `mcpkit console` on a server protected by the
 * development authorization server (`mcpkit auth-server`: oidc-provider with its real login and
 * consent pages) starts the login from its own page, on a terminal or not: the page says why the
 * server asks (its 401 and `WWW-Authenticate`), its "Log in" link opens the authorization server's
 * page in a new tab, which comes back to the console's `/callback`, and the console connects. The
 * Authorization tab shows each step `@mcpkit/auth/client` reported: protected resource metadata,
 * authorization server metadata, the client's registration, the authorization with PKCE, the
 * token, a refresh when the access token expires, and a step-up when a tool needs a larger scope
 * (a 403 `insufficient_scope` the person approves on the authorization server's page); a login
 * the person cancels shows the step that failed and why, and can be started again.
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jwtVerifier, protect, requireScopes } from '@mcpkit/auth/server';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevAuthServer, startDevAuthServer } from '../packages/cli/src/auth/devServer.js';
import { axeViolations, consoleBrowser, runConsoleInProcess, screenshot } from './support/consoleRun.js';
import { answerDevLogin, startProtectedDemo } from './support/devLogin.js';
import { preRegisteredClient } from './support/preRegister.js';

const consoles = consoleBrowser('tests/browser-console-auth.test.ts');
let stack: Awaited<ReturnType<typeof startProtectedDemo>> | undefined;
let issuer = '';
let mcpUrl = '';
/** An authorization server whose access tokens live 35 s (so 5 s before the client refreshes them). */
let shortLived: DevAuthServer | undefined;
/** A server whose `publish` tool needs `mcp:write`, beyond the `mcp:read` its metadata offers. */
let scoped: { url: string; close(): Promise<void> } | undefined;
const configs: string[] = [];

/**
 * `whoami` (the token's scopes) and `publish`, which needs `mcp:write`. The scope guard is given to
 * `protect` only, not installed in the server: `publish` stays listed, and calling it without the
 * scope is a 403 `insufficient_scope` before the server runs anything.
 */
async function startScopedServer(as: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = new McpServer({ name: 'scoped', version: '1.0.0' });
  server.tool('whoami', (_args, ctx) => `scopes: ${(ctx.authInfo?.scopes ?? []).join(' ')}`);
  server.tool('publish', () => 'published');
  const mcp = createStreamableHttpHandler(server);
  let handler: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const served = await serve((request: Request) => handler(request), { host: '127.0.0.1', port: 0 });
  const url = `${served.url.replace(/\/$/, '')}/mcp`;
  handler = protect(mcp, {
    resource: url,
    authorizationServers: [as],
    verifier: jwtVerifier({ issuer: as, audience: url, jwks: `${as}/jwks` }),
    scopes: requireScopes({ tools: { publish: ['mcp:write'] } }),
    scopesSupported: ['mcp:read'],
  });
  return { url, close: () => served.close() };
}

beforeAll(async () => {
  if (consoles.skip) return;
  stack = await startProtectedDemo();
  ({ issuer, mcpUrl } = stack);
  shortLived = await startDevAuthServer(0, { accessTokenTtl: 35 });
  scoped = await startScopedServer(shortLived.issuer);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await scoped?.close();
  await shortLived?.close();
  for (const config of configs) await rm(config, { recursive: true, force: true });
});

/**
 * `mcpkit console URL`, on a terminal or not, with a fresh token cache; resolves with the page it
 * opens, the URLs it asked the browser to open (its own page only: the login starts from there),
 * and the function that stops it.
 */
async function consoleOn(
  target: string | readonly string[],
  tty: boolean,
): Promise<{ page: Page; opened: string[]; stop: () => Promise<number> }> {
  const config = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-auth-'));
  configs.push(config);
  const opened: string[] = [];
  let show: (page: Page) => void = () => {};
  const consolePage = new Promise<Page>((resolve) => {
    show = resolve;
  });
  const running = runConsoleInProcess(typeof target === 'string' ? [target] : target, {
    tty,
    env: { XDG_CONFIG_HOME: config },
    openBrowser: async (target) => {
      opened.push(target);
      const tab = await consoles.newPage();
      await tab.goto(target);
      show(tab);
      return true;
    },
  });
  const page = await Promise.race([
    consolePage,
    running.exited.then((exit) => Promise.reject(new Error(`mcpkit console exited with ${exit}`))),
  ]);
  return { page, opened, stop: () => running.stop() };
}

/** The person presses "Log in" (or "Log in to SERVER"), answers on the authorization server's tab, and closes it. */
async function logInFromPage(page: Page, choice: 'allow' | 'cancel', name = 'Log in'): Promise<void> {
  const link = page.getByRole('link', { name, exact: true });
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await answerDevLogin(tab, choice);
  await tab.getByRole('heading', { name: choice === 'allow' ? 'Logged in' : 'Login refused' }).waitFor();
  await tab.close();
}

function prompt(page: Page) {
  return page.getByRole('region', { name: 'Authorization needed' });
}

function steps(page: Page): Promise<string[]> {
  return page.getByRole('region', { name: 'Authorization steps' }).getByRole('listitem').allTextContents();
}

async function callTool(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name: /^Tools/ }).click();
  await page.getByRole('navigation', { name: 'Tools' }).getByRole('button', { name }).click();
  await page.getByRole('button', { name: `Call ${name}` }).click();
}

function result(page: Page) {
  return page.locator('.result pre.text-block').last().textContent();
}

describe.skipIf(consoles.skip)(
  'the console logs in from its page and shows each step',
  { timeout: 120_000 },
  () => {
    it('off a terminal: the page says why the server asks, "Log in" opens the authorization server, the console connects', async () => {
      const { page, opened, stop } = await consoleOn(mcpUrl, false);
      const origin = new URL(page.url()).origin;
      const token = new URL(page.url()).searchParams.get('token')!;
      await expect
        .poll(() => prompt(page).textContent())
        .toMatch(/needs authorization\..*HTTP 401.*WWW-Authenticate: Bearer .*resource_metadata=/);
      // The redirect comes back to the console itself, and the authorization server never sees its token.
      const href = (await page.getByRole('link', { name: 'Log in', exact: true }).getAttribute('href'))!;
      expect(href.startsWith(`${issuer}/`)).toBe(true);
      expect(new URL(href).searchParams.get('redirect_uri')).toBe(`${origin}/callback`);
      expect(new URL(href).searchParams.get('code_challenge_method')).toBe('S256');
      expect(href).not.toContain(token);
      await screenshot(page, 'console-auth-login');
      expect(await axeViolations(page)).toEqual([]);
      await logInFromPage(page, 'allow');
      await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await prompt(page).count()).toBe(0);
      await expect.poll(() => page.getByRole('tab', { name: /^Tools/ }).textContent()).not.toBe('Tools (0)');
      await page.getByRole('tab', { name: 'Authorization' }).click();
      expect(await steps(page)).toEqual([
        expect.stringMatching(
          /^Protected resource metadata: done \(authorization servers: http:\/\/127\.0\.0\.1:\d+\)$/,
        ),
        `Authorization server metadata: done (issuer ${issuer})`,
        expect.stringMatching(/^Client identity .*: done \(dynamic registration: client id \S+\)$/),
        expect.stringMatching(
          /^Authorization \(PKCE\): done \(http:\/\/127\.0\.0\.1:\d+\/\S+, PKCE S256, scope mcp:read/,
        ),
        expect.stringMatching(/^Token: done \(granted scope .*mcp:read/),
      ]);
      await screenshot(page, 'console-auth');
      expect(opened).toEqual([page.url()]);
      expect(await stop()).toBe(0);
    });

    it('on a terminal: a cancelled login shows the step that failed and why, and "Log in again" logs in', async () => {
      const { page, stop } = await consoleOn(mcpUrl, true);
      await logInFromPage(page, 'cancel');
      await page.getByRole('tab', { name: 'Authorization' }).click();
      await expect
        .poll(() => steps(page))
        .toContainEqual(expect.stringMatching(/^Authorization \(PKCE\): failed \(.*refused the login/));
      expect(await page.getByRole('alert').first().textContent()).toMatch(/Could not connect/);
      await page.getByRole('button', { name: 'Log in again' }).click();
      await logInFromPage(page, 'allow');
      await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
      expect((await steps(page)).at(-1)).toMatch(/^Token: done/);
      expect(await stop()).toBe(0);
    });

    it('an access token that expires is refreshed, and the refresh is shown', async () => {
      const { page, stop } = await consoleOn(scoped!.url, false);
      await logInFromPage(page, 'allow');
      await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
      await page.getByRole('tab', { name: 'Authorization' }).click();
      expect((await steps(page)).some((step) => step.startsWith('Refresh'))).toBe(false);
      // The token lives 35 s and is refreshed 30 s before it expires: the calls after 5 s refresh it.
      await expect
        .poll(
          async () => {
            await callTool(page, 'whoami');
            await page.getByRole('tab', { name: 'Authorization' }).click();
            return steps(page);
          },
          { timeout: 40_000, interval: 2000 },
        )
        .toContainEqual(expect.stringMatching(/^Refresh: done \(scope .*mcp:read/));
      await callTool(page, 'whoami');
      await expect.poll(() => result(page)).toMatch(/^scopes: .*mcp:read/);
      expect(await prompt(page).count()).toBe(0); // refreshed, never sent back to the login
      expect(await stop()).toBe(0);
    });

    it('a tool that needs a larger scope: 403 insufficient_scope, a step-up the person approves, the call succeeds', async () => {
      const { page, stop } = await consoleOn(scoped!.url, false);
      await logInFromPage(page, 'allow');
      await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
      // Cancelled on the page first: the call fails and says why; asked again, it steps up again.
      await callTool(page, 'publish');
      await prompt(page).getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect
        .poll(() => page.locator('.result').last().textContent())
        .toMatch(/The login was cancelled in the console/);
      await callTool(page, 'publish');
      await expect
        .poll(() => prompt(page).textContent())
        .toMatch(/HTTP 403.*WWW-Authenticate: Bearer .*scope="mcp:write".*insufficient_scope/);
      const href = (await page.getByRole('link', { name: 'Log in', exact: true }).getAttribute('href'))!;
      expect(new URL(href).searchParams.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['mcp:read', 'mcp:write']),
      );
      await logInFromPage(page, 'allow');
      await page.getByRole('tab', { name: /^Tools/ }).click();
      await expect.poll(() => result(page), { timeout: 30_000 }).toBe('published');
      await page.getByRole('tab', { name: 'Authorization' }).click();
      const shown = await steps(page);
      expect(shown).toContainEqual(
        expect.stringMatching(/^Authorization \(PKCE\): failed \(The login was cancelled in the console\)$/),
      );
      const stepUp = shown.findLastIndex((step) => step.startsWith('Step-up'));
      expect(shown[stepUp]).toBe('Step-up: done (the server asks for scope "mcp:write")');
      expect(shown.slice(stepUp + 1)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Authorization \(PKCE\): done \(.*scope .*mcp:write/),
          expect.stringMatching(/^Token: done \(granted scope .*mcp:write/),
        ]),
      );
      await screenshot(page, 'console-auth-step-up');
      expect(await stop()).toBe(0);
    });

    it('against a host (--config): a remote server logs in from the page, named, and its steps carry its name', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-auth-host-'));
      configs.push(dir);
      const config = path.join(dir, 'mcp.json');
      await writeFile(config, JSON.stringify({ mcpServers: { scoped: { type: 'http', url: scoped!.url } } }));
      const { page, stop } = await consoleOn(['--config', config], false);
      await expect
        .poll(() => prompt(page).textContent())
        .toMatch(/scoped needs authorization\..*HTTP 401.*WWW-Authenticate: Bearer/);
      // Regression: a server whose login was cancelled stayed failed until the console restarted;
      // its Restart button asks for the login again.
      await prompt(page).getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('tab', { name: 'Servers' }).click();
      const row = page.getByRole('row', { name: /^scoped/ });
      await expect.poll(() => row.textContent()).toMatch(/failed/);
      await row.getByRole('button', { name: 'Restart scoped' }).click();
      await expect.poll(() => prompt(page).textContent()).toMatch(/scoped needs authorization/);
      await logInFromPage(page, 'allow', 'Log in to scoped');
      await expect.poll(() => page.getByRole('row', { name: /^scoped/ }).textContent()).toMatch(/ready/);
      await callTool(page, 'whoami'); // one server: no prefix (the host namespaces on collision)
      await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click(); // the host's consent
      await expect.poll(() => result(page)).toMatch(/^scopes: .*mcp:read/);
      await page.getByRole('tab', { name: 'Authorization' }).click();
      expect(await steps(page)).toEqual([
        expect.stringMatching(/^scoped: Protected resource metadata: done/),
        expect.stringMatching(/^scoped: Authorization server metadata: done/),
        expect.stringMatching(/^scoped: Client identity .*: done \(dynamic registration/),
        'scoped: Authorization (PKCE): failed (The login was cancelled in the console)',
        expect.stringMatching(/^scoped: Protected resource metadata: done/),
        expect.stringMatching(/^scoped: Authorization server metadata: done/),
        expect.stringMatching(/^scoped: Client identity .*: done \(registered before/),
        expect.stringMatching(/^scoped: Authorization \(PKCE\): done/),
        expect.stringMatching(/^scoped: Token: done \(granted scope .*mcp:read/),
      ]);
      // A step-up through the host: the server's 403 names it, and so does the step.
      await callTool(page, 'publish');
      await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
      await expect
        .poll(() => prompt(page).textContent())
        .toMatch(/scoped needs authorization\..*HTTP 403.*insufficient_scope/);
      await logInFromPage(page, 'allow', 'Log in to scoped');
      await expect.poll(() => result(page), { timeout: 30_000 }).toBe('published');
      await page.getByRole('tab', { name: 'Authorization' }).click();
      expect(await steps(page)).toContainEqual(
        'scoped: Step-up: done (the server asks for scope "mcp:write")',
      );
      expect(await stop()).toBe(0);
    });

    it("against a host (--config): a server's entry names its own pre-registered client and scope, and the login uses them", async () => {
      const { client_id, client_secret } = await preRegisteredClient(shortLived!.issuer);
      const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-auth-entry-'));
      configs.push(dir);
      const config = path.join(dir, 'mcp.json');
      const oauth = { clientId: client_id, clientSecret: client_secret, scope: 'mcp:read' };
      await writeFile(
        config,
        JSON.stringify({ mcpServers: { scoped: { type: 'http', url: scoped!.url, oauth } } }),
      );
      const { page, stop } = await consoleOn(['--config', config], false);
      await expect.poll(() => prompt(page).textContent()).toMatch(/scoped needs authorization/);
      await logInFromPage(page, 'allow', 'Log in to scoped');
      await page.getByRole('tab', { name: 'Servers' }).click();
      await expect.poll(() => page.getByRole('row', { name: /^scoped/ }).textContent()).toMatch(/ready/);
      await page.getByRole('tab', { name: 'Authorization' }).click();
      expect(await steps(page)).toContainEqual(
        expect.stringMatching(
          new RegExp(`^scoped: Client identity .*: done \\(pre-registered: client id ${client_id}\\)`),
        ),
      );
      expect(await steps(page)).toContainEqual(
        expect.stringMatching(/^scoped: Token: done \(granted scope .*mcp:read/),
      );
      expect(await page.content()).not.toContain(client_secret);
      expect(await stop()).toBe(0);
    });

    it('a person slower than the revision probe (10 s) to log in still gets 2026-07-28, not a fallback to 2025-11-25', async () => {
      const { page, stop } = await consoleOn(mcpUrl, false);
      await prompt(page).waitFor();
      await page.waitForTimeout(11_000); // the person reads, types a password, confirms a second factor
      await logInFromPage(page, 'allow');
      await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('revision').textContent()).toBe('Revision: 2026-07-28');
      expect(await stop()).toBe(0);
    });
  },
);
