/**
 * The publishable packages of this repository, as the packaging test, the package checks and the
 * release script see them: which they are (in dependency order), how to pack them into tarballs
 * and how to install tarballs into a project outside the repository.
 * @module
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Every workspace package, in the order of the root `workspaces` list (dependencies first).
 * @returns {{ dir: string, manifest: Record<string, any> }[]}
 */
export function workspacePackages(root = ROOT) {
  const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return rootManifest.workspaces.map((workspace) => {
    const dir = path.join(root, workspace);
    return { dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) };
  });
}

/**
 * The import specifiers a package exports, e.g. `['@mcpkit/server', '@mcpkit/server/http']`.
 * @param {Record<string, any>} manifest
 */
export function entryPoints(manifest) {
  return Object.keys(manifest.exports ?? { '.': null }).map((key) =>
    key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
  );
}

/**
 * Runs a command and returns its output; a non-zero exit throws with the command's stderr.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, timeoutMs?: number, env?: Record<string, string> }} options
 */
export async function run(command, args, { cwd, timeoutMs = 300_000, env }) {
  try {
    return await exec(command, args, {
      cwd,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, ...env },
    });
  } catch (error) {
    const output = `${error.stdout ?? ''}\n${error.stderr ?? ''}`.trim().slice(-4000);
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${output || error.message}`);
  }
}

/**
 * Builds every package as `npm run build` does: tsc writes the declarations (and the CLI), then
 * scripts/bundle-dist.mjs bundles each library package's JavaScript and Vite builds the console's page. Brings `dist` up to date without
 * deleting it first, so tests running the built CLI meanwhile keep working.
 * @example
 * await buildPackages();
 */
export async function buildPackages() {
  await run(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
    {
      cwd: ROOT,
    },
  );
  await run(process.execPath, [path.join(ROOT, 'scripts/bundle-dist.mjs')], { cwd: ROOT });
  // The console's page (Vite), which its backend serves from packages/console/dist/ui.
  await run(process.execPath, [path.join(ROOT, 'scripts/build-console-ui.mjs')], { cwd: ROOT });
}

/**
 * Packs packages with `npm pack` into `destination`, without lifecycle scripts (build first).
 * @param {string[]} dirs package directories
 * @param {string} destination
 * @returns {Promise<{ name: string, version: string, tarball: string, files: string[] }[]>}
 */
export async function packPackages(dirs, destination) {
  await mkdir(destination, { recursive: true });
  const packed = [];
  for (const dir of dirs) {
    const { stdout } = await run(
      NPM,
      ['pack', '--json', '--ignore-scripts', '--loglevel=error', '--pack-destination', destination],
      { cwd: dir },
    );
    const [entry] = JSON.parse(stdout);
    packed.push({
      name: entry.name,
      version: entry.version,
      tarball: path.join(destination, entry.filename),
      files: entry.files.map((file) => file.path),
    });
  }
  return packed;
}

/**
 * Writes the manifest of a new ES module project in `project` (created if needed), as
 * `npm init` would for the tests: private, `"type": "module"`, no dependencies yet.
 * @param {string} project
 */
export async function createProject(project) {
  await mkdir(project, { recursive: true });
  const manifest = { name: path.basename(project), private: true, type: 'module' };
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Installs specs (tarball paths or registry names) into `project`, an ES module project that is
 * created if needed. Registry packages come from npm's cache when it has them.
 * @param {string} project
 * @param {string[]} specs
 */
export async function installInto(project, specs) {
  await createProject(project);
  await addTo(project, specs);
}

/**
 * Installs specs into the existing project `project`, beside what it has; registry packages from
 * npm's cache when it has them.
 * @param {string} project
 * @param {string[]} specs
 */
export async function addTo(project, specs) {
  await run(
    NPM,
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      ...specs,
    ],
    { cwd: project },
  );
}

/**
 * Lints one packed tarball with `publint --strict` and `attw --profile esm-only` (mcpkit ships ES
 * modules only, so CommonJS `require` and `node10` resolution are out of scope). Throws with both
 * tools' reports when either finds a problem.
 * @param {string} tarball
 */
export async function lintTarball(tarball) {
  const bin = (name) => path.join(ROOT, 'node_modules/.bin', name);
  const cwd = path.dirname(tarball);
  await run(bin('publint'), ['run', tarball, '--strict'], { cwd });
  await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], { cwd });
}

/** Package count and size of a node_modules tree, measured as the install-footprint benchmark does. */
export { measureTree } from '../../bench/scenarios/footprint.mjs';
