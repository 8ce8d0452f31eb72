#!/usr/bin/env node
/**
 * Builds the console's page with Vite into packages/console/dist/ui (run by `npm run build`, by
 * the package checks' build and by the console's browser tests); the backend serves it from there,
 * offline.
 *
 * Tests may start a console (which reads dist/ui) while another test rebuilds the page, so the
 * build goes to a folder of its own first and each file then appears whole (a rename), the assets
 * before the index.html that names them; assets of an earlier build go last. Vite's hashed names
 * make two builds of the same sources write the same files.
 *
 *   node scripts/build-console-ui.mjs
 * @module
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'vite';
import { CONSOLE_UI_OUT, consoleUiConfig } from './lib/consoleUi.mjs';

const staging = `${CONSOLE_UI_OUT}.${process.pid}.tmp`;
const config = consoleUiConfig({ write: true });
await build({ ...config, build: { ...config.build, outDir: staging, emptyOutDir: true } });
try {
  const files = (await readdir(staging, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(staging, path.join(entry.parentPath ?? entry.path, entry.name)));
  // The page last: every asset it names is in place before it does.
  files.sort((a, b) => Number(a === 'index.html') - Number(b === 'index.html'));
  for (const file of files) {
    await mkdir(path.dirname(path.join(CONSOLE_UI_OUT, file)), { recursive: true });
    await rename(path.join(staging, file), path.join(CONSOLE_UI_OUT, file));
  }
  const built = new Set(files);
  const assets = path.join(CONSOLE_UI_OUT, 'assets');
  for (const name of await readdir(assets).catch(() => [])) {
    if (!built.has(path.join('assets', name))) await rm(path.join(assets, name), { force: true });
  }
} finally {
  await rm(staging, { recursive: true, force: true });
}
