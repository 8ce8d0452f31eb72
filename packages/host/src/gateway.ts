/**
 * `@mcpkit/host/gateway`: a host served as one MCP server.
 *
 * @example
 * ```ts
 * import { createGateway } from '@mcpkit/host/gateway';
 * import { loadHostConfig } from '@mcpkit/host/node';
 * const gateway = createGateway({ host: { servers: await loadHostConfig('mcp.json') } });
 * ```
 * @module
 */
export { createGateway, type GatewayOptions, McpGateway } from './gateway/gateway.js';
export type { GatewayReadiness, UpstreamHealth } from './gateway/health.js';
export type { GatewayLimits, RateLimit } from './gateway/limits.js';
export { CallRouter } from './gateway/router.js';
