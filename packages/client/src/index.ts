/**
 * `@mcpkit/client`: build MCP clients and hosts.
 *
 * @example
 * ```ts
 * import { Client } from '@mcpkit/client';
 * const client = new Client({ name: 'my-host', version: '1.0.0' });
 * ```
 * @module
 */
export { Client, type ClientOptions, type ClientRequestHandler, type ClientNotificationHandler } from './client.js';
