#!/usr/bin/env node
/**
 * Publishes every workspace package at one version.
 *
 *   node scripts/release.mjs 0.2.0 --dry-run     # what CI runs: nothing is published or changed
 *   node scripts/release.mjs 0.2.0 [--tag next]  # publishes, then writes 0.2.0 into the repository
 *
 * Steps: a clean build; each package packed as it is today; the tarball unpacked in a temporary
 * directory, where its version and its dependencies on sibling packages are set to the release
 * version; packed again and checked (`publint --strict`, `attw --profile esm-only`); then
 * `npm publish` of that very tarball, dependencies first. Versions are never edited inside the
 * repository before publishing: a dry run leaves the work tree exactly as it found it (checked at
 * the end), and a real release writes the new version into the package.json files and the lock
 * file only after every package is published.
 *
 * Every package sets `publishConfig: { access: 'public', provenance: true }`, so a real release
 * must run where npm can sign provenance (GitHub Actions with `id-token: write`, from
 * https://github.com/mcpkit/mcpkit, the repository every package names); a dry run works anywhere.
 * CHANGELOG.md's Unreleased section becomes the release's entry.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { buildPackages, lintTarball, packPackages, ROOT, run, workspacePackages } from './lib/packages.mjs';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

const usage = 'Usage: node scripts/release.mjs <version> [--dry-run] [--tag <dist-tag>]';
const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'dry-run': { type: 'boolean', default: false }, tag: { type: 'string', default: 'latest' } },
});
const [version] = positionals;
if (!version || positionals.length !== 1 || !SEMVER.test(version)) {
  console.error(`${usage}\n<version> must look like 1.2.3 or 1.2.3-beta.1.`);
  process.exit(2);
}
const dryRun = options['dry-run'];

/** `git status` of the work tree, to refuse a dirty tree and to prove a dry run changed nothing. */
async function treeStatus() {
  const { stdout } = await promisify(execFile)('git', ['status', '--porcelain'], { cwd: ROOT });
  return stdout;
}

/**
 * Sets `version` on a manifest and on its dependencies that are sibling packages.
 * @param {Record<string, any>} manifest
 * @param {Set<string>} siblings
 */
function setVersion(manifest, siblings) {
  manifest.version = version;
  for (const field of DEPENDENCY_FIELDS) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      if (siblings.has(name)) manifest[field][name] = version;
    }
  }
  return manifest;
}

/** A clean build, so that no file left over from an older build is published. */
async function cleanBuild(packages) {
  for (const pkg of packages) await rm(path.join(pkg.dir, 'dist'), { recursive: true, force: true });
  await buildPackages();
}

/** Packs today's packages, then rewrites each into a checked tarball at the release version. */
async function stage(packages, scratch) {
  const siblings = new Set(packages.map((pkg) => pkg.manifest.name));
  const current = await packPackages(
    packages.map((pkg) => pkg.dir),
    path.join(scratch, 'current'),
  );
  const staged = [];
  for (const pkg of current) {
    const unpacked = path.join(scratch, 'unpacked', pkg.name.replace('/', '+'));
    await mkdir(unpacked, { recursive: true });
    await run('tar', ['-xzf', pkg.tarball, '-C', unpacked], { cwd: scratch });
    const packageDir = path.join(unpacked, 'package');
    const manifestFile = path.join(packageDir, 'package.json');
    const manifest = setVersion(JSON.parse(await readFile(manifestFile, 'utf8')), siblings);
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    const [release] = await packPackages([packageDir], path.join(scratch, 'release'));
    await lintTarball(release.tarball);
    const pinned = Object.entries(manifest.dependencies ?? {}).filter(([name]) => siblings.has(name));
    const needs = pinned.map(([name, range]) => `${name}@${range}`).join(', ') || 'no sibling packages';
    console.log(
      `staged ${release.name}@${release.version} (${release.files.length} files, needs ${needs}), checked`,
    );
    staged.push(release);
  }
  return staged;
}

/** After a real release: the repository's manifests and lock file say the published version. */
async function writeVersionsToRepository(packages) {
  const siblings = new Set(packages.map((pkg) => pkg.manifest.name));
  for (const pkg of packages) {
    const file = path.join(pkg.dir, 'package.json');
    const manifest = setVersion(JSON.parse(await readFile(file, 'utf8')), siblings);
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  await run(NPM, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: ROOT,
  });
}

async function main() {
  const before = await treeStatus();
  if (!dryRun && before !== '') throw new Error(`The work tree has uncommitted changes:\n${before}`);
  const packages = workspacePackages();
  const scratch = await mkdtemp(path.join(tmpdir(), 'mcpkit-release-'));
  try {
    await cleanBuild(packages);
    const staged = await stage(packages, scratch);
    for (const pkg of staged) {
      const args = ['publish', pkg.tarball, '--ignore-scripts', '--access', 'public', '--tag', options.tag];
      if (dryRun) args.push('--dry-run');
      await run(NPM, args, { cwd: scratch });
      console.log(
        `${dryRun ? 'would publish' : 'published'} ${pkg.name}@${pkg.version} --tag ${options.tag}`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  if (dryRun) {
    const after = await treeStatus();
    if (after !== before) throw new Error(`The dry run changed the work tree:\n${after}`);
    console.log(`Dry run done: ${packages.length} packages at ${version}; the work tree is unchanged.`);
    return;
  }
  await writeVersionsToRepository(packages);
  console.log(
    `Released ${version}. Commit the version change and tag it: git commit -am "Release ${version}" && git tag v${version}`,
  );
}

main().catch((error) => {
  console.error(`release: ${error.message}`);
  process.exitCode = 1;
});
