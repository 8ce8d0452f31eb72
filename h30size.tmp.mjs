import path from 'node:path';
import { build } from 'esbuild';
const ROOT = process.cwd();
const { BUNDLE_OPTIONS, gzipBytes } = await import(path.join(ROOT, 'scripts/lib/bundling.mjs'));
const entries = ['@mcpkit/server', '@mcpkit/server/http', '@mcpkit/server/tasks', 'bench/servers/mcpkit-stdio.mjs', 'bench/servers/mcpkit-http.mjs'];
for (const entry of entries) {
  const isFile = entry.endsWith('.mjs');
  const r = await build({ ...(isFile ? { entryPoints: [path.join(ROOT, entry)] } : { stdin: { contents: `export * from '${entry}';`, resolveDir: ROOT, loader: 'js' } }), ...BUNDLE_OPTIONS, minify: true });
  console.log(entry, (gzipBytes(r.outputFiles[0].contents) / 1024).toFixed(2));
}
