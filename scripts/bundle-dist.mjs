#!/usr/bin/env node
/**
 * Ships each library package as a few modules instead of one per source file: after `tsc -b` has
 * written the declarations, esbuild bundles the package's public entry points from its sources into
 * `dist`, over tsc's per-file output. Import time is dominated by the number of modules Node has to
 * resolve, read and compile, not by their size: `@mcpkit/server` pulled 118 modules (105 ms of CPU on
 * the shared 2-core machine) where one bundle of the same code imports in 17 ms (docs/benchmarks.md,
 * "Import time"). The sources stay one concept per file; only what is published is bundled.
 *
 * - Every entry point of a package is bundled in one esbuild run with code splitting, so code two
 *   entries share lives in one chunk (`dist/_chunks/`) and a class or a registry keeps one identity
 *   whichever entry a user imports first.
 * - Every bare import (other @mcpkit packages, dependencies, `node:` builtins) stays external, so
 *   packages still share `@mcpkit/core` and a user's bundler still deduplicates dependencies.
 * - No `keepNames`: its `__name(…)` calls would keep every function alive in a user's bundle. esbuild
 *   renames a top-level function only when two merged modules define the same name (today three
 *   private helpers); error classes set their `name` explicitly, so nothing depends on `.name`.
 * - Programs (packages with a `bin`, i.e. the CLI) are left as tsc wrote them: they find files
 *   relative to their own modules.
 *
 *   node scripts/bundle-dist.mjs            bundle every library package (run by `npm run build`)
 *   node scripts/bundle-dist.mjs server     only packages/server
 * @module
 */
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { workspacePackages } from './lib/packages.mjs';

/** Chunks of code shared by several entry points; their names are not part of any contract. */
const CHUNK_NAMES = '_chunks/[name]-[hash]';

/**
 * The entry points of a package: each export's source file, and a check that tsc's layout
 * (`src/x.ts` → `dist/x.js`) is where the export's `default` points, since esbuild writes there.
 * @param {{ dir: string, manifest: Record<string, any> }} pkg
 */
function entriesOf({ manifest }) {
  return Object.entries(manifest.exports).map(([key, target]) => {
    const source = target['@mcpkit/source'];
    const expected = source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.js');
    if (target.default !== expected)
      throw new Error(
        `${manifest.name} export "${key}": ${target.default} is not where ${source} bundles to`,
      );
    return source;
  });
}

/**
 * Writes a build's files into `dist` after the build has read every source, so an output never feeds
 * an input. Tests may run the built CLI while another test rebuilds, so each file appears whole (a
 * rename), chunks before the entries that import them, and the chunks of an earlier build (other
 * hashed names) go last.
 * @param {string} dist
 * @param {import('esbuild').OutputFile[]} files
 */
async function install(dist, files) {
  const chunksFirst = [...files].sort(
    (a, b) => Number(isChunk(dist, b.path)) - Number(isChunk(dist, a.path)),
  );
  for (const file of chunksFirst) {
    await mkdir(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
  const written = new Set(files.map((file) => path.basename(file.path)));
  const chunks = path.join(dist, '_chunks');
  for (const name of await readdir(chunks).catch(() => []))
    if (!written.has(name)) await rm(path.join(chunks, name), { force: true });
}

/** Whether an output path is a shared chunk rather than an entry point. */
function isChunk(dist, file) {
  return path.relative(dist, file).startsWith(`_chunks${path.sep}`);
}

/**
 * Bundles one package's entry points into its `dist`.
 * @param {{ dir: string, manifest: Record<string, any> }} pkg
 */
async function bundlePackage(pkg) {
  const result = await build({
    absWorkingDir: pkg.dir,
    entryPoints: entriesOf(pkg),
    outbase: 'src',
    outdir: 'dist',
    entryNames: '[dir]/[name]',
    chunkNames: CHUNK_NAMES,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    tsconfig: 'tsconfig.json',
    write: false,
    logLevel: 'warning',
  });
  await install(path.join(pkg.dir, 'dist'), result.outputFiles);
  return result.outputFiles.filter((file) => file.path.endsWith('.js')).length;
}

const only = process.argv.slice(2);
const libraries = workspacePackages().filter(
  ({ dir, manifest }) => !manifest.bin && (only.length === 0 || only.includes(path.basename(dir))),
);
for (const pkg of libraries) {
  const modules = await bundlePackage(pkg);
  if (process.env.BUNDLE_DIST_VERBOSE) console.log(`${pkg.manifest.name}: ${modules} modules`);
}
