/**
 * `@mcpkit/node`: the Node.js-only parts of mcpkit: stdio transports, the node:http adapter, files and folders as resources.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@mcpkit/node';
 * server.connect(new StdioServerTransport());
 * ```
 * @module
 */

export * from './files.js';
export * from './folder.js';
export * from './http.js';
export * from './stdio.js';
