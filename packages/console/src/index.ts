/**
 * `@mcpkit/console`: the backend of `mcpkit console`, a local web console for MCP servers and
 * hosts, and the page it serves (built into `dist/ui`).
 *
 * ```ts
 * import { startConsole } from '@mcpkit/console';
 * const running = await startConsole({ target: { kind: 'host', describe: '--config mcp.json', servers } });
 * console.log(running.url);
 * ```
 * @module
 */
export type { ConsoleState, HostServerState, PinnedEra } from './backend.js';
export { type ConsoleOptions, type ConsoleTarget, type RunningConsole, startConsole } from './console.js';
export { RequestGuard, randomToken, TOKEN_HEADER } from './guard.js';
export type { ConsoleLoginRedirect, LoginWaiting } from './pageLogin.js';
export type { LogEntry } from './protocolLog.js';
export type { Question, QuestionKind } from './questions.js';
