/**
 * `@mcpkit/node`: the Node.js-only parts of mcpkit: stdio transports and the node:http adapter.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@mcpkit/node';
 * server.connect(new StdioServerTransport());
 * ```
 * @module
 */

export * from './files.js';
export * from './http.js';
export * from './stdio.js';
