/**
 * Where the tests find Chromium and how they start it: Debian's `chromium` (installed by
 * scripts/install-chromium.sh), headless, without a sandbox (CI runs as root) and without the
 * background traffic a fresh profile starts (updates, sync, QUIC probes).
 *
 * @example
 * const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
 */
export const CHROMIUM = '/usr/bin/chromium';

/** The command-line flags of every Chromium the tests start. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
