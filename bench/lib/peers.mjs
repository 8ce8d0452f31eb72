/**
 * Registry packages the harness runs as peers (the gateways people use instead of mcpkit's),
 * installed at pinned versions into `bench/.tmp/peers/<key>/` the first time a scenario needs them
 * and reused after that (`--refresh-install` reinstalls). Nothing of theirs is committed or added to
 * the repository's own dependencies.
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from './proc.mjs';

/**
 * Installs `specs` (exact `name@version`s) once and returns a resolver for their command-line
 * entry points.
 * @param {string[]} specs
 * @param {{ paths: { tmp: string }, options: { refreshInstall?: boolean }, log: (line: string) => void }} ctx
 * @returns {Promise<{ dir: string, bin: (name: string, command?: string) => Promise<string> }>}
 * @example
 * const peers = await installPeers(['mcp-proxy@6.7.19'], ctx);
 * const script = await peers.bin('mcp-proxy'); // …/node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs
 */
export async function installPeers(specs, ctx) {
  const key = createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 12);
  const dir = path.join(ctx.paths.tmp, 'peers', key);
  const marker = path.join(dir, 'installed.json');
  if (ctx.options.refreshInstall || !existsSync(marker)) {
    ctx.log(`  installing ${specs.join(' ')} into ${path.relative(process.cwd(), dir)}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), '{ "name": "bench-peers", "private": true }\n');
    const npm = await runCommand(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs],
      { cwd: dir, timeoutMs: 300_000 },
    );
    if (npm.code !== 0)
      throw new Error(`npm install ${specs.join(' ')} failed: ${npm.stderr.trim().slice(0, 500)}`);
    await writeFile(marker, `${JSON.stringify({ specs }, null, 2)}\n`);
  }
  /** The file a package's `bin` entry `command` (default: the package's own name) runs. */
  const bin = async (name, command = name) => {
    const packageDir = path.join(dir, 'node_modules', name);
    const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8'));
    const entry = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[command];
    if (!entry) throw new Error(`${name} has no bin ${command}`);
    return path.join(packageDir, entry);
  };
  return { dir, bin };
}
