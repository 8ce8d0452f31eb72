/**
 * Opens a URL in the user's browser with the system's opener: `open` on macOS, `xdg-open`
 * elsewhere on Unix, and on Windows `rundll32 url.dll,FileProtocolHandler` (the handler behind
 * `start`, without `cmd.exe`, whose parser would split the URL at each `&`).
 * @module
 */
import { spawn } from 'node:child_process';

/**
 * Opens `url` in a browser; resolves false when no browser could be opened.
 *
 * @example
 * ```ts
 * const io: CliIo = { ...processIo(), openBrowser: async (url) => { console.error(url); return true; } };
 * ```
 */
export type BrowserOpener = (url: string) => Promise<boolean>;

/** How long an opener that has not exited is taken to have started a browser (some block on it). */
const SETTLE_MS = 3000;

/**
 * The system's browser opener.
 *
 * @example
 * ```ts
 * if (!(await openSystemBrowser(url))) console.error(`Open ${url}`);
 * ```
 */
export const openSystemBrowser: BrowserOpener = (url) => {
  const [command, ...args] = openerCommand(url, process.platform);
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command as string, args, { stdio: 'ignore', detached: true, windowsHide: true });
    } catch {
      resolve(false);
      return;
    }
    // Referenced, so the answer comes even if nothing else keeps the process alive meanwhile.
    const timer = setTimeout(() => resolve(true), SETTLE_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.unref();
  });
};

/**
 * The command line that opens `url` on `platform`.
 *
 * @example
 * ```ts
 * openerCommand('https://a.example/?x=1&y=2', 'linux'); // ['xdg-open', 'https://a.example/?x=1&y=2']
 * ```
 */
export function openerCommand(url: string, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['rundll32.exe', 'url.dll,FileProtocolHandler', url];
  return ['xdg-open', url];
}
