/**
 * How the bundle-size scripts bundle an entry: the way a user's bundler would (esbuild, ESM,
 * platform node, every dependency inlined), from the TypeScript sources (the `@mcpkit/source`
 * condition, so no build is needed). Shared by check-bundle-size.mjs and bundle-breakdown.mjs so
 * both measure the same thing.
 * @module
 */
import { gzipSync } from 'node:zlib';

/**
 * esbuild options for one measured bundle (add `minify` or the finer minify flags).
 * @example
 * await build({ ...BUNDLE_OPTIONS, entryPoints: ['bench/servers/mcpkit-stdio.mjs'], minify: true });
 */
export const BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@mcpkit/source'],
  write: false,
  logLevel: 'silent',
});

/**
 * Gzip -9 size in bytes, as the budgets count it.
 * @example
 * gzipBytes(result.outputFiles[0].contents);
 */
export function gzipBytes(contents) {
  return gzipSync(contents, { level: 9 }).length;
}
