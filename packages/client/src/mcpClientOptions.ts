/**
 * The options of {@link McpClient} and the handler types they take: answers to the server's
 * sampling, elicitation and roots requests, output validation, tasks and the pagination limit.
 * @module
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  JsonSchemaValidator,
  Root,
} from '@mcpkit/core';
import { CLIENT_OPTION_KEYS, type ClientOptions } from './clientOptions.js';
import type { ClientRequestContext } from './context.js';
import type { ClientTaskOptions } from './taskReceiver.js';

/**
 * The context a client-side handler gets.
 * @deprecated Use {@link ClientRequestContext}, the same type under the name that mirrors the
 *   server's `RequestContext`.
 */
export type ServerRequestContext = ClientRequestContext;

/**
 * Answers `sampling/createMessage`: run the model, return its message.
 *
 * @example
 * ```ts
 * const sampling: SamplingHandler = async () => ({ role: 'assistant', content: { type: 'text', text: 'Hi!' }, model: 'my-model' });
 * ```
 */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: ClientRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/**
 * Answers a form-mode `elicitation/create`: ask the user, return accept/decline/cancel.
 *
 * @example
 * ```ts
 * const form: FormElicitationHandler = async () => ({ action: 'accept', content: { name: 'Ada' } });
 * ```
 */
export type FormElicitationHandler = (
  params: ElicitRequestFormParams,
  context: ClientRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/**
 * Answers a URL-mode `elicitation/create`: offer the URL to the user, report their choice.
 *
 * @example
 * ```ts
 * const url: UrlElicitationHandler = async () => ({ action: 'decline' });
 * ```
 */
export type UrlElicitationHandler = (
  params: ElicitRequestURLParams,
  context: ClientRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/**
 * The roots this client exposes, or a function that lists them when asked (given the server's
 * `roots/list` request, whose `onBehalfOf` names the call it was asked about, when known).
 *
 * @example
 * ```ts
 * const roots: RootsSource = [{ uri: 'file:///home/me/project', name: 'project' }];
 * ```
 */
export type RootsSource =
  | readonly Root[]
  | ((request?: ClientRequestContext) => readonly Root[] | Promise<readonly Root[]>);

/**
 * Options of {@link McpClient}.
 *
 * @example
 * ```ts
 * const options: McpClientOptions = { roots: [], maxPages: 16 };
 * ```
 */
export interface McpClientOptions extends ClientOptions {
  /** Answers sampling requests; implies the `sampling` capability. */
  sampling?: SamplingHandler;
  /** Declare `sampling.tools` (the handler understands `tools`/`toolChoice`). Default false. */
  samplingTools?: boolean;
  /** Declare `sampling.context` (the handler honours `includeContext`). Default false. */
  samplingContext?: boolean;
  /** Answers elicitation requests; each mode given implies its capability. */
  elicitation?: { form?: FormElicitationHandler; url?: UrlElicitationHandler };
  /** Answers `roots/list`; implies `roots: { listChanged: true }`. */
  roots?: RootsSource;
  /** Validates `structuredContent` against tools' `outputSchema`. Default: `@mcpkit/schema`'s. */
  validator?: JsonSchemaValidator;
  /** Check structured tool output against the tool's `outputSchema`. Default true. */
  validateStructuredContent?: boolean;
  /**
   * Run sampling and elicitation as tasks when the server asks (2025-11-25, experimental):
   * declares `tasks.requests.*` for the handlers given and answers `tasks/*` (see
   * {@link ClientTaskReceiver}). A handler running as a task gets a `ClientTaskContext`, whose
   * signal fires on `tasks/cancel`, TTL expiry and close. Default off: a `task` param is ignored.
   */
  tasks?: boolean | ClientTaskOptions;
  /**
   * The most pages `tools()`, `resources()`, `resourceTemplates()` and `prompts()` follow before
   * failing with a {@link PaginationError}; a repeated cursor fails at once. Default
   * {@link DEFAULT_MAX_PAGES} (64).
   */
  maxPages?: number;
}

/** Every key of {@link McpClientOptions}: the constructor refuses others, as `Client` does. */
export const MCP_CLIENT_OPTION_KEYS: Readonly<Record<keyof McpClientOptions, true>> = {
  ...CLIENT_OPTION_KEYS,
  sampling: true,
  samplingTools: true,
  samplingContext: true,
  elicitation: true,
  roots: true,
  validator: true,
  validateStructuredContent: true,
  tasks: true,
  maxPages: true,
};

/**
 * A kind of list the server can announce changes to.
 *
 * @example
 * ```ts
 * const kind: ListKind = 'tools';
 * ```
 */
export type ListKind = 'tools' | 'resources' | 'prompts';
