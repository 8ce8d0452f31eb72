/**
 * `mcpkit console` as the person runs it, for the browser tests: the CLI spawned from the
 * TypeScript sources with `--no-open`, its URL read from stdout, stopped with SIGINT (Ctrl-C);
 * headless Chromium to open it in; axe-core run inside a page.
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type CliIo, runCli } from '../../packages/cli/src/index.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/chromium.mjs';
import { repoRoot } from './officialSchema.js';

/** The CLI from its sources, as the other spawning tests run it. */
export const CLI = ['--import', './conformance/register-ts.mjs', 'packages/cli/src/main.ts'];

/** The demo server over stdio, from the sources. */
export const DEMO_STDIO = [process.execPath, ...CLI, 'serve', '--stdio'];

/**
 * Saves the session from the Protocol log tab ("Save session") and reads the file it downloads.
 *
 * @example
 * ```ts
 * const saved = await saveSession(page);
 * ```
 */
export async function saveSession(page: Page): Promise<any> {
  await page.getByRole('tab', { name: /Protocol log/ }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save session' }).click(),
  ]);
  return JSON.parse(await readFile((await download.path())!, 'utf8'));
}

/** The demo server over stdio as a config file's entry. */
export const DEMO_ENTRY = { command: DEMO_STDIO[0], args: DEMO_STDIO.slice(1), cwd: repoRoot };

/**
 * A config file of `servers` (`mcpServers`) in a new temporary folder, for `console --config`.
 *
 * @example
 * ```ts
 * const { dir, config } = await hostConfigFile((dir) => ({ demo: DEMO_ENTRY }));
 * ```
 */
export async function hostConfigFile(
  servers: (dir: string) => Record<string, unknown>,
): Promise<{ dir: string; config: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-host-'));
  const config = path.join(dir, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: servers(dir) }));
  return { dir, config };
}

/** server-everything over stdio. */
export const EVERYTHING_STDIO = [
  process.execPath,
  path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  'stdio',
];

/** `mcpkit replay ARGS…` as CI runs it (no colour): its exit code and what it printed. */
export function replayCli(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, 'replay', ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A running console. */
export interface RunningConsoleCli {
  /** The URL it printed, token included. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** What it wrote to stderr so far. */
  readonly stderr: () => string;
  /** Ctrl-C, then waits for it to exit; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Builds the console's page (Vite) from the current sources; the backend serves dist/ui. */
export function buildConsoleUi(): void {
  const built = spawnSync(process.execPath, ['scripts/build-console-ui.mjs'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the console page failed:\n${built.stderr}`);
}

/**
 * Runs `mcpkit console --no-open ARGS…` and waits for the URL it prints.
 *
 * @example
 * ```ts
 * const console = await startConsoleCli(['--', ...DEMO_STDIO]);
 * ```
 */
export async function startConsoleCli(args: readonly string[]): Promise<RunningConsoleCli> {
  const child: ChildProcess = spawn(process.execPath, [...CLI, 'console', '--no-open', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL from mcpkit console in 30 s:\n${stderr}`)),
      30_000,
    );
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const found = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mcpkit console exited (${code}) before printing its URL:\n${stderr}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token')!,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A headless Chromium with its own profile; `extraArgs` e.g. host-resolver rules. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/install-chromium.sh`);
  }
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...extraArgs],
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

const AXE_SOURCE = readFileSync(path.join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) in the page; returns its violations, each as
 * `rule: targets`. Evaluated through the DevTools protocol, so the page's CSP stays as it is.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map(
      (violation: { id: string; nodes: { target: string[] }[] }) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  });
  return violations as string[];
}

/** Whether this run refreshes the README's screenshots (`npm run screenshots`). */
const KEEP_SCREENSHOTS = process.env.MCPKIT_SCREENSHOTS === '1';

/**
 * Where {@link screenshot} writes: the README's `docs/images` only when asked
 * (`MCPKIT_SCREENSHOTS=1`, as `npm run screenshots` sets it), else a folder of its own under the
 * system's temporary directory (removed after each file's tests), so that a test run leaves the
 * working tree clean.
 */
export const SCREENSHOT_DIR = KEEP_SCREENSHOTS
  ? path.join(repoRoot, 'docs/images')
  : path.join(tmpdir(), `mcpkit-screenshots-${process.pid}`);

/**
 * Takes a screenshot of the page as `NAME.png` in {@link SCREENSHOT_DIR} (the README's images
 * when refreshing them with `npm run screenshots`), and checks it was written.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: file });
  expect(statSync(file).size, `screenshot ${file}`).toBeGreaterThan(0);
}

/**
 * The consoles of one browser test file, opened in one headless Chromium: builds the page and
 * launches the browser before the file's tests, stops every console and the browser after them
 * (skipped, with a one-line notice, when MCPKIT_SKIP_BROWSER=1). `open` starts
 * `mcpkit console ARGS…` and opens its page once connected; `newPage` opens a tab.
 *
 * @example
 * ```ts
 * const consoles = consoleBrowser('tests/browser-console.test.ts');
 * describe.skipIf(consoles.skip)('…', () => {
 *   it('…', async () => {
 *     const { page } = await consoles.open(['--', ...DEMO_STDIO]);
 *   });
 * });
 * ```
 */
export function consoleBrowser(file: string) {
  const skip = process.env.MCPKIT_SKIP_BROWSER === '1';
  if (skip) console.warn(`${file} skipped: MCPKIT_SKIP_BROWSER=1 is set`);
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  const running: RunningConsoleCli[] = [];
  beforeAll(async () => {
    if (skip) return;
    buildConsoleUi();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(running.map((one) => one.stop()));
    await browser?.close();
    if (!KEEP_SCREENSHOTS) await rm(SCREENSHOT_DIR, { recursive: true, force: true });
  });
  return {
    skip,
    newPage(): Promise<Page> {
      return browser!.context.newPage();
    },
    async open(args: readonly string[]): Promise<{ page: Page; running: RunningConsoleCli }> {
      const started = await startConsoleCli(args);
      running.push(started);
      const page = await browser!.context.newPage();
      await page.goto(started.url);
      await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
      return { page, running: started };
    },
  };
}

/**
 * `mcpkit console ARGS…` run in this process (its `openBrowser` seam given, as on a terminal or
 * not); `stop` is Ctrl-C, then the exit code.
 *
 * @example
 * ```ts
 * const running = runConsoleInProcess(['--', ...DEMO_STDIO], { openBrowser: async (url) => true });
 * expect(await running.stop()).toBe(0);
 * ```
 */
export function runConsoleInProcess(
  args: readonly string[],
  options: {
    openBrowser: NonNullable<CliIo['openBrowser']>;
    tty?: boolean;
    env?: Readonly<Record<string, string>>;
  },
): { stdout: () => string; exited: Promise<number>; stop(): Promise<number> } {
  let stdout = '';
  let interrupt: (() => void) | undefined;
  const io: CliIo = {
    stdout: {
      write: (chunk) => {
        stdout += chunk;
      },
      isTTY: options.tty,
    },
    stderr: { write: () => {}, isTTY: options.tty },
    stdin: Object.assign(new PassThrough(), options.tty ? { isTTY: true } : {}),
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    cwd: repoRoot,
    onInterrupt: (listener) => {
      interrupt = listener;
      return () => {
        interrupt = undefined;
      };
    },
    openBrowser: options.openBrowser,
  };
  const exited = runCli(['console', ...args], io);
  return {
    stdout: () => stdout,
    exited,
    async stop() {
      await expect.poll(() => interrupt !== undefined).toBe(true);
      interrupt!();
      return exited;
    },
  };
}
