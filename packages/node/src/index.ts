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

export { fileBlob, fileUri, mimeTypeOf } from './files.js';
export { type FolderOptions, type RootsMode, type ServedFolder, serveFolder } from './folder.js';
export {
  type FetchHandler,
  type NodeListener,
  type NodeListenerOptions,
  type ServedHandler,
  type ServeOptions,
  serve,
  toNodeListener,
  toRequest,
} from './http.js';
export {
  DEFAULT_INHERITED_ENV_VARS,
  DEFAULT_MAX_MESSAGE_BYTES,
  getDefaultEnvironment,
  type InheritEnv,
  type StderrMode,
  type StdioClientOptions,
  StdioClientTransport,
  type StdioExitStatus,
  type StdioServerOptions,
  StdioServerProcessError,
  StdioServerTransport,
  type StdioShutdownTimeouts,
  serializeLine,
} from './stdio.js';
