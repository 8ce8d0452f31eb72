/**
 * Repository modules bundled for a browser page (esbuild from the TypeScript sources, the
 * "@mcpkit/source" condition, one ESM file); the browser itself is `./chromium.ts`.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

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
