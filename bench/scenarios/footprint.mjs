/**
 * Footprint: bundle size of a minimal stdio and HTTP server (esbuild, minified, gzipped; each bundle is
 * then run once to prove it is complete), and install footprint (package count and size on disk).
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { PROBE_TEXT } from '../lib/echo.mjs';
import { checkedEchoCall, openSession } from '../lib/mcp-http.mjs';
import { runCommand, runWorker, startServer } from '../lib/proc.mjs';

const KB = 1024;
const MB = 1024 * 1024;

/**
 * ESM bundles of CommonJS dependencies call `require` for Node built-ins; this gives them one. Every
 * implementation's bundle gets the same prologue.
 */
const REQUIRE_SHIM =
  "import { createRequire as __benchCreateRequire } from 'node:module';\n" +
  'const require = __benchCreateRequire(import.meta.url);';

/**
 * @param {string} entry
 * @param {string} outfile
 */
async function bundle(entry, outfile) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: REQUIRE_SHIM },
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  await writeFile(outfile, code);
  return {
    minKB: code.length / KB,
    gzKB: gzipSync(code, { level: 9 }).length / KB,
    buildWarnings: result.warnings.map((warning) => `esbuild: ${warning.text}`),
  };
}

/** Runs a bundled stdio server once through the neutral client. */
async function proveStdioBundle(file, ctx) {
  const task = {
    kind: 'first-call',
    driver: ctx.paths.neutralStdioDriver,
    connect: { command: process.execPath, args: [file], cwd: path.dirname(file) },
  };
  const { reply, stderr } = await runWorker(ctx.paths.callWorker, task, {
    timeoutMs: 30_000,
    cwd: path.dirname(file),
  });
  if (!reply.ok)
    throw Object.assign(new Error(`bundled stdio server does not work: ${reply.error}`), { stderr });
  return stderr;
}

/** Starts a bundled HTTP server once and makes one checked call on a session. */
async function proveHttpBundle(file, ctx) {
  const server = await startServer({
    script: file,
    env: { BENCH_HTTP_MODE: 'json', BENCH_PORT: '0' },
    cwd: path.dirname(file),
    agent: ctx.paths.agent,
  });
  try {
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const { headers } = await openSession(url);
    await checkedEchoCall(url, headers, { text: PROBE_TEXT });
  } catch (error) {
    throw Object.assign(new Error(`bundled HTTP server does not work: ${error.message}`), {
      stderr: server.stderr(),
    });
  } finally {
    await server.stop();
  }
  return server.stderr();
}

export const bundleGroup = {
  id: 'bundle',
  title: 'Bundle size (esbuild --minify, gzip -9), minimal servers',
  rows: [
    {
      id: 'bundle-stdio',
      label: 'bundle, stdio server (gz)',
      unit: 'KB',
      better: 'lower',
      file: 'stdioServer',
    },
    { id: 'bundle-http', label: 'bundle, HTTP server (gz)', unit: 'KB', better: 'lower', file: 'httpServer' },
  ],
  rounds: () => 1,
  // A variant (the gateway) is mcpkit behind a layer, not a minimal server: its size says nothing here.
  participates: (impl) => impl.role !== 'variant' && Boolean(impl.files.stdioServer || impl.files.httpServer),
  async measure(impl, ctx, rows) {
    const outDir = path.join(ctx.paths.scratch, 'bundles');
    await mkdir(outDir, { recursive: true });
    const samples = {};
    const notes = [];
    let stderr = '';
    for (const row of rows) {
      const entry = impl.files[row.file];
      if (!entry) continue;
      const outfile = path.join(outDir, `${impl.id}-${row.file}.mjs`);
      const { minKB, gzKB, buildWarnings } = await bundle(entry, outfile);
      notes.push(...buildWarnings);
      stderr +=
        row.file === 'stdioServer'
          ? await proveStdioBundle(outfile, ctx)
          : await proveHttpBundle(outfile, ctx);
      samples[row.id] = { value: gzKB, minKB };
    }
    return { samples, stderr, notes };
  },
};

/**
 * Package count and size of an installed node_modules tree (sizeMB: file bytes / 2^20; diskMB:
 * blocks allocated). Also used by tests/pack-install.test.ts to check the README's install figures.
 * @param {string} nodeModules
 * @returns {Promise<{ packages: number, sizeMB: number, diskMB: number }>}
 * @example
 * await measureTree('/tmp/app/node_modules'); // { packages: 5, sizeMB: 2.2, diskMB: 2.9 }
 */
export async function measureTree(nodeModules) {
  let packages = 0;
  let bytes = 0;
  let diskBytes = 0;
  const walkFiles = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) await walkFiles(full);
      else {
        const info = await stat(full);
        bytes += info.size;
        diskBytes += info.blocks * 512;
      }
    }
  };
  const countPackages = async (dir) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        await countPackages(full);
        continue;
      }
      packages++;
      await countPackages(path.join(full, 'node_modules'));
    }
  };
  await countPackages(nodeModules);
  await walkFiles(nodeModules);
  return { packages, sizeMB: bytes / MB, diskMB: diskBytes / MB };
}

/**
 * Installs `specs` into a throw-away prefix and measures the tree.
 * @param {string[]} specs
 */
async function installAndMeasure(specs) {
  const prefix = await mkdtemp(path.join(tmpdir(), 'mcpkit-bench-install-'));
  try {
    await writeFile(path.join(prefix, 'package.json'), '{ "name": "bench-install", "private": true }\n');
    const npm = await runCommand(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        ...specs,
      ],
      { cwd: prefix, timeoutMs: 300_000 },
    );
    if (npm.code !== 0) throw new Error(`npm install failed: ${npm.stderr.trim().slice(0, 500)}`);
    return await measureTree(path.join(prefix, 'node_modules'));
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}

/** Registry installs do not change, so their numbers are cached in bench/.tmp. */
async function cachedInstall(specs, ctx) {
  const cacheFile = path.join(ctx.paths.tmp, 'install-cache.json');
  const key = createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 16);
  let cache = {};
  try {
    cache = JSON.parse(await readFile(cacheFile, 'utf8'));
  } catch {}
  if (cache[key] && !ctx.options.refreshInstall) return { ...cache[key], cached: 1 };
  const measured = await installAndMeasure(specs);
  cache[key] = { ...measured, specs };
  await mkdir(ctx.paths.tmp, { recursive: true });
  await writeFile(cacheFile, `${JSON.stringify(cache, null, 2)}\n`);
  return { ...measured, cached: 0 };
}

/** Workspace packages are packed as they would be published, then installed from the tarballs. */
async function workspaceInstall(workspaces, ctx) {
  const packDir = await mkdtemp(path.join(tmpdir(), 'mcpkit-bench-pack-'));
  try {
    const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir];
    for (const workspace of workspaces) args.push('--workspace', workspace);
    const pack = await runCommand('npm', args, { cwd: ctx.paths.repo, timeoutMs: 120_000 });
    if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr.trim().slice(0, 500)}`);
    const tarballs = JSON.parse(pack.stdout).map((entry) => path.join(packDir, entry.filename));
    return await installAndMeasure(tarballs);
  } finally {
    await rm(packDir, { recursive: true, force: true });
  }
}

export const installGroup = {
  id: 'install',
  title: 'Install footprint (npm install into an empty prefix)',
  rows: [
    { id: 'install-packages', label: 'installed packages', unit: 'pkgs', better: 'lower' },
    { id: 'install-size', label: 'node_modules size', unit: 'MB', better: 'lower' },
  ],
  rounds: () => 1,
  participates: (impl) => Boolean(impl.install?.npm || impl.install?.workspaces),
  async measure(impl, ctx) {
    const measured = impl.install.npm
      ? await cachedInstall(impl.install.npm, ctx)
      : await workspaceInstall(impl.install.workspaces, ctx);
    return {
      samples: {
        'install-packages': { value: measured.packages, cached: measured.cached },
        'install-size': { value: measured.sizeMB, diskMB: measured.diskMB, cached: measured.cached },
      },
      stderr: '',
      notes: [],
    };
  },
};
