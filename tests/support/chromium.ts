/**
 * Headless Chromium for the browser tests: Debian's `chromium` through playwright-core, with the
 * project's flags (scripts/lib/chromium.mjs) and a throwaway profile.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/chromium.mjs';

/** A browser context, and a close that also deletes its profile. */
export interface HeadlessChromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh profile; fails (never skips) when it is not installed.
 */
export async function launchChromium(): Promise<HeadlessChromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: run scripts/install-chromium.sh (or set MCPKIT_SKIP_BROWSER=1 to skip on purpose)`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'mcpkit-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
