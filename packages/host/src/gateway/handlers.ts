/**
 * The gateway's request handlers: listings (paged when the gateway has a page size), calls,
 * reads, prompts and completions routed through the session's host, subscriptions kept per
 * session, and `logging/setLevel`.
 * @module
 */

import { visibilityOf } from '@mcpkit/apps';
import { clientSupportsApps } from '@mcpkit/apps/server';
import {
  type CallToolResult,
  type CreateTaskResult,
  ErrorCode,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
  type OutgoingRequestOptions,
  RELATED_TASK_META_KEY,
  RequestTimeoutError,
  type Tool,
} from '@mcpkit/core';
import { type RequestContext, type Server, type ServerSession, unknownToolError } from '@mcpkit/server';
import type { HostEntry } from '../catalogue/catalogue.js';
import { ServerUnavailableError, UNAVAILABLE_META } from '../errors.js';
import type { HostCallOptions } from '../toolCall.js';
import type { SessionLimiter } from './limits.js';
import type { ModernFront } from './modern.js';
import { pageOf } from './paging.js';
import type { RoundCaller } from './rounds.js';
import type { Downstream } from './router.js';
import type { RoutedHost, SessionState } from './sessionHost.js';
import { type GatewayTasks, gatewayExecution } from './tasks.js';

/** What the handlers need of the gateway. */
export interface GatewayRuntime {
  stateOf(session: ServerSession): SessionState;
  /** The session asked for `level`: pass it upstream as the gateway's mode allows. */
  levelChanged(session: ServerSession): Promise<void>;
  readonly pageSize: number | undefined;
  readonly limiter: SessionLimiter | undefined;
  /** Where 2026-07-28 requests run; `undefined` when the gateway serves them on plain sessions. */
  readonly modern: ModernFront | undefined;
  /** Task-augmented calls; `undefined` when the gateway serves no tasks. */
  readonly tasks: GatewayTasks | undefined;
  /** The upstreams' MCP Apps pass through (the host declares the extension). */
  readonly apps: boolean;
}

type ListKey = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/**
 * Installs every handler of the gateway's server.
 *
 * @example
 * ```ts
 * installHandlers(server, runtime);
 * ```
 */
export function installHandlers(server: Server, runtime: GatewayRuntime): void {
  const stateOf = (ctx: RequestContext) => runtime.stateOf(ctx.session);
  // A 2026-07-28 request has no session of its own: it runs on the 2026 front's host with a
  // caller that outlives the request's rounds. A 2025 request has none.
  const on = <T>(
    ctx: RequestContext,
    work: (state: SessionState, caller: RoundCaller | undefined) => Promise<T>,
  ) => (ctx.modern && runtime.modern ? runtime.modern.run(ctx, work) : work(stateOf(ctx), undefined));
  const list = <K extends ListKey>(key: K, method: string) =>
    server.setRequestHandler(
      method as 'tools/list',
      (params, ctx) =>
        on(ctx, async (state) => {
          const entries = (await state.host[key]()) as HostEntry<object>[];
          const wire = entries.map((entry) => strip(entry, runtime.tasks !== undefined));
          const { items, nextCursor } = pageOf(key, wire, params?.cursor, runtime.pageSize);
          return { [key]: items, ...(nextCursor ? { nextCursor } : {}) };
        }) as never,
    );
  list('tools', 'tools/list');
  list('prompts', 'prompts/list');
  list('resources', 'resources/list');
  list('resourceTemplates', 'resources/templates/list');
  const call: CallHandler = (params, ctx) => {
    // The per-call path: a 2025 session, a name the catalogue holds, no limits and no task.
    if (!ctx.modern && !runtime.limiter && !runtime.tasks?.requested(params, ctx)) {
      const state = runtime.stateOf(ctx.session);
      const route = state.host.route('tools', params.name);
      if (route) return routedCall(state, route.server, params, ctx, undefined);
    }
    return on(ctx, (state, caller) => {
      // The same per-call path for a 2026 request, on the host it was given.
      const direct = caller && !runtime.limiter ? state.host.route('tools', params.name) : undefined;
      const tasks = direct && runtime.tasks?.offered(ctx) ? runtime.tasks.taskToolsOf(state.host) : undefined;
      if (direct && (!tasks || (!(tasks instanceof Promise) && !tasks.has(params.name))))
        return routedCall(state, direct.server, params, ctx, caller);
      return callTool(state, params, ctx, runtime, caller);
    });
  };
  // With apps passed through, a client that did not declare the extension may not call a tool
  // only a view may call: refused as an unknown tool, as the tool is not in its listing either.
  server.setRequestHandler('tools/call', (runtime.apps ? appOnlyGuard(call, on) : call) as never);
  server.setRequestHandler(
    'prompts/get',
    (params, ctx) =>
      on(ctx, async (state, caller) => {
        const { host, router } = state;
        const end = router.begin(await host.serverOf('prompts', params.name), caller ?? ctx.session);
        try {
          return await host.getPrompt(params.name, params.arguments, attributed(state, ctx, caller));
        } finally {
          end();
        }
      }) as never,
  );
  server.setRequestHandler(
    'resources/read',
    (params, ctx) =>
      on(ctx, (state, caller) =>
        state.host.readResource(params.uri, attributed(state, ctx, caller)),
      ) as never,
  );
  installSubscriptions(server, stateOf);
  server.setRequestHandler(
    'completion/complete',
    (params, ctx) =>
      on(ctx, (state, caller) => state.host.complete(params, attributed(state, ctx, caller))) as never,
  );
  server.setRequestHandler('logging/setLevel', async (params, ctx) => {
    if (!(LOGGING_LEVELS as readonly string[]).includes(params.level)) {
      throw new McpError(ErrorCode.InvalidParams, `"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    ctx.session.logLevel = params.level as LoggingLevel;
    await runtime.levelChanged(ctx.session);
    return {};
  });
}

type CallParams = { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };
type CallHandler = (params: CallParams, ctx: RequestContext) => Promise<unknown>;
type OnHost = <T>(ctx: RequestContext, work: (state: SessionState) => Promise<T>) => Promise<T | object>;

/** `call`, refusing app-only tools (`_meta.ui.visibility` without `"model"`) to clients without apps. */
function appOnlyGuard(call: CallHandler, on: OnHost): CallHandler {
  return async (params, ctx) => {
    if (!clientSupportsApps(ctx.scope.clientCapabilities)) {
      const tools = await on(ctx, (state) => state.host.tools());
      const tool = Array.isArray(tools) ? tools.find((entry) => entry.name === params.name) : undefined;
      if (tool && !visibilityOf(tool).includes('model')) throw unknownToolError(params.name);
    }
    return call(params, ctx);
  };
}

function installSubscriptions(server: Server, stateOf: (ctx: RequestContext) => SessionState): void {
  server.setRequestHandler('resources/subscribe', async (params, ctx) => {
    const state = stateOf(ctx);
    if (state.subscriptions.has(params.uri)) return {};
    const session = ctx.session;
    const end = await state.host.subscribe(params.uri, (uri) => {
      if (uri === params.uri) void session.notify('notifications/resources/updated', { uri });
    });
    state.subscriptions.set(params.uri, end);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (params, ctx) => {
    const state = stateOf(ctx);
    const end = state.subscriptions.get(params.uri);
    state.subscriptions.delete(params.uri);
    await end?.();
    return {};
  });
}

/**
 * A call: rate-limited, then run as a task of the gateway's when it asks for one (see
 * `tasks.ts`), or answered plainly.
 */
async function callTool(
  state: RoutedHost,
  params: { name: string; arguments?: Record<string, unknown> },
  ctx: RequestContext,
  runtime: GatewayRuntime,
  caller: RoundCaller | undefined,
): Promise<CallToolResult | CreateTaskResult> {
  const server = await state.host.serverOf('tools', params.name);
  await runtime.limiter?.take('toolCalls', ctx.session.key, server);
  const task = runtime.tasks?.requested(params, ctx);
  if (caller && runtime.tasks?.offered(ctx))
    return modernTask(state, server, params, ctx, runtime.tasks, caller);
  if (!task) return routedCall(state, server, params, ctx, caller);
  const tool = (await state.host.tools()).find((entry) => entry.name === params.name);
  return runtime.tasks!.run(ctx, params, task, tool, async (taskCtx, options) => {
    // What the upstream asks for its task goes through the gateway's task (see router.taskOf).
    let forget: (() => void) | undefined;
    const follow = options.onTaskStatus;
    const tracked: HostCallOptions = {
      ...options,
      // The task's own cancellation (tasks/cancel, expiry), not the request that created it.
      signal: taskCtx.signal,
      onTaskStatus: (upstream) => {
        forget ??= state.router.followTask(server, upstream.taskId, asDownstream(taskCtx));
        follow?.(upstream);
      },
    };
    try {
      // On the shared connection: the upstream tags what it asks for its task (see router.askedFor).
      return await routedCall(state, server, params, taskCtx, undefined, tracked, true);
    } finally {
      forget?.();
    }
  });
}

/**
 * A 2026-07-28 call from a client that declared the tasks extension: a tool the gateway offers
 * with task support runs as a task of the gateway's (the client follows it with the extension's
 * `tasks/get`), on the request's host, which `caller` holds until the task ends; any other tool is
 * answered plainly. The upstream's questions during such a task go to the client through the task
 * (`tasks/get` shows them, `tasks/update` answers them).
 */
async function modernTask(
  state: RoutedHost,
  server: string,
  params: { name: string; arguments?: Record<string, unknown> },
  ctx: RequestContext,
  tasks: GatewayTasks,
  caller: RoundCaller,
): Promise<CallToolResult | CreateTaskResult> {
  const tool = (await tasks.taskToolsOf(state.host)).get(params.name);
  if (!tool) return routedCall(state, server, params, ctx, caller);
  return tasks.run(ctx, params, {}, tool, (taskCtx, options) => {
    const call = routedCall(state, server, params, taskCtx, caller, { ...options, signal: taskCtx.signal });
    // The upstream's questions from now on become the task's `inputRequests` (see rounds.ts).
    caller.hold(call, asDownstream(taskCtx));
    return call;
  });
}

/**
 * A call marked in flight for routing, with `ctx`'s cancellation and progress; a server that is
 * down is a tool error. Not `async`: the per-call path adds one promise here, and no closure when
 * the router counts nothing (a per-session host). On a shared host, the call of a client that
 * can be asked something runs on a lane of its own (see lanes.ts), unless `shared` says its
 * questions are attributable anyway.
 */
function routedCall(
  state: RoutedHost,
  server: string,
  params: { name: string; arguments?: Record<string, unknown> },
  ctx: RequestContext,
  caller: RoundCaller | undefined,
  options?: HostCallOptions,
  shared = false,
): Promise<CallToolResult> {
  const router = state.router;
  const downstream = caller ?? ctx.session;
  const lanes = state.lanes;
  if (lanes && !shared && lanes.wants(server, downstream))
    return laneCall(state, server, params, ctx, caller, options);
  const counted = router.enter(server, downstream);
  let call: Promise<CallToolResult>;
  try {
    const forward = options ? { ...forwarded(ctx, caller), ...options } : forwarded(ctx, caller);
    // What this server asks about the call comes on the call's own stream, naming what it was
    // made on behalf of: the router takes that to the caller (see CallRouter.askedFor).
    // The audit events of the call name its caller by the same.
    if (forward.cancelledBy && (state.attributesCalls || lanes?.attributable(server)))
      router.attribute(forward.cancelledBy, downstream);
    call = state.host.callTool(params.name, params.arguments ?? {}, forward);
  } catch (error) {
    call = Promise.reject(error);
  }
  if (!counted) return call.then(undefined, (error: unknown) => unavailable(error, server));
  return call.then(
    (result) => {
      router.leave(server, downstream);
      return result;
    },
    (error: unknown) => {
      router.leave(server, downstream);
      return unavailable(error, server);
    },
  );
}

/** {@link routedCall} on a lane of `server` leased to the caller alone. */
function laneCall(
  state: RoutedHost,
  server: string,
  params: { name: string; arguments?: Record<string, unknown> },
  ctx: RequestContext,
  caller: RoundCaller | undefined,
  options: HostCallOptions | undefined,
): Promise<CallToolResult> {
  // The name the upstream's own catalogue gives it, before the gateway's namespacing.
  const name = state.host.route('tools', params.name)?.original ?? params.name;
  const forward: HostCallOptions = options
    ? { ...forwarded(ctx, caller), ...options }
    : forwarded(ctx, caller);
  return state
    .lanes!.run(server, caller ?? ctx.session, forward.cancelledBy, (host) =>
      host.callTool(name, params.arguments ?? {}, forward),
    )
    .then(undefined, (error: unknown) => unavailable(error, server));
}

/**
 * A server that is down, as the tool error a model reads (its name and what happened, no command
 * path or stderr: `publicMessage`); an upstream call that ran out of time (its timeout, or
 * `maxTotalTimeout` however much progress came) likewise: the server by its name in the config
 * (the catalogue's namespace), and which limit; any other failure passes.
 */
function unavailable(error: unknown, server: string): CallToolResult {
  if (error instanceof RequestTimeoutError) {
    return {
      isError: true,
      content: [{ type: 'text', text: `The server "${server}" did not finish: ${error.message}` }],
    };
  }
  if (!(error instanceof ServerUnavailableError)) throw error;
  return {
    isError: true,
    content: [{ type: 'text', text: error.publicMessage }],
    // Machine-readable for a client that tells a dead server from a tool's error (the CLI: exit 3).
    _meta: { [UNAVAILABLE_META]: { server: error.server, reason: error.reason } },
  };
}

/** A gateway task's context as the router's {@link Downstream}: its requests carry the task. */
function asDownstream(ctx: RequestContext): Downstream {
  const session = ctx.session;
  return {
    get key() {
      return session.key;
    },
    get closed() {
      return session.closed;
    },
    // The request's own (a 2026 request's session is a throwaway one).
    get clientCapabilities() {
      return ctx.scope.clientCapabilities;
    },
    request: (method, params, options) => ctx.requestClient(method, untagged(params), options),
    notify: (method, params) => ctx.notify(method, params),
    log: (level, data, logger) => ctx.sendLog(level, data, logger),
  };
}

/**
 * `params` without the upstream's related-task `_meta`: the upstream's task id is not the
 * client's business (under 2025 the gateway's task id replaces it anyway).
 */
function untagged(params: object | undefined): object {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (!meta || !(RELATED_TASK_META_KEY in meta)) return params ?? {};
  const { [RELATED_TASK_META_KEY]: _upstream, ...rest } = meta;
  return { ...params, _meta: rest };
}

/**
 * The downstream request's cancellation and progress, passed to the upstream call without an
 * `AbortSignal` (reading `ctx.signal` would make an `AbortController` per call): a 2026 caller's
 * (it outlives the request's rounds, and its progress goes to the round being served), else the
 * request's own.
 */
function forwarded(ctx: RequestContext, caller: RoundCaller | undefined): OutgoingRequestOptions {
  if (caller) {
    const options: OutgoingRequestOptions = { cancelledBy: caller.cancel };
    if (ctx.meta?.progressToken !== undefined) {
      options.onProgress = (update) => caller.progress(update.progress, update.total, update.message);
    }
    return options;
  }
  const options: OutgoingRequestOptions = { cancelledBy: ctx.cancellation };
  if (ctx.meta?.progressToken !== undefined) {
    options.onProgress = (update) => void ctx.progress(update.progress, update.total, update.message);
  }
  return options;
}

/** {@link forwarded}, its `cancelledBy` attributed to the caller when the host's audit needs it. */
function attributed(
  state: RoutedHost,
  ctx: RequestContext,
  caller: RoundCaller | undefined,
): OutgoingRequestOptions {
  const options = forwarded(ctx, caller);
  if (state.attributesCalls && options.cancelledBy)
    state.router.attribute(options.cancelledBy, caller ?? ctx.session);
  return options;
}

/**
 * A catalogue entry as the wire shows it: without the host's bookkeeping. A tool's `execution`
 * is what the gateway offers (see `gatewayExecution`), or none when it serves no tasks: the host
 * then runs a tool that requires them as a task itself and answers the plain call.
 */
function strip<T extends object>(entry: HostEntry<T>, tasks: boolean): T {
  const { server: _server, original: _original, ...rest } = entry;
  const item = rest as { execution?: Tool['execution'] };
  const execution = tasks ? gatewayExecution(item.execution) : undefined;
  if (execution) item.execution = execution;
  else delete item.execution;
  return item as unknown as T;
}
