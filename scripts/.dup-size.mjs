import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
const ROOT = process.cwd();
const r = await build({ entryPoints: [path.join(ROOT, 'bench/servers/mcpkit-stdio.mjs')], bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', conditions: ['@mcpkit/source'], write: false, logLevel: 'silent' });
const c = r.outputFiles[0].contents;
console.log('gz', gzipSync(c, { level: 9 }).length, 'raw', c.length);
if (process.argv[2]) (await import('node:fs')).writeFileSync(process.argv[2], c);
