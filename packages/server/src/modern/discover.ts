/**
 * `server/discover` (2026-07-28, MUST): the server's revisions, capabilities and identity in one
 * answer. `serverInfo` and the caching hints are added by the codec like on any other result.
 * @module
 */
import { type ServerCapabilities, TASKS_EXTENSION } from '@mcpkit/core';
import type { ModernServer } from './modernServer.js';

/**
 * The capabilities as 2026-07-28 can state them: `tasks` is the extension
 * `io.modelcontextprotocol/tasks` there (SEP-2663), announced under `extensions`; the 2025
 * `tasks` slot must not appear.
 */
function modernCapabilities(capabilities: ServerCapabilities): Record<string, unknown> {
  if (!('tasks' in capabilities)) return capabilities as Record<string, unknown>;
  const { tasks: _tasks, ...rest } = capabilities as Record<string, unknown>;
  const extensions = rest.extensions as Record<string, unknown> | undefined;
  rest.extensions = { ...extensions, [TASKS_EXTENSION]: {} };
  return rest;
}

/**
 * The answer to `server/discover`, before encoding. It lists the per-request revisions only:
 * a client picks one of them for the `_meta` of its next requests, and a 2025 revision cannot
 * go there (those are negotiated by `initialize`).
 *
 * @example
 * ```ts
 * declare const server: ModernServer;
 * discoverResult(server).supportedVersions; // ['2026-07-28']
 * ```
 */
export function discoverResult(server: ModernServer): Record<string, unknown> {
  const result: Record<string, unknown> = {
    supportedVersions: [...server.modernVersions],
    capabilities: modernCapabilities(server.capabilities),
  };
  const instructions = server.options.instructions;
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}
