/**
 * `mcpkit`: the command line for MCP servers, and the demo server.
 *
 * The CLI is normally run as `npx mcpkit …`; these exports let a program run it in-process and
 * reuse the demo server (in tests, examples, or behind another transport).
 *
 * @example
 * ```ts
 * import { createDemoServer, runCli } from 'mcpkit';
 *
 * const code = await runCli(['list', '--json', 'http://127.0.0.1:3000/mcp']);
 * const server = createDemoServer();
 * ```
 * @module
 */
export {
  type AuthSettings,
  type ClientAction,
  type ClientSettings,
  type ParsedCommand,
  parseCommandLine,
  type ServeSettings,
  type TargetSpec,
} from './args.js';
export type { BrowserOpener } from './auth/browser.js';
export { loadServerEntry, type ServerEntry } from './config.js';
export { banner, LEGACY_SSE_PATH, serve } from './demo/serve.js';
export { createDemoServer, type DemoServerOptions } from './demo/server.js';
export { CliError, ExitCode, type ExitCodeValue } from './errors.js';
export { MCP_PATH } from './httpServe.js';
export { type CliIo, processIo, runCli } from './run.js';
