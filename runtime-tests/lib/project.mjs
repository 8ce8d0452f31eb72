/**
 * The scratch project of the runtime tests, made as a user makes theirs: the workspace packages
 * are built, packed with `npm pack` and installed from the tarballs into a fresh project outside
 * the repository, next to copies of this folder's runtime files.
 */
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildPackages, installInto, packPackages, workspacePackages } from '../../scripts/lib/packages.mjs';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The packages a server or client on a web runtime installs, and @mcpkit/node for the Node server. */
const NEEDED = ['@mcpkit/core', '@mcpkit/schema', '@mcpkit/server', '@mcpkit/client', '@mcpkit/node'];
const COPIED = ['app', 'bun', 'chromium', 'deno', 'node', 'workerd'];

/**
 * Builds, packs and installs the packages into a new temporary project; returns its folder.
 *
 * @example
 * const app = await makeScratchProject(); // /tmp/mcpkit-runtimes-XXXX/app
 */
export async function makeScratchProject() {
  const scratch = await mkdtemp(path.join(tmpdir(), 'mcpkit-runtimes-'));
  await buildPackages();
  const dirs = workspacePackages()
    .filter((pkg) => NEEDED.includes(pkg.manifest.name))
    .map((pkg) => pkg.dir);
  const packed = await packPackages(dirs, path.join(scratch, 'tarballs'));
  const app = path.join(scratch, 'app');
  await installInto(
    app,
    packed.map((pkg) => pkg.tarball),
  );
  for (const dir of COPIED) await cp(path.join(HERE, dir), path.join(app, dir), { recursive: true });
  return app;
}

/**
 * Bundles the two Workers with esbuild as wrangler does (ES module, `workerd`/`worker`/`browser`
 * export conditions, `node:` built-ins left to nodejs_compat) into `workerd/dist/`.
 */
export async function bundleWorkers(app) {
  const dir = path.join(app, 'workerd');
  await build({
    entryPoints: ['server', 'client'].map((name) => path.join(dir, `${name}.mjs`)),
    outdir: path.join(dir, 'dist'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*'],
    logLevel: 'error',
  });
}
