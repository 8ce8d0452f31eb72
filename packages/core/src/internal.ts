/**
 * `@mcpkit/core/internal`: what the other mcpkit packages share and users do not need.
 *
 * Not part of the public API: no semver promise, and names come and go between any two
 * releases. Kept off the main entry point so that the public surface (and its generated types)
 * holds only what users call. (Not tagged internal for `stripInternal`: that would drop the exports.)
 *
 * @module
 */

export { exceedsJsonDepth } from './jsonrpc/jsonDepth.js';
export {
  classifyMessage,
  errorResponse,
  type MessageKind,
} from './jsonrpc/messages.js';
export { IncomingRateLimit } from './jsonrpc/rateLimit.js';
export { rejectUnknownOptions } from './options.js';
export {
  mergeCapabilities,
  missingClientCapability,
  missingServerCapability,
} from './protocol/capabilities.js';
export {
  NOT_IN_REVISION,
  type RevisionCodec,
  type WireParams,
} from './protocol/codec.js';
export {
  codecFor,
  REVISION_FEATURES,
  type RevisionFeature,
  revisionHas,
} from './protocol/codecs.js';
export {
  DEFAULT_DIALECT,
  schemaDialect,
} from './protocol/dialect.js';
export {
  DEFAULT_MAX_ICON_SOURCE_LENGTH,
  type IconCheckOptions,
  isSafeIconSource,
  validateIcon,
  validateIcons,
} from './protocol/icons.js';
export {
  type ValidateMetaOptions,
  validateMeta,
} from './protocol/meta.js';
export {
  encodeOutgoingNotification,
  encodeOutgoingRequest,
} from './protocol/outgoing.js';
export { negotiateProtocolVersion } from './protocol/revisions.js';
export {
  answerCancelTask,
  answerGetTask,
  answerListTasks,
  awaitTaskPayload,
  type TaskTtlLimits,
  taskIdParam,
  taskParamOf,
  ttlGranter,
} from './tasks/receiver.js';
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
export { isStandardSchema } from './validation.js';
