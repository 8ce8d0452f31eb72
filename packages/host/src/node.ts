/// <reference types="node" />
/**
 * `@mcpkit/host/node`: the host's Node.js parts: config files on disk, and stdio servers spawned
 * through `@mcpkit/node`.
 *
 * @example
 * ```ts
 * import { McpHost } from '@mcpkit/host';
 * import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
 *
 * const host = new McpHost({ servers: await loadHostConfig('mcp.json'), connector: nodeConnector() });
 * ```
 * @module
 */
export { type LoadConfigOptions, loadHostConfig, loadServerEntry } from './node/config.js';
export { type NodeConnectorOptions, nodeConnector, type StdioLimits } from './node/connector.js';
