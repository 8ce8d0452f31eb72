/**
 * `@mcpkit/server`: build MCP servers.
 *
 * @example
 * ```ts
 * import { Server } from '@mcpkit/server';
 * const server = new Server({ name: 'demo', version: '1.0.0' });
 * ```
 * @module
 */
export { Server, type ServerOptions, type RequestHandler, type NotificationHandler, type SessionListener, type SessionInfo } from './server.js';
export { ServerSession, type SessionConnectOptions } from './session.js';
export { RequestContext, type RequestLogger } from './context.js';
