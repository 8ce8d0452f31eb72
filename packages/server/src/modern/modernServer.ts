/**
 * What the 2026-07-28 era needs of the server it is plugged into; `Server` is the one
 * implementation. Named here so the era never imports the composition root that installs it.
 * @module
 */
import type { Implementation, McpError, ModernProtocolVersion, ServerCapabilities } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import type { ContextEra } from '../kernel/ports.js';
import type { InputRoundRunner } from '../mrtr/runner.js';

/**
 * The server as the era sees it: its identity, the per-request revisions it serves, its
 * capabilities, the one dispatch point, and the runner of input-required rounds.
 *
 * @example
 * ```ts
 * declare const server: ModernServer;
 * server.modernVersions; // ['2026-07-28']
 * ```
 */
export interface ModernServer {
  readonly info: Implementation;
  /** What results name as their server: `info`, or nothing (`serverInfoInResults: false`). */
  readonly resultServerInfo: Implementation | undefined;
  readonly modernVersions: readonly ModernProtocolVersion[];
  readonly options: { readonly instructions?: string };
  readonly capabilities: ServerCapabilities;
  /** The `-32022` a revision the server does not serve gets, or `undefined`. */
  refusedRevision(revision: unknown): McpError | undefined;
  inputRoundRunner(): InputRoundRunner;
  /** The era's port every 2026-07-28 request context is given (`ModernEra.context`). */
  readonly eraContext: ContextEra;
  dispatch(method: string, params: Record<string, unknown>, context: RequestContext): unknown;
}
