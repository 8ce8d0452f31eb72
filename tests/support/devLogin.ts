/**
 * The person at the browser on the login page of `mcpkit auth-server` (oidc-provider's
 * development pages), for the browser tests of a login.
 * @module
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type RunningCli, startCliInProcess } from './inProcessCli.js';

/**
 * Signs in as `dev-user` and allows (or cancels) on the page `tab` shows, then waits for the
 * redirect to the callback. A browser already signed in there (an earlier login in the same
 * profile) is only asked to consent, or not at all when it consented to as much before.
 *
 * @example
 * ```ts
 * await tab.goto(authorizationUrl);
 * await answerDevLogin(tab, 'allow');
 * ```
 */
export async function answerDevLogin(tab: Page, choice: 'allow' | 'cancel'): Promise<void> {
  const callback = /^http:\/\/127\.0\.0\.1:\d+\/callback/;
  if (choice === 'cancel') {
    await tab.getByRole('link', { name: /cancel/i }).click();
  } else {
    const signIn = tab.locator('input[name=login]');
    const consent = tab.getByRole('button', { name: 'Continue' });
    await expect
      .poll(async () => callback.test(tab.url()) || (await signIn.or(consent).count()) > 0)
      .toBe(true);
    if (await signIn.isVisible()) {
      await signIn.fill('dev-user');
      await tab.fill('input[name=password]', 'any password');
      await tab.getByRole('button', { name: 'Sign-in' }).click();
    }
    if (!callback.test(tab.url())) {
      await expect.poll(async () => callback.test(tab.url()) || (await consent.count()) > 0).toBe(true);
      if (!callback.test(tab.url())) await consent.click();
    }
  }
  await tab.waitForURL(callback);
}

/**
 * `mcpkit auth-server` and the demo server protected by it (`serve --http --auth-issuer`), both in
 * this process.
 *
 * @example
 * ```ts
 * const stack = await startProtectedDemo();
 * console.log(stack.issuer, stack.mcpUrl);
 * await stack.stop();
 * ```
 */
export async function startProtectedDemo(): Promise<{
  issuer: string;
  mcpUrl: string;
  authServer: RunningCli;
  demo: RunningCli;
  stop(): Promise<void>;
}> {
  const authServer = await startCliInProcess(['auth-server', '--port', '0'], /^Issuer: +(\S+)$/m);
  const issuer = authServer.match[1] as string;
  const demo = await startCliInProcess(
    ['serve', '--http', '--port', '0', '--auth-issuer', issuer],
    /listening on (\S+)/,
  );
  return {
    issuer,
    mcpUrl: demo.match[1] as string,
    authServer,
    demo,
    async stop() {
      await demo.stop();
      await authServer.stop();
    },
  };
}
