#!/usr/bin/env node
/**
 * Packs every publishable package into one folder, so a project outside this repository can
 * install them all with one command while they are not on the npm registry:
 *
 *   npm run pack:all                              # builds, then writes packed/*.tgz here
 *   npm install /path/to/mcpkit/packed/*.tgz      # in your project: every package at once
 *
 * `node scripts/pack-all.mjs --out DIR` writes elsewhere. The folder is emptied of tarballs first,
 * so it never holds two versions of a package. All of them must be installed together: npm finds
 * `@mcpkit/core` and the other siblings among the tarballs given, not on the registry.
 * tests/pack-install.test.ts follows the README's install paragraph, which runs this script.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildPackages, packPackages, ROOT, workspacePackages } from './lib/packages.mjs';

const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(ROOT, 'packed') } } });
const out = path.resolve(values.out);

async function main() {
  await buildPackages();
  const old = await readdir(out).catch(() => []);
  for (const name of old.filter((file) => file.endsWith('.tgz'))) await rm(path.join(out, name));
  const packed = await packPackages(
    workspacePackages().map((pkg) => pkg.dir),
    out,
  );
  for (const pkg of packed) console.log(`packed ${pkg.name}@${pkg.version}  ${path.basename(pkg.tarball)}`);
  console.log(`\n${packed.length} packages in ${out}. In your project, install them all at once:`);
  console.log(`  npm install ${path.join(out, '*.tgz')}`);
}

main().catch((error) => {
  console.error(`pack-all: ${error.message}`);
  process.exitCode = 1;
});
