/**
 * Typed hooks for what users wrap most, each a factory of an ordinary {@link ServerMiddleware}:
 * `tools/call`, `resources/read`, `prompts/get`, the list methods, `initialize`, notifications,
 * and per-session tool visibility.
 * @module
 */
import {
  type CallToolResult,
  type ClientRequestMap,
  type CreateTaskResult,
  type GetPromptResult,
  type ListToolsResult,
  Method,
  type ReadResourceResult,
} from '@mcpkit/core';
import { unknownToolError } from '../tools/toolsFeature.js';
import {
  type ServerMethodContext,
  type ServerMiddleware,
  type ServerMiddlewareContext,
  TOOL_VISIBILITY,
} from './context.js';
import { onMethod } from './method.js';

type Awaitable<T> = T | PromiseLike<T>;

/** One `tools/call` as a hook sees it; assign `name` or `arguments` before `next()` to change the call. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  readonly ctx: ServerMethodContext<'tools/call'>;
}

/**
 * A hook around `tools/call`, with the tool's name and arguments. On an `McpServer` it runs after
 * routing and argument validation (an unknown tool or invalid arguments are answered before it), so
 * `call.arguments` are the validated ones; changing them has them validated again. On a low-level
 * `Server` it runs for calls whose `name` is a string and whose `arguments` are an object or
 * absent; anything else goes on to the handler.
 *
 * @example
 * ```ts
 * server.use(onCallTool(async (call, next) => {
 *   if (call.name === 'delete_all' && !call.ctx.authInfo?.scopes?.includes('admin')) {
 *     throw new McpError(ErrorCode.InvalidRequest, 'Needs the admin scope');
 *   }
 *   return next();
 * }));
 * ```
 */
export function onCallTool(
  hook: (
    call: ToolCall,
    next: () => Promise<CallToolResult | CreateTaskResult>,
  ) => Awaitable<CallToolResult | CreateTaskResult>,
): ServerMiddleware {
  return onMethod(Method.ToolsCall, (ctx, next) => {
    const params = ctx.params;
    const args = params.arguments ?? {};
    if (typeof params.name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) {
      return next();
    }
    const call: ToolCall = { name: params.name, arguments: args, ctx };
    return hook(call, () => {
      if (call.name !== params.name || call.arguments !== args) {
        ctx.params = { ...params, name: call.name, arguments: call.arguments };
      }
      return next();
    });
  });
}

/**
 * A hook around `resources/read`, with the URI (a string; anything else goes on to be refused).
 *
 * @example
 * ```ts
 * server.use(onReadResource((uri, ctx, next) => (uri.startsWith('secret://') && !ctx.authInfo ? Promise.reject(new McpError(ErrorCode.InvalidParams, 'Not found')) : next())));
 * ```
 */
export function onReadResource(
  hook: (
    uri: string,
    ctx: ServerMethodContext<'resources/read'>,
    next: () => Promise<ReadResourceResult>,
  ) => Awaitable<ReadResourceResult>,
): ServerMiddleware {
  return onMethod(Method.ResourcesRead, (ctx, next) =>
    typeof ctx.params.uri === 'string' ? hook(ctx.params.uri, ctx, next) : next(),
  );
}

/**
 * A hook around `prompts/get`, with the prompt's name and arguments.
 *
 * @example
 * ```ts
 * const counts = new Map<string, number>();
 * server.use(onGetPrompt((name, _args, _ctx, next) => { counts.set(name, (counts.get(name) ?? 0) + 1); return next(); }));
 * ```
 */
export function onGetPrompt(
  hook: (
    name: string,
    args: Record<string, string> | undefined,
    ctx: ServerMethodContext<'prompts/get'>,
    next: () => Promise<GetPromptResult>,
  ) => Awaitable<GetPromptResult>,
): ServerMiddleware {
  return onMethod(Method.PromptsGet, (ctx, next) =>
    typeof ctx.params.name === 'string' ? hook(ctx.params.name, ctx.params.arguments, ctx, next) : next(),
  );
}

/** The list methods, with their result types. */
export type ListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

const LIST_METHODS: ReadonlySet<string> = new Set<ListMethod>([
  Method.ToolsList,
  Method.ResourcesList,
  Method.ResourcesTemplatesList,
  Method.PromptsList,
] as ListMethod[]);

/**
 * A hook around the list methods (`tools/list`, `resources/list`, `resources/templates/list`,
 * `prompts/list`); `ctx.method` says which. Filtering a page may leave it shorter than the page size.
 *
 * @example
 * ```ts
 * server.use(onList(async (ctx, next) => {
 *   const page = await next();
 *   return ctx.method === 'prompts/list' ? { ...page, prompts: [] } : page;
 * }));
 * ```
 */
export function onList(
  hook: (
    ctx: ServerMiddlewareContext & { readonly method: ListMethod },
    next: () => Promise<ClientRequestMap[ListMethod]['result']>,
  ) => Awaitable<ClientRequestMap[ListMethod]['result']>,
): ServerMiddleware {
  return (ctx, next) =>
    LIST_METHODS.has(ctx.method) && !ctx.isNotification
      ? hook(ctx as ServerMiddlewareContext & { readonly method: ListMethod }, next as never)
      : next();
}

/**
 * A hook around `initialize` (params: the client's revision, capabilities and identity).
 *
 * @example
 * ```ts
 * server.use(onInitialize((ctx, next) => {
 *   if (ctx.params.clientInfo.name === 'blocked') throw new McpError(ErrorCode.InvalidRequest, 'Not served');
 *   return next();
 * }));
 * ```
 */
export function onInitialize(
  hook: (
    ctx: ServerMethodContext<'initialize'>,
    next: () => Promise<ClientRequestMap['initialize']['result']>,
  ) => Awaitable<ClientRequestMap['initialize']['result']>,
): ServerMiddleware {
  return onMethod(Method.Initialize, hook);
}

/**
 * A hook around the notifications a session receives; not calling `next()` drops one before its
 * listeners run.
 *
 * @example
 * ```ts
 * const seen: string[] = [];
 * server.use(onIncomingNotification((ctx, next) => {
 *   seen.push(ctx.method);
 *   return next();
 * }));
 * ```
 */
export function onIncomingNotification(
  hook: (ctx: ServerMiddlewareContext, next: () => Promise<unknown>) => Awaitable<unknown>,
): ServerMiddleware {
  return (ctx, next) => (ctx.isNotification ? hook(ctx, next) : next());
}

/**
 * Per-session tool visibility: `tools/list` leaves out the tools `visible` refuses, and a call to
 * one is refused exactly like a call to a tool that does not exist.
 *
 * @example
 * ```ts
 * server.use(hideTools((name, ctx) => !name.startsWith('admin_') || ctx.authInfo?.scopes?.includes('admin') === true));
 * ```
 */
export function hideTools(
  visible: (name: string, ctx: ServerMiddlewareContext) => boolean,
): ServerMiddleware {
  const middleware: ServerMiddleware = async (ctx, next) => {
    if (ctx.isNotification) return next();
    if (ctx.method === Method.ToolsCall) {
      const name = ctx.params.name;
      if (typeof name === 'string' && !visible(name, ctx)) throw unknownToolError(name);
      return next();
    }
    if (ctx.method !== Method.ToolsList) return next();
    const page = (await next()) as ListToolsResult;
    const tools = page.tools.filter((tool) => visible(tool.name, ctx));
    return tools.length === page.tools.length ? page : { ...page, tools };
  };
  // `server.use` also registers `visible` with routing: a hidden tool is refused where an unknown
  // one is, before argument validation, so not even an invalid-arguments answer reveals it.
  return Object.assign(middleware, { [TOOL_VISIBILITY]: visible });
}
