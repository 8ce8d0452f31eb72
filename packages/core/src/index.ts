/**
 * `@mcpkit/core`: the runtime-neutral heart of mcpkit.
 *
 * No dependencies and no `node:` imports: it runs unchanged on Node, Bun, Deno, browsers and
 * Workers. Servers, clients and transports are built on what this module exports, including the
 * task store both task receivers (a server running tools, a client running sampling or
 * elicitation) keep their tasks in.
 *
 * @example
 * ```ts
 * import { Connection, createInMemoryPair, Method } from '@mcpkit/core';
 * ```
 * @module
 */

export {
  CancelledByPeer,
  Connection,
  type ConnectionHandler,
  type ConnectionOptions,
} from './jsonrpc/connection.js';
export { DeadlineTimer } from './jsonrpc/deadlines.js';
export * from './jsonrpc/errors.js';
export {
  IncomingRequest,
  type OutgoingRequestOptions,
  type ProgressUpdate,
} from './jsonrpc/incomingRequest.js';
export * from './jsonrpc/jsonDepth.js';
export * from './jsonrpc/messages.js';
export { DEFAULT_MAX_INCOMING_PER_SECOND, IncomingRateLimit } from './jsonrpc/rateLimit.js';
export * from './middleware.js';
export * from './options.js';
export * from './protocol/capabilities.js';
export * from './protocol/codec.js';
export * from './protocol/codecs.js';
export * from './protocol/dialect.js';
export * from './protocol/icons.js';
export * from './protocol/meta.js';
export * from './protocol/methods.js';
export * from './protocol/outgoing.js';
export * from './protocol/revisions.js';
export * from './protocol/types.js';
export * from './tasks/memoryStore.js';
export * from './tasks/receiver.js';
export {
  DEFAULT_TASK_RESULT_TIMEOUT,
  isTask,
  pollTaskUntilDone,
  type TaskPollOptions,
  type TaskPollSource,
} from './tasks/requestor.js';
export {
  type RunningTask,
  type TaskExecutionOptions,
  TaskRunner,
  type TaskRunnerHooks,
} from './tasks/runner.js';
export * from './tasks/store.js';
export * from './transport/inMemory.js';
export * from './transport/rawHttp.js';
export * from './transport/transport.js';
export * from './validation.js';
