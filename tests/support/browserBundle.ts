/**
 * Headless Chromium for the browser tests: repository modules bundled for a page (esbuild from the
 * TypeScript sources, the "@mcpkit/source" condition, one ESM file) and the browser itself.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/chromium.mjs';

/** `contents` (an ES module of re-exports, resolved from the repository root) as one browser module. */
export async function bundleForBrowser(contents: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: join(import.meta.dirname, '../..'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@mcpkit/source'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A headless Chromium with a throwaway profile; `close()` ends it and removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
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
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
