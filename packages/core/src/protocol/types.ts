/**
 * The MCP data shapes of revision 2025-11-25: every request's params, every result, every
 * notification's params and the structures they share, named as the specification's `schema.ts`
 * names them. The JSON-RPC envelopes live in `../jsonrpc/messages.ts`.
 *
 * Everything here is a `type` alias rather than an `interface` on purpose: an alias of an object
 * type is assignable to `Record<string, unknown>`, which is what the connection sends and receives,
 * so feature code never needs a cast between "typed params" and "wire params".
 *
 * `@since <revision>` marks a type or field that older revisions lack (untagged means it already
 * existed in 2024-11-05). The revision codecs rely on these tags to know what to strip or adapt when
 * the peer negotiated an older revision.
 *
 * @example
 * ```ts
 * import type { CallToolResult, RequestResultOf } from '@mcpkit/core';
 * const result: CallToolResult = { content: [{ type: 'text', text: 'hi' }] };
 * type Listed = RequestResultOf<'tools/list'>; // ListToolsResult
 * ```
 * @module
 */
import type { RequestId } from '../jsonrpc/messages.js';

// ---------------------------------------------------------------------------------------------
// Wire constants
// ---------------------------------------------------------------------------------------------

/**
 * The `_meta` key that ties a request, notification or result to the task it belongs to.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params = { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't-1' } } };
 * ```
 */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/**
 * The `_meta` key of a {@link CreateTaskResult} whose string a host may hand to the model as an
 * interim tool result while the task runs. Provisional and non-binding.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const created: CreateTaskResult = { task, _meta: { [MODEL_IMMEDIATE_RESPONSE_META_KEY]: 'Working on it' } };
 * ```
 */
export const MODEL_IMMEDIATE_RESPONSE_META_KEY = 'io.modelcontextprotocol/model-immediate-response';

/**
 * Every log severity, least severe first (the RFC 5424 order). A level's index is its rank, so
 * "at or above the requested level" is an index comparison.
 *
 * @example
 * ```ts
 * const atLeast = (level: LoggingLevel, min: LoggingLevel) =>
 *   LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(min);
 * ```
 */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/**
 * Every task status: the two live ones (`working`, `input_required`), then the three terminal ones.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const isTaskStatus = (v: unknown): v is TaskStatus => (TASK_STATUSES as readonly unknown[]).includes(v);
 * ```
 */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

// ---------------------------------------------------------------------------------------------
// Common building blocks
// ---------------------------------------------------------------------------------------------

/**
 * Any JSON object. Used where the specification says "object" and leaves the members open.
 *
 * @example
 * ```ts
 * const capabilityFlag: JsonObject = {};
 * ```
 */
export type JsonObject = { [key: string]: unknown };

/**
 * Opaque value the requester chooses so that `notifications/progress` can name its request.
 *
 * @example
 * ```ts
 * const token: ProgressToken = 'upload-42';
 * ```
 */
export type ProgressToken = string | number;

/**
 * Opaque pagination position, chosen by the server; clients echo it back unchanged.
 *
 * @example
 * ```ts
 * const next: Cursor = 'eyJvZmZzZXQiOjUwfQ';
 * ```
 */
export type Cursor = string;

/**
 * Who speaks in a conversation.
 *
 * @example
 * ```ts
 * const role: Role = 'assistant';
 * ```
 */
export type Role = 'user' | 'assistant';

/**
 * A `_meta` object: open metadata that MCP reserves on messages and many data objects. Keys with a
 * second label of `modelcontextprotocol` or `mcp` in their prefix belong to the specification.
 *
 * @example
 * ```ts
 * const meta: Meta = { 'com.example/trace': 'abc', 'io.modelcontextprotocol/related-task': { taskId: 't-1' } };
 * ```
 */
export type Meta = {
  /** Ties the message to a task. @since 2025-11-25 */
  'io.modelcontextprotocol/related-task'?: RelatedTaskMetadata;
  [key: string]: unknown;
};

/**
 * The `_meta` object of request params.
 *
 * @example
 * ```ts
 * const meta: RequestMeta = { progressToken: 7 };
 * ```
 */
export type RequestMeta = Meta & {
  /** Asks the receiver for `notifications/progress` carrying this token (it may not send any). */
  progressToken?: ProgressToken;
};

/**
 * Params every request may carry.
 *
 * @example
 * ```ts
 * const ping: RequestParams = { _meta: { progressToken: 1 } };
 * ```
 */
export type RequestParams = {
  _meta?: RequestMeta;
};

/**
 * Params of a request the receiver may run as a task.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: TaskAugmentedRequestParams = { task: { ttl: 60_000 } };
 * ```
 */
export type TaskAugmentedRequestParams = RequestParams & {
  /**
   * Asks for task execution: the receiver answers at once with a {@link CreateTaskResult} and the
   * real result is fetched later with `tasks/result`. Only allowed where the receiver's
   * `tasks.requests` capability says so.
   */
  task?: TaskMetadata;
};

/**
 * Params every notification may carry.
 *
 * @example
 * ```ts
 * const params: NotificationParams = { _meta: { 'com.example/origin': 'cache' } };
 * ```
 */
export type NotificationParams = {
  _meta?: Meta;
};

/**
 * Base of every result. Open: a peer may add members this revision does not know.
 *
 * @example
 * ```ts
 * const result: Result = { _meta: { 'com.example/cached': true } };
 * ```
 */
export type Result = {
  _meta?: Meta;
  [key: string]: unknown;
};

/**
 * A result that only says "done" (ping, subscribe, setLevel...).
 *
 * @example
 * ```ts
 * const ok: EmptyResult = {};
 * ```
 */
export type EmptyResult = Result;

/**
 * Params of a paginated list request.
 *
 * @example
 * ```ts
 * const page2: PaginatedRequestParams = { cursor: 'eyJvZmZzZXQiOjUwfQ' };
 * ```
 */
export type PaginatedRequestParams = RequestParams & {
  /** Where to continue: the `nextCursor` of the previous page. Absent for the first page. */
  cursor?: Cursor;
};

/**
 * Base of a paginated list result.
 *
 * @example
 * ```ts
 * const last: PaginatedResult = {}; // no nextCursor: nothing more to fetch
 * ```
 */
export type PaginatedResult = Result & {
  /** Present when more items may follow; pass it back as `cursor`. */
  nextCursor?: Cursor;
};

/**
 * Hints about how a client should use or show an object.
 *
 * @since 2025-03-26 (as a named type; content and resources carried the same `audience`/`priority`
 * annotations in 2024-11-05)
 * @example
 * ```ts
 * const forTheUser: Annotations = { audience: ['user'], priority: 0.9 };
 * ```
 */
export type Annotations = {
  /** Who the object is meant for; both roles may be listed. */
  audience?: Role[];
  /** Importance from 0 (optional) to 1 (effectively required). */
  priority?: number;
  /** ISO 8601 time of the last change, e.g. `"2025-01-12T15:00:58Z"`. @since 2025-06-18 */
  lastModified?: string;
};

/**
 * An image a client may show next to a server, tool, prompt or resource.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const icon: Icon = { src: 'https://example.com/logo.png', mimeType: 'image/png', sizes: ['48x48'] };
 * ```
 */
export type Icon = {
  /** An `https:` URL or a base64 `data:` URI. Consumers must treat it as untrusted. */
  src: string;
  /** Overrides a missing or generic MIME type of `src`. */
  mimeType?: string;
  /** `"WxH"` values, or `"any"` for scalable images. Absent: usable at any size. */
  sizes?: string[];
  /** The background the icon is drawn for. Absent: usable on any. */
  theme?: 'light' | 'dark';
};

/**
 * The `icons` member shared by implementations, tools, prompts, resources and templates.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const withIcons: Icons = { icons: [{ src: 'data:image/png;base64,iVBORw0KGgo=' }] };
 * ```
 */
export type Icons = {
  /** Icons to display; clients that render icons must handle PNG and JPEG. @since 2025-11-25 */
  icons?: Icon[];
};

/**
 * The identifier/display-name pair shared by named objects.
 *
 * @example
 * ```ts
 * const named: BaseMetadata = { name: 'get_weather', title: 'Get weather' };
 * ```
 */
export type BaseMetadata = {
  /** Stable identifier for programs; the display fallback when `title` is absent. */
  name: string;
  /** Human-readable display name. @since 2025-06-18 */
  title?: string;
};

// ---------------------------------------------------------------------------------------------
// Lifecycle
// ---------------------------------------------------------------------------------------------

/**
 * Who is at the other end: a client's `clientInfo` or a server's `serverInfo`.
 *
 * @example
 * ```ts
 * const serverInfo: Implementation = { name: 'weather', version: '1.0.0', title: 'Weather' };
 * ```
 */
export type Implementation = {
  name: string;
  /** @since 2025-06-18 */
  title?: string;
  version: string;
  /** What the implementation is for, in a sentence or two. @since 2025-11-25 */
  description?: string;
  /** The project's website. @since 2025-11-25 */
  websiteUrl?: string;
  /** @since 2025-11-25 */
  icons?: Icon[];
};

/**
 * What a client can do. Open: clients may declare capabilities this revision does not define.
 *
 * @example
 * ```ts
 * const caps: ClientCapabilities = { roots: { listChanged: true }, sampling: { tools: {} }, elicitation: { form: {} } };
 * ```
 */
export type ClientCapabilities = {
  /** Non-standard capabilities, by name. */
  experimental?: { [name: string]: JsonObject };
  /** The client answers `roots/list`. */
  roots?: {
    /** It also sends `notifications/roots/list_changed`. */
    listChanged?: boolean;
  };
  /** The client answers `sampling/createMessage`. */
  sampling?: {
    /** It honours `includeContext` other than `"none"`. @since 2025-11-25 */
    context?: JsonObject;
    /** It accepts `tools` and `toolChoice`. @since 2025-11-25 */
    tools?: JsonObject;
  };
  /**
   * The client answers `elicitation/create`. An empty object means form mode only.
   *
   * @since 2025-06-18 (as an empty object; the `form`/`url` members since 2025-11-25)
   */
  elicitation?: {
    /** @since 2025-11-25 */
    form?: JsonObject;
    /** @since 2025-11-25 */
    url?: JsonObject;
  };
  /**
   * The client can run server requests as tasks.
   *
   * @since 2025-11-25
   */
  tasks?: {
    /** It answers `tasks/list`. */
    list?: JsonObject;
    /** It answers `tasks/cancel`. */
    cancel?: JsonObject;
    /** Which requests may carry a `task` param. */
    requests?: {
      sampling?: { createMessage?: JsonObject };
      elicitation?: { create?: JsonObject };
    };
  };
  [key: string]: unknown;
};

/**
 * What a server offers. Open: servers may declare capabilities this revision does not define.
 *
 * @example
 * ```ts
 * const caps: ServerCapabilities = { tools: { listChanged: true }, logging: {}, completions: {} };
 * ```
 */
export type ServerCapabilities = {
  /** Non-standard capabilities, by name. */
  experimental?: { [name: string]: JsonObject };
  /** The server sends `notifications/message` and answers `logging/setLevel`. */
  logging?: JsonObject;
  /** The server answers `completion/complete`. @since 2025-03-26 */
  completions?: JsonObject;
  /** The server offers prompts. */
  prompts?: {
    /** It sends `notifications/prompts/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers resources. */
  resources?: {
    /** It answers `resources/subscribe` and sends `notifications/resources/updated`. */
    subscribe?: boolean;
    /** It sends `notifications/resources/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers tools. */
  tools?: {
    /** It sends `notifications/tools/list_changed`. */
    listChanged?: boolean;
  };
  /**
   * The server can run client requests as tasks.
   *
   * @since 2025-11-25
   */
  tasks?: {
    /** It answers `tasks/list`. */
    list?: JsonObject;
    /** It answers `tasks/cancel`. */
    cancel?: JsonObject;
    /** Which requests may carry a `task` param. */
    requests?: {
      tools?: { call?: JsonObject };
    };
  };
  [key: string]: unknown;
};

/**
 * Params of `initialize`, the client's first request.
 *
 * @example
 * ```ts
 * const params: InitializeRequestParams = {
 *   protocolVersion: '2025-11-25',
 *   capabilities: {},
 *   clientInfo: { name: 'my-client', version: '0.1.0' },
 * };
 * ```
 */
export type InitializeRequestParams = RequestParams & {
  /** The newest revision the client speaks. */
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
};

/**
 * The server's answer to `initialize`.
 *
 * @example
 * ```ts
 * const result: InitializeResult = {
 *   protocolVersion: '2025-11-25',
 *   capabilities: { tools: {} },
 *   serverInfo: { name: 'weather', version: '1.0.0' },
 *   instructions: 'Call get_weather with a city name.',
 * };
 * ```
 */
export type InitializeResult = Result & {
  /** The revision the server picked; a client that cannot speak it disconnects. */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** Guidance on using the server, which a host may add to the model's system prompt. */
  instructions?: string;
};

// ---------------------------------------------------------------------------------------------
// Cancellation and progress
// ---------------------------------------------------------------------------------------------

/**
 * Params of `notifications/cancelled`: the sender no longer wants the result of a request.
 *
 * @example
 * ```ts
 * const params: CancelledNotificationParams = { requestId: 12, reason: 'User pressed stop' };
 * ```
 */
export type CancelledNotificationParams = NotificationParams & {
  /**
   * The request to abandon, one this side sent earlier. Required for ordinary requests; tasks are
   * cancelled with `tasks/cancel` instead.
   *
   * @since 2025-11-25 optional (required in 2024-11-05 through 2025-06-18)
   */
  requestId?: RequestId;
  /** Why, for logs or the user. */
  reason?: string;
};

/**
 * Params of `notifications/progress`.
 *
 * @example
 * ```ts
 * const params: ProgressNotificationParams = { progressToken: 'upload-42', progress: 30, total: 100, message: 'Uploading' };
 * ```
 */
export type ProgressNotificationParams = NotificationParams & {
  /** The token from the request's `_meta.progressToken`. */
  progressToken: ProgressToken;
  /** Work done so far; grows with every notification, even when `total` is unknown. */
  progress: number;
  /** Total work, when known. */
  total?: number;
  /** What is happening now. @since 2025-03-26 */
  message?: string;
};

// ---------------------------------------------------------------------------------------------
// Content
// ---------------------------------------------------------------------------------------------

/**
 * Text for or from a model.
 *
 * @example
 * ```ts
 * const block: TextContent = { type: 'text', text: 'It is 21°C in Paris.' };
 * ```
 */
export type TextContent = {
  type: 'text';
  text: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * A base64 image for or from a model.
 *
 * @example
 * ```ts
 * const block: ImageContent = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
 * ```
 */
export type ImageContent = {
  type: 'image';
  /** Base64 bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * Base64 audio for or from a model.
 *
 * @since 2025-03-26
 * @example
 * ```ts
 * const block: AudioContent = { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' };
 * ```
 */
export type AudioContent = {
  type: 'audio';
  /** Base64 bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * A pointer to a resource, returned in a tool result or prompt instead of its contents. It need
 * not appear in `resources/list`.
 *
 * @since 2025-06-18
 * @example
 * ```ts
 * const link: ResourceLink = { type: 'resource_link', uri: 'file:///report.pdf', name: 'report.pdf' };
 * ```
 */
export type ResourceLink = Resource & {
  type: 'resource_link';
};

/**
 * A resource's contents placed inline in a tool result or prompt.
 *
 * @example
 * ```ts
 * const block: EmbeddedResource = { type: 'resource', resource: { uri: 'memo://1', text: 'Remember milk' } };
 * ```
 */
export type EmbeddedResource = {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * A block of content in a tool result or prompt message.
 *
 * Members by revision: text, image and embedded resource since 2024-11-05; `audio` since
 * 2025-03-26; `resource_link` since 2025-06-18 (when the union got this name).
 *
 * @example
 * ```ts
 * const blocks: ContentBlock[] = [{ type: 'text', text: 'See attached' }, link];
 * ```
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * In sampling, the model asking to call one of the request's `tools`.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const use: ToolUseContent = { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } };
 * ```
 */
export type ToolUseContent = {
  type: 'tool_use';
  /** Matches the {@link ToolResultContent.toolUseId} that answers it. */
  id: string;
  name: string;
  /** Arguments, shaped by the tool's `inputSchema`. */
  input: JsonObject;
  /** Keep it when re-sending the block: providers may use it for caching. */
  _meta?: Meta;
};

/**
 * In sampling, the outcome of a {@link ToolUseContent}, sent back in a user message.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const answer: ToolResultContent = { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '21°C' }] };
 * ```
 */
export type ToolResultContent = {
  type: 'tool_result';
  /** The `id` of the tool use being answered. */
  toolUseId: string;
  /** Unstructured output, like {@link CallToolResult.content}. */
  content: ContentBlock[];
  /** Structured output, matching the tool's `outputSchema` when it has one. */
  structuredContent?: JsonObject;
  isError?: boolean;
  /** Keep it when re-sending the block: providers may use it for caching. */
  _meta?: Meta;
};

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

/**
 * A resource the server can read, as listed by `resources/list`.
 *
 * @example
 * ```ts
 * const resource: Resource = { uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/markdown', size: 2048 };
 * ```
 */
export type Resource = {
  /** Any scheme; the server decides what it means. */
  uri: string;
  name: string;
  /** @since 2025-06-18 */
  title?: string;
  /** What it holds, as a hint for the model. */
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Raw size in bytes (before base64), for display and context budgeting. */
  size?: number;
  /** @since 2025-11-25 */
  icons?: Icon[];
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * A family of resources addressed by an RFC 6570 URI template.
 *
 * @example
 * ```ts
 * const template: ResourceTemplate = { uriTemplate: 'weather://{city}/today', name: 'today' };
 * ```
 */
export type ResourceTemplate = {
  uriTemplate: string;
  name: string;
  /** @since 2025-06-18 */
  title?: string;
  description?: string;
  /** Set only when every matching resource has this type. */
  mimeType?: string;
  annotations?: Annotations;
  /** @since 2025-11-25 */
  icons?: Icon[];
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * What text and binary contents have in common.
 *
 * @example
 * ```ts
 * const base: ResourceContents = { uri: 'file:///notes.md', mimeType: 'text/markdown' };
 * ```
 */
export type ResourceContents = {
  uri: string;
  mimeType?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * The contents of a resource that is text.
 *
 * @example
 * ```ts
 * const contents: TextResourceContents = { uri: 'file:///notes.md', text: '# Notes' };
 * ```
 */
export type TextResourceContents = ResourceContents & {
  text: string;
};

/**
 * The contents of a binary resource.
 *
 * @example
 * ```ts
 * const contents: BlobResourceContents = { uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' };
 * ```
 */
export type BlobResourceContents = ResourceContents & {
  /** Base64 bytes. */
  blob: string;
};

/**
 * The answer to `resources/list`.
 *
 * @example
 * ```ts
 * const page: ListResourcesResult = { resources: [resource], nextCursor: 'p2' };
 * ```
 */
export type ListResourcesResult = PaginatedResult & {
  resources: Resource[];
};

/**
 * The answer to `resources/templates/list`.
 *
 * @example
 * ```ts
 * const page: ListResourceTemplatesResult = { resourceTemplates: [template] };
 * ```
 */
export type ListResourceTemplatesResult = PaginatedResult & {
  resourceTemplates: ResourceTemplate[];
};

/**
 * Params naming one resource.
 *
 * @example
 * ```ts
 * const params: ResourceRequestParams = { uri: 'file:///notes.md' };
 * ```
 */
export type ResourceRequestParams = RequestParams & {
  uri: string;
};

/**
 * Params of `resources/read`.
 *
 * @example
 * ```ts
 * const params: ReadResourceRequestParams = { uri: 'weather://paris/today' };
 * ```
 */
export type ReadResourceRequestParams = ResourceRequestParams;

/**
 * The answer to `resources/read`: one or more contents (a directory may yield several).
 *
 * @example
 * ```ts
 * const result: ReadResourceResult = { contents: [{ uri: 'file:///notes.md', text: '# Notes' }] };
 * ```
 */
export type ReadResourceResult = Result & {
  contents: (TextResourceContents | BlobResourceContents)[];
};

/**
 * Params of `resources/subscribe`.
 *
 * @example
 * ```ts
 * const params: SubscribeRequestParams = { uri: 'file:///notes.md' };
 * ```
 */
export type SubscribeRequestParams = ResourceRequestParams;

/**
 * Params of `resources/unsubscribe`.
 *
 * @example
 * ```ts
 * const params: UnsubscribeRequestParams = { uri: 'file:///notes.md' };
 * ```
 */
export type UnsubscribeRequestParams = ResourceRequestParams;

/**
 * Params of `notifications/resources/updated`.
 *
 * @example
 * ```ts
 * const params: ResourceUpdatedNotificationParams = { uri: 'file:///notes.md' };
 * ```
 */
export type ResourceUpdatedNotificationParams = NotificationParams & {
  /** The changed resource; may be a sub-resource of the subscribed one. */
  uri: string;
};

// ---------------------------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------------------------

/**
 * A prompt or prompt template the server offers.
 *
 * @example
 * ```ts
 * const prompt: Prompt = { name: 'review', description: 'Review code', arguments: [{ name: 'code', required: true }] };
 * ```
 */
export type Prompt = {
  name: string;
  /** @since 2025-06-18 */
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /** @since 2025-11-25 */
  icons?: Icon[];
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * One argument a prompt template takes.
 *
 * @example
 * ```ts
 * const arg: PromptArgument = { name: 'language', title: 'Language', required: false };
 * ```
 */
export type PromptArgument = {
  name: string;
  /** @since 2025-06-18 */
  title?: string;
  description?: string;
  required?: boolean;
};

/**
 * One message of a rendered prompt.
 *
 * @example
 * ```ts
 * const message: PromptMessage = { role: 'user', content: { type: 'text', text: 'Review this code' } };
 * ```
 */
export type PromptMessage = {
  role: Role;
  content: ContentBlock;
};

/**
 * The answer to `prompts/list`.
 *
 * @example
 * ```ts
 * const page: ListPromptsResult = { prompts: [prompt] };
 * ```
 */
export type ListPromptsResult = PaginatedResult & {
  prompts: Prompt[];
};

/**
 * Params of `prompts/get`.
 *
 * @example
 * ```ts
 * const params: GetPromptRequestParams = { name: 'review', arguments: { code: 'let x = 1' } };
 * ```
 */
export type GetPromptRequestParams = RequestParams & {
  name: string;
  /** Template arguments; always strings. */
  arguments?: { [name: string]: string };
};

/**
 * The answer to `prompts/get`.
 *
 * @example
 * ```ts
 * const result: GetPromptResult = { messages: [{ role: 'user', content: { type: 'text', text: 'Review: let x = 1' } }] };
 * ```
 */
export type GetPromptResult = Result & {
  description?: string;
  messages: PromptMessage[];
};

// ---------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------

/**
 * The JSON Schema of a tool's input or output. Its root is always an object; any other JSON Schema
 * keyword may appear (`additionalProperties`, `$defs`...). The dialect is 2020-12 unless `$schema`
 * says otherwise.
 *
 * mcpkit names this shape; the specification writes it inline in {@link Tool}.
 *
 * @example
 * ```ts
 * const schema: ToolJsonSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
 * ```
 */
export type ToolJsonSchema = {
  /** @since 2025-11-25 */
  $schema?: string;
  type: 'object';
  properties?: { [name: string]: JsonObject };
  required?: string[];
  [keyword: string]: unknown;
};

/**
 * Hints about a tool's behaviour. Untrusted unless the server is trusted: never base a safety
 * decision on them.
 *
 * @since 2025-03-26
 * @example
 * ```ts
 * const hints: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
 * ```
 */
export type ToolAnnotations = {
  /** Display name; `Tool.title` wins when both are set. */
  title?: string;
  /** The tool changes nothing. Default false. */
  readOnlyHint?: boolean;
  /** When not read-only: the tool may destroy or overwrite, rather than only add. Default true. */
  destructiveHint?: boolean;
  /** When not read-only: repeating a call with the same arguments changes nothing more. Default false. */
  idempotentHint?: boolean;
  /** The tool reaches entities outside a closed domain (e.g. the web). Default true. */
  openWorldHint?: boolean;
};

/**
 * How a tool may be executed.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const execution: ToolExecution = { taskSupport: 'optional' };
 * ```
 */
export type ToolExecution = {
  /** Whether calls may (`optional`) or must (`required`) run as tasks. Default `forbidden`. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
};

/**
 * A tool the server offers.
 *
 * @example
 * ```ts
 * const tool: Tool = {
 *   name: 'get_weather',
 *   title: 'Get weather',
 *   inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   outputSchema: { type: 'object', properties: { celsius: { type: 'number' } } },
 *   annotations: { readOnlyHint: true },
 * };
 * ```
 */
export type Tool = {
  name: string;
  /** Display name; wins over `annotations.title`. @since 2025-06-18 */
  title?: string;
  /** What it does, as a hint for the model. */
  description?: string;
  /** The arguments it accepts. `$schema` allowed since 2025-11-25. */
  inputSchema: ToolJsonSchema;
  /** @since 2025-11-25 */
  execution?: ToolExecution;
  /** The shape of `structuredContent` in its results. @since 2025-06-18 */
  outputSchema?: ToolJsonSchema;
  /** @since 2025-03-26 */
  annotations?: ToolAnnotations;
  /** @since 2025-11-25 */
  icons?: Icon[];
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * The answer to `tools/list`.
 *
 * @example
 * ```ts
 * const page: ListToolsResult = { tools: [tool] };
 * ```
 */
export type ListToolsResult = PaginatedResult & {
  tools: Tool[];
};

/**
 * Params of `tools/call`.
 *
 * @example
 * ```ts
 * const params: CallToolRequestParams = { name: 'get_weather', arguments: { city: 'Paris' } };
 * ```
 */
export type CallToolRequestParams = TaskAugmentedRequestParams & {
  name: string;
  arguments?: JsonObject;
};

/**
 * The outcome of a tool call. A failure of the tool itself is reported here with `isError: true`
 * (so the model can see it and adapt), not as a JSON-RPC error.
 *
 * @example
 * ```ts
 * const result: CallToolResult = {
 *   content: [{ type: 'text', text: '{"celsius":21}' }],
 *   structuredContent: { celsius: 21 },
 * };
 * ```
 */
export type CallToolResult = Result & {
  /** Unstructured output. `audio` blocks since 2025-03-26, `resource_link` since 2025-06-18. */
  content: ContentBlock[];
  /** Structured output, matching the tool's `outputSchema`. @since 2025-06-18 */
  structuredContent?: JsonObject;
  /** True when the tool failed. Default false. */
  isError?: boolean;
};

// ---------------------------------------------------------------------------------------------
// Tasks (all since 2025-11-25)
// ---------------------------------------------------------------------------------------------

/**
 * Where a task is: `working` and `input_required` are live; `completed`, `failed` and `cancelled`
 * are terminal. A tool call whose result has `isError: true` ends as `failed`.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const status: TaskStatus = 'input_required';
 * ```
 */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * The `task` param that asks for task execution.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const task: TaskMetadata = { ttl: 300_000 };
 * ```
 */
export type TaskMetadata = {
  /** How long to keep the task after creation, in milliseconds (the receiver may change it). */
  ttl?: number;
};

/**
 * The value under {@link RELATED_TASK_META_KEY} in `_meta`.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const related: RelatedTaskMetadata = { taskId: 't-1' };
 * ```
 */
export type RelatedTaskMetadata = {
  taskId: string;
};

/**
 * The state of a task.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const task: Task = {
 *   taskId: 't-1',
 *   status: 'working',
 *   createdAt: '2025-11-25T10:00:00Z',
 *   lastUpdatedAt: '2025-11-25T10:00:05Z',
 *   ttl: 300_000,
 *   pollInterval: 1_000,
 * };
 * ```
 */
export type Task = {
  taskId: string;
  status: TaskStatus;
  /** Context for the status, e.g. why it failed or was cancelled. */
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Retention from creation in milliseconds; `null` means unlimited. */
  ttl: number | null;
  /** Suggested milliseconds between `tasks/get` polls. */
  pollInterval?: number;
};

/**
 * The immediate answer to a request sent with a `task` param.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const created: CreateTaskResult = { task };
 * ```
 */
export type CreateTaskResult = Result & {
  _meta?: Meta & {
    /** Interim text a host may give the model while the task runs. */
    'io.modelcontextprotocol/model-immediate-response'?: string;
  };
  task: Task;
};

/**
 * Params of `tasks/get`.
 *
 * mcpkit names this shape; the specification writes it inline.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: GetTaskRequestParams = { taskId: 't-1' };
 * ```
 */
export type GetTaskRequestParams = RequestParams & {
  taskId: string;
};

/**
 * The answer to `tasks/get`: the task's current state.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const result: GetTaskResult = { ...task };
 * ```
 */
export type GetTaskResult = Result & Task;

/**
 * Params of `tasks/result`.
 *
 * mcpkit names this shape; the specification writes it inline.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: GetTaskPayloadRequestParams = { taskId: 't-1' };
 * ```
 */
export type GetTaskPayloadRequestParams = RequestParams & {
  taskId: string;
};

/**
 * The answer to `tasks/result`: the result the original request would have had (a
 * {@link CallToolResult} for a `tools/call` task, and so on).
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const payload: GetTaskPayloadResult = { content: [{ type: 'text', text: 'done' }] };
 * ```
 */
export type GetTaskPayloadResult = Result;

/**
 * Params of `tasks/cancel`.
 *
 * mcpkit names this shape; the specification writes it inline.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: CancelTaskRequestParams = { taskId: 't-1' };
 * ```
 */
export type CancelTaskRequestParams = RequestParams & {
  taskId: string;
};

/**
 * The answer to `tasks/cancel`: the task's state after cancelling.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const result: CancelTaskResult = { ...task, status: 'cancelled' };
 * ```
 */
export type CancelTaskResult = Result & Task;

/**
 * The answer to `tasks/list`.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const page: ListTasksResult = { tasks: [task] };
 * ```
 */
export type ListTasksResult = PaginatedResult & {
  tasks: Task[];
};

/**
 * Params of `notifications/tasks/status`: the task's new state.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: TaskStatusNotificationParams = { ...task, status: 'completed' };
 * ```
 */
export type TaskStatusNotificationParams = NotificationParams & Task;

// ---------------------------------------------------------------------------------------------
// Logging
// ---------------------------------------------------------------------------------------------

/**
 * A log severity (RFC 5424 names). {@link LOGGING_LEVELS} lists them in order.
 *
 * @example
 * ```ts
 * const level: LoggingLevel = 'warning';
 * ```
 */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/**
 * Params of `logging/setLevel`.
 *
 * @example
 * ```ts
 * const params: SetLevelRequestParams = { level: 'info' };
 * ```
 */
export type SetLevelRequestParams = RequestParams & {
  /** The least severe level the client wants to receive. */
  level: LoggingLevel;
};

/**
 * Params of `notifications/message`, one log entry.
 *
 * @example
 * ```ts
 * const params: LoggingMessageNotificationParams = { level: 'error', logger: 'db', data: { error: 'timeout' } };
 * ```
 */
export type LoggingMessageNotificationParams = NotificationParams & {
  level: LoggingLevel;
  /** Which component logged it. */
  logger?: string;
  /** Any JSON value. */
  data: unknown;
};

// ---------------------------------------------------------------------------------------------
// Sampling
// ---------------------------------------------------------------------------------------------

/**
 * A block of content in a sampling message.
 *
 * Members by revision: text and image since 2024-11-05; `audio` since 2025-03-26; `tool_use` and
 * `tool_result` since 2025-11-25 (when the union got this name).
 *
 * @example
 * ```ts
 * const block: SamplingMessageContentBlock = { type: 'text', text: 'Hello' };
 * ```
 */
export type SamplingMessageContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;

/**
 * One message of a sampling conversation.
 *
 * @example
 * ```ts
 * const message: SamplingMessage = { role: 'user', content: { type: 'text', text: 'What is the weather in Paris?' } };
 * ```
 */
export type SamplingMessage = {
  role: Role;
  /** One block, or several. Arrays since 2025-11-25. */
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** @since 2025-11-25 */
  _meta?: Meta;
};

/**
 * A hint for choosing a model.
 *
 * @example
 * ```ts
 * const hint: ModelHint = { name: 'sonnet' };
 * ```
 */
export type ModelHint = {
  /** A substring of a model name, or a name the client may map to a similar model. */
  name?: string;
};

/**
 * Advisory preferences for the client's model choice. Priorities run from 0 (unimportant) to 1.
 *
 * @example
 * ```ts
 * const prefs: ModelPreferences = { hints: [{ name: 'haiku' }], speedPriority: 0.8, costPriority: 0.5 };
 * ```
 */
export type ModelPreferences = {
  /** Tried in order; they take precedence over the numeric priorities. */
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

/**
 * How the model may use the request's tools.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const choice: ToolChoice = { mode: 'required' };
 * ```
 */
export type ToolChoice = {
  /** `auto` (default): the model decides; `required`: it must call a tool; `none`: it must not. */
  mode?: 'auto' | 'required' | 'none';
};

/**
 * Params of `sampling/createMessage`.
 *
 * @example
 * ```ts
 * const params: CreateMessageRequestParams = {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }],
 *   maxTokens: 500,
 *   tools: [tool],
 *   toolChoice: { mode: 'auto' },
 * };
 * ```
 */
export type CreateMessageRequestParams = TaskAugmentedRequestParams & {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  /** The client may change or drop it. */
  systemPrompt?: string;
  /**
   * Context from MCP servers to add to the prompt; the client may ignore it. Default `none`.
   * `thisServer` and `allServers` are soft-deprecated since 2025-11-25 and should only be sent to
   * clients that declare `sampling.context`.
   */
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  /** Upper bound; the client may sample fewer. */
  maxTokens: number;
  stopSequences?: string[];
  /** Provider-specific pass-through. */
  metadata?: JsonObject;
  /** Tools the model may call; needs the client's `sampling.tools` capability. @since 2025-11-25 */
  tools?: Tool[];
  /** Needs the client's `sampling.tools` capability. @since 2025-11-25 */
  toolChoice?: ToolChoice;
};

/**
 * The client's answer to `sampling/createMessage`: the sampled message plus the model used.
 *
 * @example
 * ```ts
 * const result: CreateMessageResult = {
 *   role: 'assistant',
 *   content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }],
 *   model: 'claude-sonnet-4',
 *   stopReason: 'toolUse',
 * };
 * ```
 */
export type CreateMessageResult = Result & {
  role: Role;
  /** One block, or several. Arrays since 2025-11-25. */
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** The model that produced the message. */
  model: string;
  /** Why generation stopped; providers may add their own reasons. `toolUse` since 2025-11-25. */
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});
};

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

/**
 * Names the prompt whose argument is being completed.
 *
 * @example
 * ```ts
 * const ref: PromptReference = { type: 'ref/prompt', name: 'review' };
 * ```
 */
export type PromptReference = {
  type: 'ref/prompt';
  name: string;
  /** @since 2025-06-18 */
  title?: string;
};

/**
 * Names the resource template whose variable is being completed.
 *
 * @since 2025-06-18 (under this name; 2024-11-05 and 2025-03-26 call the same shape
 * `ResourceReference`)
 * @example
 * ```ts
 * const ref: ResourceTemplateReference = { type: 'ref/resource', uri: 'weather://{city}/today' };
 * ```
 */
export type ResourceTemplateReference = {
  type: 'ref/resource';
  /** The URI or URI template. */
  uri: string;
};

/**
 * Params of `completion/complete`.
 *
 * @example
 * ```ts
 * const params: CompleteRequestParams = {
 *   ref: { type: 'ref/resource', uri: 'weather://{country}/{city}' },
 *   argument: { name: 'city', value: 'Pa' },
 *   context: { arguments: { country: 'France' } },
 * };
 * ```
 */
export type CompleteRequestParams = RequestParams & {
  ref: PromptReference | ResourceTemplateReference;
  /** The argument being typed and its partial value. */
  argument: {
    name: string;
    value: string;
  };
  /** @since 2025-06-18 */
  context?: {
    /** Arguments already resolved, by name. */
    arguments?: { [name: string]: string };
  };
};

/**
 * The answer to `completion/complete`.
 *
 * @example
 * ```ts
 * const result: CompleteResult = { completion: { values: ['Paris', 'Pau'], total: 2, hasMore: false } };
 * ```
 */
export type CompleteResult = Result & {
  completion: {
    /** At most 100 suggestions, best first. */
    values: string[];
    /** How many exist in all, possibly more than sent. */
    total?: number;
    /** More exist than were sent, even if `total` is unknown. */
    hasMore?: boolean;
  };
};

// ---------------------------------------------------------------------------------------------
// Roots
// ---------------------------------------------------------------------------------------------

/**
 * A directory or file the client lets the server work in.
 *
 * @example
 * ```ts
 * const root: Root = { uri: 'file:///home/me/project', name: 'project' };
 * ```
 */
export type Root = {
  /** A `file://` URI for now. */
  uri: string;
  name?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * The client's answer to `roots/list`.
 *
 * @example
 * ```ts
 * const result: ListRootsResult = { roots: [root] };
 * ```
 */
export type ListRootsResult = Result & {
  roots: Root[];
};

// ---------------------------------------------------------------------------------------------
// Elicitation (all since 2025-06-18 unless marked)
// ---------------------------------------------------------------------------------------------

/**
 * A text field of an elicitation form.
 *
 * @since 2025-06-18
 * @example
 * ```ts
 * const email: StringSchema = { type: 'string', format: 'email', title: 'E-mail' };
 * ```
 */
export type StringSchema = {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  /** @since 2025-11-25 */
  default?: string;
};

/**
 * A numeric field of an elicitation form.
 *
 * @since 2025-06-18
 * @example
 * ```ts
 * const age: NumberSchema = { type: 'integer', minimum: 0, maximum: 150 };
 * ```
 */
export type NumberSchema = {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  /** @since 2025-11-25 */
  default?: number;
};

/**
 * A yes/no field of an elicitation form.
 *
 * @since 2025-06-18
 * @example
 * ```ts
 * const agree: BooleanSchema = { type: 'boolean', title: 'I agree', default: false };
 * ```
 */
export type BooleanSchema = {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
};

/**
 * Pick one value; the values double as labels.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const size: UntitledSingleSelectEnumSchema = { type: 'string', enum: ['S', 'M', 'L'], default: 'M' };
 * ```
 */
export type UntitledSingleSelectEnumSchema = {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
};

/**
 * Pick one value, each with its own label.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const color: TitledSingleSelectEnumSchema = {
 *   type: 'string',
 *   oneOf: [{ const: '#f00', title: 'Red' }, { const: '#00f', title: 'Blue' }],
 * };
 * ```
 */
export type TitledSingleSelectEnumSchema = {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: { const: string; title: string }[];
  default?: string;
};

/**
 * A single-choice field, with or without labels.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const field: SingleSelectEnumSchema = { type: 'string', enum: ['yes', 'no'] };
 * ```
 */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/**
 * Pick any number of values; the values double as labels.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const tags: UntitledMultiSelectEnumSchema = { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 };
 * ```
 */
export type UntitledMultiSelectEnumSchema = {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    type: 'string';
    enum: string[];
  };
  default?: string[];
};

/**
 * Pick any number of values, each with its own label.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const days: TitledMultiSelectEnumSchema = {
 *   type: 'array',
 *   items: { anyOf: [{ const: 'mon', title: 'Monday' }, { const: 'tue', title: 'Tuesday' }] },
 * };
 * ```
 */
export type TitledMultiSelectEnumSchema = {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    anyOf: { const: string; title: string }[];
  };
  default?: string[];
};

/**
 * A multiple-choice field, with or without labels.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const field: MultiSelectEnumSchema = { type: 'array', items: { type: 'string', enum: ['x', 'y'] } };
 * ```
 */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/**
 * The 2025-06-18 enum field, labels in the non-standard `enumNames`. Prefer
 * {@link TitledSingleSelectEnumSchema}; this form is slated for removal.
 *
 * @since 2025-06-18 (named `EnumSchema` there, without `default`)
 * @example
 * ```ts
 * const legacy: LegacyTitledEnumSchema = { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'] };
 * ```
 */
export type LegacyTitledEnumSchema = {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  enumNames?: string[];
  /** @since 2025-11-25 */
  default?: string;
};

/**
 * Any enum field of an elicitation form.
 *
 * @since 2025-06-18 (only the {@link LegacyTitledEnumSchema} shape; the others since 2025-11-25)
 * @example
 * ```ts
 * const field: EnumSchema = { type: 'string', enum: ['a', 'b'] };
 * ```
 */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/**
 * One field of an elicitation form: a flat primitive, never a nested object.
 *
 * @since 2025-06-18 (multi-select arrays since 2025-11-25)
 * @example
 * ```ts
 * const field: PrimitiveSchemaDefinition = { type: 'number', minimum: 1 };
 * ```
 */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/**
 * Params of a form-mode `elicitation/create`: ask the user to fill in a flat form. Never for
 * secrets such as passwords or tokens.
 *
 * @since 2025-06-18
 * @example
 * ```ts
 * const params: ElicitRequestFormParams = {
 *   mode: 'form',
 *   message: 'Where should we ship?',
 *   requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * };
 * ```
 */
export type ElicitRequestFormParams = TaskAugmentedRequestParams & {
  /** Absent means form. @since 2025-11-25 */
  mode?: 'form';
  /** What is being asked, and why. */
  message: string;
  /** The form: top-level primitive fields only. */
  requestedSchema: {
    /** @since 2025-11-25 */
    $schema?: string;
    type: 'object';
    properties: { [name: string]: PrimitiveSchemaDefinition };
    required?: string[];
  };
};

/**
 * Params of a URL-mode `elicitation/create`: send the user to a page (sign-in, payment...) whose
 * data never passes through the client.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: ElicitRequestURLParams = {
 *   mode: 'url',
 *   message: 'Sign in to your calendar',
 *   elicitationId: 'e-7',
 *   url: 'https://example.com/oauth/start?e=e-7',
 * };
 * ```
 */
export type ElicitRequestURLParams = TaskAugmentedRequestParams & {
  mode: 'url';
  /** Why the user should go there. */
  message: string;
  /** Unique per server; opaque to the client. Echoed by `notifications/elicitation/complete`. */
  elicitationId: string;
  url: string;
};

/**
 * Params of `elicitation/create`, form or URL mode.
 *
 * @since 2025-06-18 (form only; URL mode since 2025-11-25)
 * @example
 * ```ts
 * function isUrlMode(params: ElicitRequestParams): params is ElicitRequestURLParams {
 *   return params.mode === 'url';
 * }
 * ```
 */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/**
 * The client's answer to `elicitation/create`.
 *
 * @since 2025-06-18
 * @example
 * ```ts
 * const result: ElicitResult = { action: 'accept', content: { city: 'Paris', days: ['mon', 'tue'] } };
 * ```
 */
export type ElicitResult = Result & {
  /** `accept`: submitted or confirmed; `decline`: refused; `cancel`: dismissed without a choice. */
  action: 'accept' | 'decline' | 'cancel';
  /** The form values, only for an accepted form. `string[]` values since 2025-11-25. */
  content?: { [name: string]: string | number | boolean | string[] };
};

/**
 * Params of `notifications/elicitation/complete`: a URL-mode elicitation has finished.
 *
 * mcpkit names this shape; the specification writes it inline.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * const params: ElicitationCompleteNotificationParams = { elicitationId: 'e-7' };
 * ```
 */
export type ElicitationCompleteNotificationParams = NotificationParams & {
  elicitationId: string;
};

/**
 * The `error.data` of a `-32042` (URL elicitation required) error response: the URL elicitations
 * the user must complete before the request can succeed.
 *
 * mcpkit names this shape; the specification writes it inside its envelope type
 * `URLElicitationRequiredError`.
 *
 * @since 2025-11-25
 * @example
 * ```ts
 * declare const urlParams: ElicitRequestURLParams;
 * const data: URLElicitationRequiredErrorData = { elicitations: [urlParams] };
 * ```
 */
export type URLElicitationRequiredErrorData = {
  elicitations: ElicitRequestURLParams[];
  [key: string]: unknown;
};

// ---------------------------------------------------------------------------------------------
// Method maps
// ---------------------------------------------------------------------------------------------

/**
 * Every request a client sends, by method: its params and the result it gets back. `params`
 * includes `undefined` when the request may be sent without params.
 *
 * @example
 * ```ts
 * type ToolsCall = ClientRequestMap['tools/call']; // { params: CallToolRequestParams; result: CallToolResult | CreateTaskResult }
 * ```
 */
export type ClientRequestMap = {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  ping: { params: RequestParams | undefined; result: EmptyResult };
  'tools/list': { params: PaginatedRequestParams | undefined; result: ListToolsResult };
  /** `CreateTaskResult` when the params carry `task`. */
  'tools/call': { params: CallToolRequestParams; result: CallToolResult | CreateTaskResult };
  'resources/list': { params: PaginatedRequestParams | undefined; result: ListResourcesResult };
  'resources/templates/list': {
    params: PaginatedRequestParams | undefined;
    result: ListResourceTemplatesResult;
  };
  'resources/read': { params: ReadResourceRequestParams; result: ReadResourceResult };
  'resources/subscribe': { params: SubscribeRequestParams; result: EmptyResult };
  'resources/unsubscribe': { params: UnsubscribeRequestParams; result: EmptyResult };
  'prompts/list': { params: PaginatedRequestParams | undefined; result: ListPromptsResult };
  'prompts/get': { params: GetPromptRequestParams; result: GetPromptResult };
  'completion/complete': { params: CompleteRequestParams; result: CompleteResult };
  'logging/setLevel': { params: SetLevelRequestParams; result: EmptyResult };
  /** @since 2025-11-25 */
  'tasks/get': { params: GetTaskRequestParams; result: GetTaskResult };
  /** @since 2025-11-25 */
  'tasks/result': { params: GetTaskPayloadRequestParams; result: GetTaskPayloadResult };
  /** @since 2025-11-25 */
  'tasks/list': { params: PaginatedRequestParams | undefined; result: ListTasksResult };
  /** @since 2025-11-25 */
  'tasks/cancel': { params: CancelTaskRequestParams; result: CancelTaskResult };
};

/**
 * Every request a server sends, by method: its params and the result it gets back. `params`
 * includes `undefined` when the request may be sent without params.
 *
 * @example
 * ```ts
 * type Sampling = ServerRequestMap['sampling/createMessage']['result']; // CreateMessageResult | CreateTaskResult
 * ```
 */
export type ServerRequestMap = {
  ping: { params: RequestParams | undefined; result: EmptyResult };
  /** `CreateTaskResult` when the params carry `task`. */
  'sampling/createMessage': {
    params: CreateMessageRequestParams;
    result: CreateMessageResult | CreateTaskResult;
  };
  /** `CreateTaskResult` when the params carry `task`. @since 2025-06-18 */
  'elicitation/create': { params: ElicitRequestParams; result: ElicitResult | CreateTaskResult };
  'roots/list': { params: RequestParams | undefined; result: ListRootsResult };
  /** @since 2025-11-25 */
  'tasks/get': { params: GetTaskRequestParams; result: GetTaskResult };
  /** @since 2025-11-25 */
  'tasks/result': { params: GetTaskPayloadRequestParams; result: GetTaskPayloadResult };
  /** @since 2025-11-25 */
  'tasks/list': { params: PaginatedRequestParams | undefined; result: ListTasksResult };
  /** @since 2025-11-25 */
  'tasks/cancel': { params: CancelTaskRequestParams; result: CancelTaskResult };
};

/**
 * Every notification a client sends, by method, to its params type (`| undefined` when params
 * may be omitted).
 *
 * @example
 * ```ts
 * type Progress = ClientNotificationMap['notifications/progress']; // ProgressNotificationParams
 * ```
 */
export type ClientNotificationMap = {
  'notifications/cancelled': CancelledNotificationParams;
  'notifications/progress': ProgressNotificationParams;
  'notifications/initialized': NotificationParams | undefined;
  'notifications/roots/list_changed': NotificationParams | undefined;
  /** @since 2025-11-25 */
  'notifications/tasks/status': TaskStatusNotificationParams;
};

/**
 * Every notification a server sends, by method, to its params type (`| undefined` when params
 * may be omitted).
 *
 * @example
 * ```ts
 * type Log = ServerNotificationMap['notifications/message']; // LoggingMessageNotificationParams
 * ```
 */
export type ServerNotificationMap = {
  'notifications/cancelled': CancelledNotificationParams;
  'notifications/progress': ProgressNotificationParams;
  'notifications/message': LoggingMessageNotificationParams;
  'notifications/resources/updated': ResourceUpdatedNotificationParams;
  'notifications/resources/list_changed': NotificationParams | undefined;
  'notifications/tools/list_changed': NotificationParams | undefined;
  'notifications/prompts/list_changed': NotificationParams | undefined;
  /** @since 2025-11-25 */
  'notifications/elicitation/complete': ElicitationCompleteNotificationParams;
  /** @since 2025-11-25 */
  'notifications/tasks/status': TaskStatusNotificationParams;
};

/**
 * A request method a client may send.
 *
 * @example
 * ```ts
 * const method: ClientRequestMethod = 'tools/call';
 * ```
 */
export type ClientRequestMethod = keyof ClientRequestMap;

/**
 * A request method a server may send.
 *
 * @example
 * ```ts
 * const method: ServerRequestMethod = 'roots/list';
 * ```
 */
export type ServerRequestMethod = keyof ServerRequestMap;

/**
 * A notification method a client may send.
 *
 * @example
 * ```ts
 * const method: ClientNotificationMethod = 'notifications/initialized';
 * ```
 */
export type ClientNotificationMethod = keyof ClientNotificationMap;

/**
 * A notification method a server may send.
 *
 * @example
 * ```ts
 * const method: ServerNotificationMethod = 'notifications/message';
 * ```
 */
export type ServerNotificationMethod = keyof ServerNotificationMap;

/**
 * Every request of either direction. Methods both sides send (`ping`, `tasks/*`) have the same
 * params and result either way, so one entry serves both.
 *
 * @example
 * ```ts
 * type Roots = RequestMap['roots/list']['result']; // ListRootsResult
 * ```
 */
export type RequestMap = {
  [M in ClientRequestMethod | ServerRequestMethod]: M extends ClientRequestMethod
    ? ClientRequestMap[M]
    : M extends ServerRequestMethod
      ? ServerRequestMap[M]
      : never;
};

/**
 * Every notification of either direction, by method, to its params type.
 *
 * @example
 * ```ts
 * type Updated = NotificationMap['notifications/resources/updated']; // ResourceUpdatedNotificationParams
 * ```
 */
export type NotificationMap = {
  [M in ClientNotificationMethod | ServerNotificationMethod]: M extends ClientNotificationMethod
    ? ClientNotificationMap[M]
    : M extends ServerNotificationMethod
      ? ServerNotificationMap[M]
      : never;
};

/**
 * Any request method of either direction.
 *
 * @example
 * ```ts
 * const method: RequestMethod = 'sampling/createMessage';
 * ```
 */
export type RequestMethod = keyof RequestMap;

/**
 * Any notification method of either direction.
 *
 * @example
 * ```ts
 * const method: NotificationMethod = 'notifications/progress';
 * ```
 */
export type NotificationMethod = keyof NotificationMap;

/**
 * The params type of request method `M` (includes `undefined` when params may be omitted).
 *
 * @example
 * ```ts
 * const params: RequestParamsOf<'tools/call'> = { name: 'get_weather', arguments: { city: 'Paris' } };
 * ```
 */
export type RequestParamsOf<M extends RequestMethod> = RequestMap[M]['params'];

/**
 * The result type of request method `M`.
 *
 * @example
 * ```ts
 * const tools = (result: RequestResultOf<'tools/list'>) => result.tools.map((tool) => tool.name);
 * ```
 */
export type RequestResultOf<M extends RequestMethod> = RequestMap[M]['result'];

/**
 * The params type of notification method `M` (includes `undefined` when params may be omitted).
 *
 * @example
 * ```ts
 * const params: NotificationParamsOf<'notifications/message'> = { level: 'info', data: 'ready' };
 * ```
 */
export type NotificationParamsOf<M extends NotificationMethod> = NotificationMap[M];

/**
 * Any result a client sends (an answer to a server request).
 *
 * @example
 * ```ts
 * const answer: ClientResult = { roots: [] };
 * ```
 */
export type ClientResult = ServerRequestMap[ServerRequestMethod]['result'];

/**
 * Any result a server sends (an answer to a client request).
 *
 * @example
 * ```ts
 * const answer: ServerResult = { tools: [] };
 * ```
 */
export type ServerResult = ClientRequestMap[ClientRequestMethod]['result'];

/**
 * `M` when it is not one of the `Known` method names (an extension method such as
 * `com.example/search`), `never` when it is one, and `string` for a plain `string`. The untyped
 * overloads of the low-level APIs take `ExtensionMethod<M, Known>`, so a known method always goes
 * through its typed overload and a wrong params or result shape is a compile error.
 *
 * @example
 * ```ts
 * type A = ExtensionMethod<'com.example/search', ClientRequestMethod>; // 'com.example/search'
 * type B = ExtensionMethod<'tools/call', ClientRequestMethod>; // never
 * ```
 */
export type ExtensionMethod<M extends string, Known extends string> = string extends M
  ? string
  : M extends Known
    ? never
    : M;

/**
 * A typed handler of one request method: `Entry` is the method's entry in a request map
 * (`ClientRequestMap[M]` for a server, `ServerRequestMap[M]` for a client). Absent params arrive
 * as `{}`, so the handler never sees `undefined`.
 *
 * @example
 * ```ts
 * type ListTools = MethodHandlerOf<ClientRequestMap['tools/list'], unknown>;
 * const list: ListTools = () => ({ tools: [] });
 * ```
 */
export type MethodHandlerOf<Entry extends { params: unknown; result: unknown }, Context> = (
  params: NonNullable<Entry['params']>,
  context: Context,
) => Entry['result'] | PromiseLike<Entry['result']>;

/**
 * The arguments after the method name of a typed request: params may be left out when the method
 * allows it (`Params` includes `undefined`).
 *
 * @example
 * ```ts
 * const args: MethodArgsOf<ClientRequestMap['tools/list']['params'], { timeout?: number }> = [];
 * ```
 */
export type MethodArgsOf<Params, Options> = undefined extends Params
  ? [params?: Params, options?: Options]
  : [params: Params, options?: Options];
