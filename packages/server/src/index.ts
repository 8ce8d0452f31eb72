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

export { type BroadcastScope, inScope } from './broadcastScope.js';
export {
  type Completer,
  type Completers,
  type CompletionContext,
  type CompletionValues,
  MAX_COMPLETION_VALUES,
  toCompleteResult,
} from './completion/complete.js';
export { decodeBase64, encodeBase64, isBase64 } from './content/base64.js';
export {
  audio,
  type BinaryData,
  type BlockOptions,
  type EmbeddedContents,
  embeddedResource,
  image,
  resourceLink,
  text,
  toBase64,
} from './content/content.js';
export {
  audioFrom,
  type BinarySource,
  fileResource,
  imageFrom,
  type SourceOptions,
} from './content/sources.js';
export {
  type MethodHandler,
  type MethodNotificationHandler,
  type NotificationHandler,
  type RequestHandler,
  SERVER_OPTION_KEYS,
  type ServerOptions,
} from './handlers.js';
export { type AskOptions, RequestContext, type RequestLogger } from './kernel/context.js';
export { ServerSession, type SessionConnectOptions } from './kernel/session.js';
export {
  checkSessionState,
  type ServerSessionState,
  type SessionStateHolder,
} from './kernel/sessionState.js';
export { ListedItem, type ListKind } from './listChanged.js';
export { McpServer, type McpServerOptions } from './mcpServer.js';
export {
  type ServerMethodContext,
  type ServerMethodMiddleware,
  type ServerMiddleware,
  ServerMiddlewareContext,
} from './middleware/context.js';
export {
  hideTools,
  type ListMethod,
  onCallTool,
  onGetPrompt,
  onIncomingNotification,
  onInitialize,
  onList,
  onReadResource,
  type ToolCall,
} from './middleware/hooks.js';
export { onMethod } from './middleware/method.js';
export type { ListenHook } from './modern/listen.js';
export type { RequestStateKey } from './mrtr/keyRing.js';
export { DEFAULT_INPUT_ROUND_LIMITS, type InputRoundLimits } from './mrtr/limits.js';
export {
  type InputRequest,
  type InputRequiredResult,
  InputRequiredSignal,
  isInputRequired,
} from './mrtr/signal.js';
export {
  type PromptArgumentName,
  type PromptArguments,
  type PromptArgumentsInput,
  type PromptConfig,
  type PromptHandler,
  type PromptReturn,
  type PromptUpdate,
  RegisteredPrompt,
  toGetPromptResult,
} from './prompts/prompt.js';
export { type PromptSupport, promptSupport } from './prompts/promptsFeature.js';
export {
  type ReadResourceReturn,
  type ResourceContentsInput,
  toReadResourceResult,
} from './resources/readResult.js';
export {
  RegisteredResource,
  RegisteredResourceTemplate,
  type ResourceConfig,
  type ResourceReader,
  type ResourceTemplateConfig,
  type ResourceTemplateUpdate,
  type ResourceUpdate,
  type TemplateReader,
  type TemplateVariableName,
  type TemplateVariables,
} from './resources/resource.js';
export { type ResourceSupport, resourceSupport } from './resources/resourcesFeature.js';
export { isAbsoluteUri, uriProblem } from './resources/uri.js';
export { UriTemplate, type UriTemplateOptions } from './resources/uriTemplate.js';
export { Server, type SessionInfo, type SessionListener } from './server.js';
export type { PreparedSchema, SchemaCheck, SchemaInput } from './tools/schemas.js';
export {
  type EmptyArguments,
  RegisteredTool,
  type ToolArguments,
  type ToolConfig,
  type ToolHandler,
  type ToolReturn,
  type ToolUpdate,
} from './tools/tool.js';
export { isValidToolName, MAX_TOOL_NAME_LENGTH, toolNameProblem } from './tools/toolName.js';
export {
  isCallToolResult,
  isContentBlock,
  ToolError,
  toCallToolResult,
  toolErrorResult,
} from './tools/toolResult.js';
export { unknownToolError } from './tools/toolsFeature.js';
