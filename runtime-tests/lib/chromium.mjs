/**
 * Chromium as a client runtime: the packed `@mcpkit/client` (the scratch project's node_modules),
 * bundled for the browser by esbuild, runs `chromium/client.mjs` in a page of headless Debian
 * Chromium, driven by playwright-core. The page is served from its own loopback port, so every call
 * to the Node test server is cross-origin and needs the handler's `cors` option (README "CORS"):
 * `startPage` runs before the Node server, which then allows the page's origin.
 * Chromium serves nothing, so it has no server side (the table shows `n/a`).
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/chromium.mjs';

/** Above the longest scenario (the 12 s silent call, and the serial runs before it). */
const RESULTS_TIMEOUT_MS = 120_000;
/**
 * The browser's own console line for every response it gets with an error status. The stateless
 * mode's GET answers 405 on purpose (the scenario checks it), so these lines are not the code's.
 */
const HTTP_STATUS_LINE = /^Failed to load resource: the server responded with a status of \d+/;

/**
 * Bundles `chromium/client.mjs` with the packed client and serves it with its page on
 * 127.0.0.1:0. Returns the page's origin and a `close`.
 *
 * @example
 * const page = await startPage(app); // { origin: 'http://127.0.0.1:40123', close }
 */
export async function startPage(app) {
  const { outputFiles } = await build({
    entryPoints: [path.join(app, 'chromium', 'client.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  const bundle = outputFiles[0].text;
  const html =
    '<!doctype html><title>mcpkit runtime tests</title><script type="module" src="/client.js"></script>';
  const server = createServer((request, response) => {
    if (request.url === '/client.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else response.writeHead(404).end();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Rejects after `ms` unless `promise` settles first; the timer never outlives it. */
async function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens the page in a fresh headless Chromium, runs the scenarios there against `urls` and returns
 * their results; `stderr` holds the page's uncaught errors and its console warnings and errors
 * (except the browser's notes about HTTP error statuses). The browser is always closed.
 */
async function runInPage(origin, urls) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const stderr = [];
  try {
    const tab = await browser.newPage();
    tab.on('pageerror', (error) => stderr.push(`uncaught: ${error.message}`));
    tab.on('console', (message) => {
      if (!['error', 'warning'].includes(message.type())) return;
      if (!HTTP_STATUS_LINE.test(message.text())) stderr.push(`console.${message.type()}: ${message.text()}`);
    });
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => window.scenariosReady === true, undefined, { timeout: 30_000 });
    const results = await within(
      tab.evaluate((targets) => window.runScenarios(targets), urls),
      RESULTS_TIMEOUT_MS,
      'the page running the scenarios',
    );
    return { results, stderr: stderr.join('\n') };
  } finally {
    await browser.close();
  }
}

/** The `chromium` entry of the suite's launchers: a client only. */
export const chromiumLauncher = {
  binary() {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/install-chromium.sh`);
    return CHROMIUM;
  },
  /** Chromium serves nothing: no server side. */
  server: undefined,
  client: (_app, urls, page) => runInPage(page.origin, urls),
};
