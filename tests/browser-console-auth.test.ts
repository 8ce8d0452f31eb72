/**
 * The console's Authorization tab (issue 32): `mcpkit console` on a server protected by the
 * development authorization server (`mcpkit auth-server`, `mcpkit serve --http --auth-issuer`)
 * logs in through the browser as the CLI does, and the page shows each step `@mcpkit/auth/client`
 * reported: protected resource metadata, authorization server metadata, the client's dynamic
 * registration, the authorization with PKCE, the token; a login the person cancels shows the step
 * that failed and why. The person's browser is headless Chromium filling in the real login page.
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBrowser, runConsoleInProcess, screenshot } from './support/consoleRun.js';
import { answerDevLogin, startProtectedDemo } from './support/devLogin.js';

const consoles = consoleBrowser('tests/browser-console-auth.test.ts');
let stack: Awaited<ReturnType<typeof startProtectedDemo>> | undefined;
let issuer = '';
let mcpUrl = '';
const configs: string[] = [];

beforeAll(async () => {
  if (consoles.skip) return;
  stack = await startProtectedDemo();
  ({ issuer, mcpUrl } = stack);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  for (const config of configs) await rm(config, { recursive: true, force: true });
});

/**
 * `mcpkit console URL` on a terminal, with a fresh token cache: the person signs in (or cancels)
 * on the authorization server's page, then the console's own page opens. Resolves with that page
 * and the function that stops the console.
 */
async function consoleWithLogin(
  choice: 'allow' | 'cancel',
): Promise<{ page: Page; stop: () => Promise<number> }> {
  const config = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-auth-'));
  configs.push(config);
  let opened: (page: Page) => void = () => {};
  const consolePage = new Promise<Page>((resolve) => {
    opened = resolve;
  });
  const running = runConsoleInProcess([mcpUrl], {
    tty: true,
    env: { XDG_CONFIG_HOME: config },
    openBrowser: async (url) => {
      const tab = await consoles.newPage();
      await tab.goto(url);
      if (!url.startsWith(issuer)) {
        opened(tab);
        return true;
      }
      await answerDevLogin(tab, choice);
      await tab.close();
      return true;
    },
  });
  const page = await Promise.race([
    consolePage,
    running.exited.then((exit) => Promise.reject(new Error(`mcpkit console exited with ${exit}`))),
  ]);
  return { page, stop: () => running.stop() };
}

function steps(page: Page): Promise<string[]> {
  return page.getByRole('region', { name: 'Authorization steps' }).getByRole('listitem').allTextContents();
}

describe.skipIf(consoles.skip)('the console shows the steps of its OAuth login', { timeout: 120_000 }, () => {
  it('logs in through the browser and shows each step: metadata, registration, PKCE, token', async () => {
    const { page, stop } = await consoleWithLogin('allow');
    await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Authorization' }).click();
    const shown = await steps(page);
    expect(shown).toEqual([
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
    expect(await stop()).toBe(0);
  });

  it('shows the step that failed, and why, when the person cancels the login', async () => {
    const { page, stop } = await consoleWithLogin('cancel');
    await page.getByRole('tab', { name: 'Authorization' }).click();
    await expect
      .poll(() => steps(page))
      .toContainEqual(expect.stringMatching(/^Authorization \(PKCE\): failed \(.*refused the login/));
    expect(await page.getByRole('alert').first().textContent()).toMatch(/Could not connect/);
    expect(await stop()).toBe(0);
  });
});
