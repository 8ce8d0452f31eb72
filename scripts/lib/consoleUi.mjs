/**
 * How the console's page (packages/console/ui, Preact) is built by Vite: from the TypeScript
 * sources of the mcpkit packages it imports (the `@mcpkit/source` condition, as the bundle-size
 * check builds them), into packages/console/dist/ui, with no CDN, no inline script (the page's
 * CSP allows only its own files) and no module-preload polyfill.
 * @module
 */
import path from 'node:path';
import { ROOT } from './packages.mjs';

/** Where the page's sources are. */
export const CONSOLE_UI_ROOT = path.join(ROOT, 'packages/console/ui');
/** Where the built page goes: the package's `dist/ui`, served by the backend. */
export const CONSOLE_UI_OUT = path.join(ROOT, 'packages/console/dist/ui');

/**
 * The Vite configuration of the page's build.
 * @param {{ write: boolean }} options write: false builds in memory (the size check).
 * @returns {import('vite').InlineConfig}
 */
export function consoleUiConfig({ write }) {
  return {
    root: CONSOLE_UI_ROOT,
    base: '/',
    configFile: false,
    envDir: false,
    publicDir: false,
    logLevel: 'warn',
    resolve: { conditions: ['@mcpkit/source', 'browser', 'module', 'import', 'default'] },
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: CONSOLE_UI_OUT,
      emptyOutDir: write,
      write,
      target: 'es2022',
      sourcemap: false,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
      assetsInlineLimit: 0,
    },
  };
}
