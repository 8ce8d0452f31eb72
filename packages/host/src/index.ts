/**
 * `@mcpkit/host`: many MCP servers in one application, runtime-neutral.
 *
 * @example
 * ```ts
 * import { parseHostConfig } from '@mcpkit/host';
 * const servers = await parseHostConfig({ file: 'mcp.json', text, workspaceFolder: '/w', env: {} });
 * ```
 * @module
 */
export {
  type AskInput,
  type ConfigSource,
  parseHostConfig,
  parseServerEntry,
  type ServerEntry,
} from './config.js';
export { HostConfigError, NameCollisionError, ServerUnavailableError } from './errors.js';
