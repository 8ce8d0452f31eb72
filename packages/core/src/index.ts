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

export { combineObservers } from './combineObservers.js';
export { Connection } from './jsonrpc/connection.js';
export type { ConnectionHandler, ConnectionOptions } from './jsonrpc/connectionOptions.js';
export { DeadlineTimer } from './jsonrpc/deadlines.js';
export {
  CancelledByPeer,
  CapabilityError,
  ConnectionClosedError,
  InvalidResponseError,
  LocalError,
  McpError,
  MissingRequiredClientCapabilityError,
  RequestCancelledError,
  RequestTimeoutError,
  type RequiredUrlElicitation,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from './jsonrpc/errors.js';
export {
  type CancelSource,
  cancelSignalOf,
  IncomingRequest,
  type OutgoingRequestOptions,
  type ProgressUpdate,
  signalOf,
} from './jsonrpc/incomingRequest.js';
export {
  DEFAULT_MAX_JSON_DEPTH,
  JsonTooDeepError,
} from './jsonrpc/jsonDepth.js';
export {
  ErrorCode,
  isRequestId,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
  type RequestId,
} from './jsonrpc/messages.js';
export { DEFAULT_MAX_INCOMING_PER_SECOND } from './jsonrpc/rateLimit.js';
export { BaseRequestContext } from './jsonrpc/requestContext.js';
export { createLogObserver, type Logger, type LogObserverOptions } from './logObserver.js';
export {
  composeMiddleware,
  composeMiddlewareSync,
  type Middleware,
  type MiddlewareContextBase,
} from './middleware.js';
export {
  MCP_DURATION_BUCKETS,
  ObservedMessage,
  ObservedNotification,
  type ObservedOutcome,
  ObservedRequest,
  type ObservedRole,
  type ObservedSession,
  type Observer,
  observedErrorType,
  observedTarget,
  SessionObservation,
} from './observer.js';
export {
  type JsonSchemaDialect,
  UnsupportedDialectError,
} from './protocol/dialect.js';
export {
  isReservedMetaKey,
  isValidMetaKey,
} from './protocol/meta.js';
export {
  Method,
  type MethodName,
  Notification,
  type NotificationName,
} from './protocol/methods.js';
export {
  EXTENSION_METHOD_TABLE,
  isCoreMethod,
  METHOD_TABLE,
  type MethodDirection,
  type MethodRange,
  methodExists,
  TASKS_EXTENSION,
} from './protocol/methodTable.js';
export { CACHEABLE_METHODS, ENVELOPE, type EnvelopeScope, type ModernScope } from './protocol/modern.js';
export {
  ALL_REVISIONS,
  DEFAULT_HTTP_PROTOCOL_VERSION,
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  type ProtocolVersion,
  type Revision,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol/revisions.js';
export {
  type Annotations,
  type AudioContent,
  type BaseMetadata,
  type BlobResourceContents,
  type BooleanSchema,
  type CallToolRequestParams,
  type CallToolResult,
  type CancelledNotificationParams,
  type CancelTaskRequestParams,
  type CancelTaskResult,
  type ClientCapabilities,
  type ClientNotificationMap,
  type ClientNotificationMethod,
  type ClientRequestMap,
  type ClientRequestMethod,
  type ClientResult,
  type CompleteRequestParams,
  type CompleteResult,
  type ContentBlock,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateTaskResult,
  type Cursor,
  type ElicitationCompleteNotificationParams,
  type ElicitRequestFormParams,
  type ElicitRequestParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type EmbeddedResource,
  type EmptyResult,
  type EnumSchema,
  type ExtensionMethod,
  type GetPromptRequestParams,
  type GetPromptResult,
  type GetTaskPayloadRequestParams,
  type GetTaskPayloadResult,
  type GetTaskRequestParams,
  type GetTaskResult,
  type Icon,
  type Icons,
  type ImageContent,
  type Implementation,
  type InitializeRequestParams,
  type InitializeResult,
  type JsonObject,
  type LegacyTitledEnumSchema,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListRootsResult,
  type ListTasksResult,
  type ListToolsResult,
  LOGGING_LEVELS,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  type Meta,
  type MethodArgsOf,
  type MethodHandlerOf,
  MODEL_IMMEDIATE_RESPONSE_META_KEY,
  type ModelHint,
  type ModelPreferences,
  type MultiSelectEnumSchema,
  type NotificationMap,
  type NotificationMethod,
  type NotificationParams,
  type NotificationParamsOf,
  type NumberSchema,
  type PaginatedRequestParams,
  type PaginatedResult,
  type PrimitiveSchemaDefinition,
  type ProgressNotificationParams,
  type ProgressToken,
  type Prompt,
  type PromptArgument,
  type PromptMessage,
  type PromptReference,
  RELATED_TASK_META_KEY,
  type ReadResourceRequestParams,
  type ReadResourceResult,
  type RelatedTaskMetadata,
  type RequestMap,
  type RequestMeta,
  type RequestMethod,
  type RequestParams,
  type RequestParamsOf,
  type RequestResultOf,
  type Resource,
  type ResourceContents,
  type ResourceLink,
  type ResourceRequestParams,
  type ResourceTemplate,
  type ResourceTemplateReference,
  type ResourceUpdatedNotificationParams,
  type Result,
  type Role,
  type Root,
  type SamplingMessage,
  type SamplingMessageContentBlock,
  type ServerCapabilities,
  type ServerNotificationMap,
  type ServerNotificationMethod,
  type ServerRequestMap,
  type ServerRequestMethod,
  type ServerResult,
  type SetLevelRequestParams,
  type SingleSelectEnumSchema,
  type StringSchema,
  type SubscribeRequestParams,
  TASK_STATUSES,
  type Task,
  type TaskAugmentedRequestParams,
  type TaskMetadata,
  type TaskStatus,
  type TaskStatusNotificationParams,
  type TextContent,
  type TextResourceContents,
  type TitledMultiSelectEnumSchema,
  type TitledSingleSelectEnumSchema,
  type Tool,
  type ToolAnnotations,
  type ToolChoice,
  type ToolExecution,
  type ToolJsonSchema,
  type ToolResultContent,
  type ToolUseContent,
  type UnsubscribeRequestParams,
  type UntitledMultiSelectEnumSchema,
  type UntitledSingleSelectEnumSchema,
  type URLElicitationRequiredErrorData,
} from './protocol/types.js';
export { isSensitiveKey, REDACTED, redact } from './redact.js';
export {
  InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
} from './tasks/memoryStore.js';
export { withRelatedTask } from './tasks/receiver.js';
export type {
  TaskCreateOptions,
  TaskEvent,
  TaskOutcome,
  TaskPage,
  TaskPatch,
  TaskRequest,
  TaskRequestor,
  TaskStore,
} from './tasks/store.js';
export { isTerminalStatus, unknownTaskError } from './tasks/store.js';
export {
  createInMemoryPair,
  type InMemoryPairOptions,
  InMemoryTransport,
} from './transport/inMemory.js';
export type {
  AuthInfo,
  MessageExtra,
  MessageSink,
  SendOptions,
  Transport,
} from './transport/transport.js';
export type {
  CompiledValidator,
  JsonSchema,
  JsonSchemaValidator,
  StandardSchemaV1,
  ValidationIssue,
  ValidationResult,
} from './validation.js';
