/**
 * The host's policy: per-server rules, consent hooks, the consent store, and audit events.
 * @module
 */
import type { RootsSource } from '@mcpkit/client';
import type {
  CancelSource,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  ModelPreferences,
  ToolAnnotations,
} from '@mcpkit/core';

/**
 * A consent answer: allow `once`, for the `session` (this host's lifetime), `always` (kept in
 * the store); `deny` this time, or `never` (kept in the store).
 *
 * @example
 * ```ts
 * const onToolCall = async (): Promise<ConsentDecision> => (await askUser()) ? 'session' : 'deny';
 * ```
 */
export type ConsentDecision = 'once' | 'session' | 'always' | 'deny' | 'never';

/**
 * Keeps `always` and `never` decisions across runs (a file, a keychain, a database). Keys are
 * opaque strings such as `tool:files:write_file` or `sampling:files`.
 *
 * @example
 * ```ts
 * const saved = new Map<string, ConsentDecision>();
 * const store: ConsentStore = { get: (key) => saved.get(key), set: (key, value) => void saved.set(key, value) };
 * ```
 */
export interface ConsentStore {
  get(key: string): ConsentDecision | undefined | Promise<ConsentDecision | undefined>;
  set(key: string, decision: ConsentDecision): void | Promise<void>;
}

/**
 * A tool call waiting for consent.
 *
 * @example
 * ```ts
 * const text = (call: ToolCallConsent) => `${call.server} wants to run ${call.tool}`;
 * ```
 */
export interface ToolCallConsent {
  /** The server that offers the tool. */
  readonly server: string;
  /** The tool's name on that server. */
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The tool's annotations: hints from the server, not guarantees. */
  readonly annotations: ToolAnnotations | undefined;
}

/**
 * A sampling request waiting for consent, before any model runs.
 *
 * @example
 * ```ts
 * const text = (request: SamplingConsent) => `${request.server} asks the model: ${request.params.messages.length} messages`;
 * ```
 */
export interface SamplingConsent {
  readonly server: string;
  readonly params: CreateMessageRequestParams;
}

/**
 * The host's one model: runs a sampling request that policy has already shaped.
 *
 * @example
 * ```ts
 * const model: ModelCallback = async ({ model, params }) => ({ role: 'assistant', model, content: { type: 'text', text: await llm(model, params) } });
 * ```
 */
export type ModelCallback = (request: {
  readonly server: string;
  /** The model chosen from the host's models by the server's preferences and policy. */
  readonly model: string;
  readonly params: CreateMessageRequestParams;
  readonly signal: AbortSignal;
  /**
   * What the call this request is about was made on behalf of (the `cancelledBy` the host's call
   * was given), when the transport tells (Streamable HTTP); see `ClientRequestContext.onBehalfOf`.
   */
  readonly onBehalfOf?: CancelSource | undefined;
}) => CreateMessageResult | Promise<CreateMessageResult>;

/**
 * Picks the host model for one sampling request from the models this server may use (the host's
 * `models`, best first, narrowed by its `sampling.models` policy). A name outside `models`, or
 * `undefined`, refuses the request.
 *
 * @example
 * ```ts
 * // Cheap requests to the small model, the rest to the first allowed.
 * const choose: ModelChooser = ({ preferences, models }) =>
 *   (preferences?.costPriority ?? 0) > 0.5 ? (models.find((m) => m.includes('mini')) ?? models[0]) : models[0];
 * ```
 */
export type ModelChooser = (request: {
  readonly server: string;
  readonly preferences: ModelPreferences | undefined;
  readonly models: readonly string[];
}) => string | undefined;

/**
 * An elicitation, labelled with the server that asks: show the server's name with the form.
 *
 * @example
 * ```ts
 * const elicit: ElicitationHook = async ({ server, params }) => showForm(`${server} asks`, params);
 * ```
 */
export type ElicitationHook = (request: {
  readonly server: string;
  readonly mode: 'form' | 'url';
  readonly params: ElicitRequestFormParams | ElicitRequestURLParams;
  readonly signal: AbortSignal;
  /** What the call this request is about was made on behalf of, when known (see `ModelCallback`). */
  readonly onBehalfOf?: CancelSource | undefined;
}) => ElicitResult | Promise<ElicitResult>;

/**
 * The consent and UI hooks of a host. A missing hook means nobody can be asked: tool calls that
 * need consent are refused, sampling is refused, elicitation is not offered.
 *
 * @example
 * ```ts
 * const hooks: HostHooks = { toolCall: async ({ server, tool }) => (confirm(`${server}: ${tool}?`) ? 'once' : 'deny') };
 * ```
 */
export interface HostHooks {
  toolCall?: (request: ToolCallConsent) => ConsentDecision | Promise<ConsentDecision>;
  sampling?: (request: SamplingConsent) => ConsentDecision | Promise<ConsentDecision>;
  elicitation?: ElicitationHook;
}

/**
 * How a server may sample the host's model.
 *
 * @example
 * ```ts
 * const sampling: SamplingPolicy = { models: ['small-model'], maxTokens: 1000, perMinute: 10 };
 * ```
 */
export interface SamplingPolicy {
  /** The host models this server may use; default all of the host's `models`. */
  models?: readonly string[];
  /** The most tokens one request may ask for; a larger `maxTokens` is lowered to this. */
  maxTokens?: number;
  /** The widest `includeContext` honoured; wider requests are reduced. Default `none`. */
  includeContext?: 'none' | 'thisServer' | 'allServers';
  /** Requests allowed per minute; past it a request is refused. Default 20. */
  perMinute?: number;
}

/**
 * Allow and deny lists of `*` patterns for one kind of item (prompt names, resource URIs and
 * templates' `uriTemplate`): an item not allowed, or denied, is neither listed nor reachable.
 *
 * @example
 * ```ts
 * const filter: ItemFilter = { allow: ['file:///work/*'], deny: ['file:///work/.env*'] };
 * ```
 */
export interface ItemFilter {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/**
 * How the host presents one tool of a server: a new name (routed back to the server's own), a
 * title or description of its own, annotations laid over the server's (consent and `readOnly`
 * then go by them: the host's word about a tool outranks the server's).
 *
 * @example
 * ```ts
 * const override: ToolOverride = { name: 'search_docs', annotations: { readOnlyHint: true, openWorldHint: false } };
 * ```
 */
export interface ToolOverride {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: ToolAnnotations;
}

/**
 * The rules for one server.
 *
 * @example
 * ```ts
 * const policy: ServerPolicy = { deny: ['delete_*'], readOnly: true, roots: [{ uri: 'file:///work/a' }] };
 * ```
 */
export interface ServerPolicy {
  /** Tool patterns (`*` wildcards) offered; default all. */
  allow?: readonly string[];
  /** Tool patterns never offered nor callable; wins over `allow`. */
  deny?: readonly string[];
  /** Offer only tools annotated `readOnlyHint: true`. */
  readOnly?: boolean;
  /** Trusted servers' tools run without consent, whatever their annotations. */
  trusted?: boolean;
  /** Tool patterns that run without consent (Cline's `autoApprove` is added to these). */
  autoApprove?: readonly string[];
  /** The roots this server sees (and only this server): a list, or a function asked on each `roots/list`. */
  roots?: RootsSource;
  sampling?: SamplingPolicy;
  /** Per tool, by the server's name for it: a rename, title, description or annotations. */
  tools?: Readonly<Record<string, ToolOverride>>;
  /** Which prompts are listed and reachable, by name. Default: all. */
  prompts?: ItemFilter;
  /** Which resources are listed and readable, by URI (templates by their `uriTemplate`). Default: all. */
  resources?: ItemFilter;
  /** The prefix of this server's namespaced names; default its key. */
  prefix?: string;
}

/**
 * One audited operation: a call, read, prompt, completion, sampling or elicitation.
 *
 * @example
 * ```ts
 * const host = new McpHost({ servers, audit: (event) => log.info(JSON.stringify(event)) });
 * ```
 */
export interface AuditEvent {
  /** ISO 8601 time the operation started. */
  readonly time: string;
  readonly server: string;
  readonly operation:
    | 'tools/call'
    | 'resources/read'
    | 'prompts/get'
    | 'completion/complete'
    | 'sampling/createMessage'
    | 'elicitation/create';
  /** The tool, URI or prompt (as the server knows it); the model, for sampling. */
  readonly item: string;
  readonly decision: 'allowed' | 'denied';
  /** `ok`, `isError` (a tool reported failure), `error` (the request failed) or `denied`. */
  readonly outcome: 'ok' | 'isError' | 'error' | 'denied';
  readonly durationMs: number;
  /** Why it was denied or failed. */
  readonly reason?: string;
  /** `'[redacted]'`, `sha256:HEX` or the arguments themselves, as the host's `auditArguments` says. */
  readonly arguments?: unknown;
  /** The downstream session the operation served, when a gateway knows it (its session key). */
  readonly session?: string;
}

/**
 * What an audit sink is told beside the {@link AuditEvent}, for finding whom an operation served.
 *
 * @example
 * ```ts
 * declare const callers: WeakMap<CancelSource, string>;
 * const audit = (event: AuditEvent, context: AuditContext) =>
 *   console.log(event.operation, context.onBehalfOf && callers.get(context.onBehalfOf));
 * ```
 */
export interface AuditContext {
  /**
   * What the operation was made on behalf of: the `cancelledBy` a call, read, prompt or
   * completion was sent with, or the `onBehalfOf` of a server's sampling or elicitation request
   * (when its transport tells). A gateway finds the downstream caller by it.
   */
  readonly onBehalfOf?: CancelSource | undefined;
}
