#!/usr/bin/env node
/**
 * Checks every workspace package as it would be published: builds, packs each with `npm pack`
 * into a temporary directory, and runs `publint --strict` and `attw --profile esm-only` on the
 * tarball. Exits 1 when any package has a problem, printing the tools' reports.
 *
 *   npm run check:packages
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPackages, lintTarball, packPackages, workspacePackages } from './lib/packages.mjs';

const scratch = await mkdtemp(path.join(tmpdir(), 'mcpkit-check-packages-'));
try {
  await buildPackages();
  const packed = await packPackages(
    workspacePackages().map((pkg) => pkg.dir),
    scratch,
  );
  for (const pkg of packed) {
    try {
      await lintTarball(pkg.tarball);
      console.log(`ok   ${pkg.name}@${pkg.version}: publint --strict, attw --profile esm-only`);
    } catch (error) {
      console.error(`FAIL ${pkg.name}@${pkg.version}\n${error.message}`);
      process.exitCode = 1;
    }
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
