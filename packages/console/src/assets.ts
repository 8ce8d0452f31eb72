/**
 * The page and its assets, built by Vite into the package's `dist/ui` and read once at start:
 * only the files found there are ever served, so no request path reaches the file system.
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * What the page may load and where it may connect: its own origin only, and frames from the MCP
 * Apps sandbox proxy's origin (a loopback port of its own). Images and audio in results are shown
 * from `data:` URLs the page makes; nothing loads from anywhere else.
 *
 * @example
 * ```ts
 * pageCsp('http://127.0.0.1:41234'); // "default-src 'none'; … frame-src http://127.0.0.1:41234; …"
 * ```
 */
export function pageCsp(sandboxOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    ...(sandboxOrigin ? [`frame-src ${sandboxOrigin}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page's CSP without MCP Apps (no frames at all). */
const PAGE_CSP = pageCsp();

/**
 * One served file.
 *
 * @example
 * ```ts
 * const asset: Asset = { body: new TextEncoder().encode('<!doctype html>'), type: 'text/html; charset=utf-8' };
 * ```
 */
export interface Asset {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly type: string;
}

/**
 * Where the built page is: `dist/ui` beside the bundled module, or (running from the TypeScript
 * sources, as the tests do) the package's `dist/ui`.
 *
 * @example
 * ```ts
 * const assets = await loadAssets(uiDirectory());
 * ```
 */
export function uiDirectory(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'src' ? path.join(here, '..', 'dist', 'ui') : path.join(here, 'ui');
}

/**
 * Reads every file of the built page, by URL path (`/index.html`, `/assets/index-abc.js`).
 *
 * @throws {Error} when the page was not built (`npm run build`).
 * @example
 * ```ts
 * const assets = await loadAssets('/path/to/dist/ui');
 * assets.get('/index.html');
 * ```
 */
export async function loadAssets(directory: string): Promise<Map<string, Asset>> {
  const assets = await readAssets(directory);
  if (complete(assets)) return assets;
  // Read while the page was being rebuilt (npm run build beside a running test): read it again.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return readAssets(directory);
}

/** Whether every asset the page names was read. */
function complete(assets: ReadonlyMap<string, Asset>): boolean {
  const page = new TextDecoder().decode(assets.get('/index.html')!.body);
  return [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].every(([, asset]) => assets.has(asset!));
}

async function readAssets(directory: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  let files: string[];
  try {
    files = (await readdir(directory, { recursive: true })).map(String);
  } catch {
    throw new Error(`The console's page is not built (no ${directory}); run npm run build`);
  }
  for (const file of files) {
    const type = TYPES[path.extname(file)];
    if (!type) continue;
    const body = await readFile(path.join(directory, file)).catch(() => undefined);
    if (body) assets.set(`/${file.split(path.sep).join('/')}`, { body: new Uint8Array(body), type });
  }
  if (!assets.has('/index.html'))
    throw new Error(`The console's page is not built (no index.html in ${directory})`);
  return assets;
}

/**
 * A response with one asset; the page itself also gets its CSP (`csp`, default {@link PAGE_CSP}).
 *
 * @example
 * ```ts
 * const response = assetResponse(assets.get('/index.html')!);
 * ```
 */
export function assetResponse(asset: Asset, csp: string = PAGE_CSP): Response {
  const headers: Record<string, string> = {
    'content-type': asset.type,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
  };
  if (asset.type.startsWith('text/html')) {
    headers['content-security-policy'] = csp;
    headers['cache-control'] = 'no-store';
  }
  return new Response(asset.body, { headers });
}
