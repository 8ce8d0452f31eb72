/**
 * `@mcpkit/node/stdio`: the stdio transports.
 *
 * Messages are newline-delimited UTF-8 JSON. The server side reads stdin and writes stdout; the
 * client side spawns the server and talks over its pipes. Both honour stream backpressure with a
 * single `drain` listener per stream, however many messages are in flight.
 *
 * @example
 * ```ts
 * import { StdioClientTransport, StdioServerTransport } from '@mcpkit/node/stdio';
 *
 * // In the server process:
 * await server.connect(new StdioServerTransport());
 *
 * // In the client process:
 * const transport = new StdioClientTransport({ command: 'node', args: ['server.js'] });
 * ```
 * @module
 */
export { StdioClientTransport } from './stdio/client.js';
export {
  DEFAULT_MAX_WRITE_QUEUE_BYTES,
  type StderrMode,
  type StdioClientOptions,
  type StdioExitStatus,
  type StdioShutdownTimeouts,
} from './stdio/clientOptions.js';
export { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment, type InheritEnv } from './stdio/environment.js';
export { DEFAULT_MAX_MESSAGE_BYTES } from './stdio/lineReader.js';
export { serializeLine } from './stdio/lineWriter.js';
export { type StdioServerOptions, StdioServerTransport } from './stdio/server.js';
export { StdioServerProcessError } from './stdio/spawn.js';
