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

export { RequestContext, type RequestLogger } from './context.js';
export {
  type NotificationHandler,
  type RequestHandler,
  Server,
  type ServerOptions,
  type SessionInfo,
  type SessionListener,
} from './server.js';
export { ServerSession, type SessionConnectOptions } from './session.js';
