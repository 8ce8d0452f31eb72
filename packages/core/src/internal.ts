/**
 * `@mcpkit/core/internal`: small helpers the mcpkit packages share, kept in one place so that each
 * exists once, and the names sibling packages need that users do not (re-exported below).
 *
 * NOT PUBLIC API. This subpath exists only because the other `@mcpkit/*` packages depend on core;
 * it is exempt from semver and may change or disappear in any release. Do not import it from
 * application code. (Nothing here carries the internal JSDoc tag, and no comment here may spell
 * it: `stripInternal` drops any declaration whose leading comment contains it, and the packages
 * built against this entry need its types.)
 *
 * @example
 * ```ts
 * import { toError } from '@mcpkit/core/internal'; // from inside an @mcpkit package only
 * ```
 * @module
 */

// Names the sibling packages use and users do not: kept off the main entry point so that the
// public surface (and its generated types) holds only what users call.
export {
  AuthorizationPauses,
  installAuthorizationPauses,
  type PausableConnection,
  type PausableRequest,
  type PauseHost,
} from './jsonrpc/authorizationPauses.js';
export { DEFAULT_TIMEOUT as DEFAULT_REQUEST_TIMEOUT } from './jsonrpc/connectionOptions.js';
export { onBehalfOf, progressParamsOf } from './jsonrpc/incomingRequest.js';
export { exceedsJsonDepth } from './jsonrpc/jsonDepth.js';
export {
  type ClassifiedBody,
  classifyBody,
  classifyMessage,
  errorResponse,
  type MessageKind,
} from './jsonrpc/messages.js';
export { IncomingRateLimit } from './jsonrpc/rateLimit.js';
export { addListener } from './listeners.js';
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
  DEFAULT_CACHE_HINTS,
  type DecodedModernRequest,
  decodeModernRequest,
  encodeModernError,
  encodeModernResult,
  envelopeShapeError,
  envelopeVersion,
  unsupportedVersion,
} from './protocol/modern.js';
export {
  encodeOutgoingNotification,
  encodeOutgoingRequest,
} from './protocol/outgoing.js';
export {
  decodeHeaderValue,
  encodeHeaderValue,
  isHeaderToken,
  MAX_PARAM_HEADER_DEPTH,
  nameParamOf,
  type ParamHeader,
  type ParamHeaderProblem,
  type ParamHeaderScan,
  scanParamHeaders,
  valueAtPath,
} from './protocol/paramHeaders.js';
export { negotiateProtocolVersion } from './protocol/revisions.js';
export {
  concatBytes,
  copyOwn,
  defineOwn,
  formatIssues,
  isAsciiAlphanumeric,
  isBase64Char,
  isPlainObject,
  isPromiseLike,
  isRecord,
  readCapped,
  resultObject,
  setOwn,
  toError,
} from './shared.js';
export {
  createTaskResult,
  declaresTasksExtension,
  detailedTask,
  type ExtensionTask,
  fromExtensionTask,
  tasksExtensionRequired,
  toExtensionTask,
} from './tasks/extension.js';
export { makeTaskCursor, parseTaskCursor } from './tasks/memoryStore.js';
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
export { receiverSettings } from './tasks/settings.js';
export { MAX_TIMER_DELAY, timerDelay } from './timerDelay.js';
export { isStandardSchema } from './validation.js';
