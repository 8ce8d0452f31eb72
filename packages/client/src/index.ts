/**
 * `@mcpkit/client`: build MCP clients and hosts.
 *
 * @example
 * ```ts
 * import { McpClient } from '@mcpkit/client';
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * ```
 * @module
 */
export { Client, type ClientOptions, type ClientRequestHandler, type ClientNotificationHandler } from './client.js';
export {
  McpClient,
  type McpClientOptions,
  type SamplingHandler,
  type FormElicitationHandler,
  type UrlElicitationHandler,
  type RootsSource,
  type ListKind,
  type ServerRequestContext,
} from './mcpClient.js';
export { applyElicitationDefaults } from './elicitationDefaults.js';
