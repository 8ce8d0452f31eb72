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
export { Client, type RequestArgs } from './client.js';
export { CLIENT_OPTION_KEYS, type ClientOptions, type ClientProtocolVersion } from './clientOptions.js';
export {
  type ClientMethodHandler,
  type ClientMethodNotificationHandler,
  type ClientNotificationHandler,
  ClientRequestContext,
  type ClientRequestHandler,
} from './context.js';
export { applyElicitationDefaults } from './elicitationDefaults.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './era/inputRequests.js';
export type { ProtocolEra } from './era/modern.js';
export { type KeepAliveOptions, keepAlive } from './keepAlive.js';
export {
  DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT,
  DEFAULT_MAX_INCOMING_REQUESTS,
  DEFAULT_MAX_PAGES,
  PaginationError,
} from './limits.js';
export { McpClient } from './mcpClient.js';
export type {
  FormElicitationHandler,
  ListKind,
  McpClientOptions,
  RootsSource,
  SamplingHandler,
  ServerRequestContext,
  UrlElicitationHandler,
} from './mcpClientOptions.js';
export {
  type ClientMiddleware,
  ClientMiddlewareContext,
  type MessageDirection,
} from './middleware/context.js';
export {
  type ConnectOptions,
  connectReconnecting,
  ReconnectFailedError,
  type Reconnection,
  type ReconnectOptions,
  type TransportFactory,
} from './reconnect.js';
export {
  backoffDelay,
  CrashWindow,
  type RestartOptions,
  type RestartPolicy,
  restartPolicy,
} from './restart.js';
export {
  ClientTaskAbortedError,
  ClientTaskContext,
  type ClientTaskMethod,
  type ClientTaskOptions,
  ClientTaskReceiver,
} from './taskReceiver.js';
export {
  type CallToolAndWaitOptions,
  type CallToolAsTaskOptions,
  callToolAndWait,
  callToolAsTask,
  cancelTask,
  getTask,
  getTaskResult,
  isTaskTerminal,
  listTasks,
  onTaskStatus,
  type PollTaskOptions,
  pollTask,
  type ToolTaskCall,
} from './tasks.js';
