/**
 * Task support for a server (2025-11-25, experimental): the receiver side of task-augmented
 * `tools/call`, and the `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` methods.
 *
 * Binding. Every task belongs to a requestor key. When the request carries an auth context, the
 * key is derived from it (the token's `sub`, else a SHA-256 of the token, else the OAuth client
 * id), as the specification requires; otherwise it is the session. A session is a real binding on
 * stateful transports (stdio, in-memory, Streamable HTTP with session ids), so `tasks.list` is
 * advertised by default. A stateless HTTP server without auth gives every request a fresh
 * session and so cannot reach a task twice: give it auth or an `identify` function (and consider
 * `list: false`).
 *
 * Lifetime. The handler of a task keeps running after the `CreateTaskResult` was sent. It is
 * aborted only by `tasks/cancel`, by TTL expiry, or by the close of its session when the task is
 * bound to that session (nobody else could ever read it). Auth-bound tasks outlive their session,
 * so the same identity can fetch the result from a new one.
 *
 * Limits (documented, per the spec's security advice): the TTL is capped (`maxTtl`, default one
 * hour) and defaults to five minutes; the store caps tasks per requestor and in total.
 *
 * 2026-07-28. The same manager serves the tasks extension `io.modelcontextprotocol/tasks`
 * (SEP-2663, `./extension.ts`): the server decides, so a tool whose `execution.taskSupport` is
 * `optional` or `required` runs as a task whenever the request declares the extension. Without
 * auth or `identify`, such a task is bound to no one: its unguessable id is the capability, since
 * the revision has no session to bind it to.
 * @module
 */
import {
  type CreateTaskResult,
  ErrorCode,
  InMemoryTaskStore,
  type ListTasksResult,
  McpError,
  Method,
  MODEL_IMMEDIATE_RESPONSE_META_KEY,
  Notification,
  type ProgressToken,
  type ServerCapabilities,
  TASKS_EXTENSION,
  type Task,
  type TaskMetadata,
  type TaskRequest,
  type TaskRequestor,
  type TaskStore,
  type Tool,
} from '@mcpkit/core';
import {
  answerCancelTask,
  answerGetTask,
  answerListTasks,
  awaitTaskPayload,
  createTaskResult,
  declaresTasksExtension,
  receiverSettings,
  revisionHas,
  TaskRunner,
  taskIdParam,
  taskParamOf,
  tasksExtensionRequired,
} from '@mcpkit/core/internal';
import type { RequestContext } from '../context.js';
import type { Server } from '../server.js';
import type { ServerSession } from '../session.js';
import {
  extensionCancelTask,
  extensionGetTask,
  extensionUpdateTask,
  requireTasksExtension,
} from './extension.js';
import { TaskContext, type TaskRun } from './taskContext.js';
import { TaskInputs } from './taskInputs.js';

/**
 * Options of {@link TaskManager} (and of `McpServer`'s `tasks` option).
 *
 * @example
 * ```ts
 * const tasks = new TaskManager({ maxTtl: 600_000, pollInterval: 2_000, list: false });
 * const server = new McpServer(info, { tasks });
 * ```
 */
export interface TaskManagerOptions {
  /** Where tasks are kept. Default: a new {@link InMemoryTaskStore}. */
  store?: TaskStore;
  /** TTL in ms when the requestor asks for none. Default 300 000 (five minutes). */
  defaultTtl?: number;
  /** Largest TTL granted, in ms; `null` allows unlimited tasks. Default 3 600 000 (one hour). */
  maxTtl?: number | null;
  /** Smallest TTL granted, in ms, so a task outlives its own creation. Default 1 000. */
  minTtl?: number;
  /** Suggested ms between `tasks/get` polls. Default 1 000. */
  pollInterval?: number;
  /** Answer and advertise `tasks/list`. Default true (tasks are always bound to a requestor). */
  list?: boolean;
  /**
   * Names the requestor a request comes from. Default: the auth context when there is one, else
   * the session (see the module documentation).
   */
  identify?: (context: RequestContext) => TaskRequestor | Promise<TaskRequestor>;
  /**
   * Cancel a session's running tasks when it closes: `true` for all, `false` for none. Default:
   * only tasks bound to the session itself (auth-bound tasks keep running).
   */
  cancelOnSessionClose?: boolean;
}

/**
 * Options of one {@link TaskManager.run}.
 *
 * @example
 * ```ts
 * const options: TaskRunOptions = { modelImmediateResponse: 'Started; I will report back.' };
 * ```
 */
export interface TaskRunOptions {
  /**
   * Text a host may hand to the model at once as an interim tool result
   * (`_meta["io.modelcontextprotocol/model-immediate-response"]` of the `CreateTaskResult`).
   */
  modelImmediateResponse?: string;
  /**
   * Says whether a result is a failure, with the status message to show; `undefined` for success.
   * Default for `tools/call`: a result with `isError: true` fails.
   */
  failureOf?: (result: Record<string, unknown>) => string | undefined;
}

/**
 * Runs a handler as a task; its return value is the result `tasks/result` will give.
 *
 * @example
 * ```ts
 * const execute: TaskExecutor = async (taskCtx) => ({ content: [{ type: 'text', text: taskCtx.taskId }] });
 * ```
 */
export type TaskExecutor = (context: TaskContext) => unknown;

interface RunningTask extends TaskRun {
  readonly session: ServerSession;
  readonly requestor: TaskRequestor;
  readonly sessionBound: boolean;
}

const SESSION_PREFIX = 'session:';
/** The requestor of 2026-07-28 tasks without auth: no one (the task id is the capability). */
const BEARER_REQUESTOR = 'bearer:';
/** The extension's method that answers a task's open questions (not a 2025-11-25 method). */
const TASKS_UPDATE = 'tasks/update' as typeof Method.TasksGet;

/**
 * Adds task support to a {@link Server}: installs the `tasks/*` handlers and runs handlers as
 * tasks on request. Give one to `McpServer` as its `tasks` option; on a low-level server, install it
 * yourself and declare {@link TaskManager.capabilities}.
 *
 * @example
 * ```ts
 * declare function render(params: CallToolRequestParams, ctx: RequestContext | TaskContext): Promise<CallToolResult>;
 * const tasks = new TaskManager({ maxTtl: 600_000 });
 * const server = new Server(info, { capabilities: { tools: {}, ...tasks.capabilities } });
 * tasks.install(server);
 * server.setRequestHandler('tools/call', (params, ctx) => {
 *   const task = tasks.requested(params, ctx);
 *   if (task) return tasks.run(ctx, { method: 'tools/call', params }, (taskCtx) => render(params, taskCtx), { task });
 *   return render(params, ctx);
 * });
 * ```
 */
export class TaskManager {
  /** Where this manager keeps its tasks. */
  readonly store: TaskStore;
  private readonly settings: ReturnType<typeof receiverSettings>;
  /** @internal The tasks running here (read by the extension's handlers). */
  readonly runner: TaskRunner<RunningTask>;
  private server: Server | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopWatchingSessions: (() => void) | undefined;

  constructor(readonly options: TaskManagerOptions = {}) {
    this.settings = receiverSettings(options);
    this.store = this.settings.store;
    this.runner = new TaskRunner<RunningTask>(this.store, {
      // Under the extension, notifications/tasks would go through subscriptions/listen (a MAY): not sent.
      sendStatus: (run, task) =>
        run.inputs ? undefined : run.session.notify(Notification.TasksStatus, { ...task }),
      reportError: (error, run) => this.server?.reportError(error, run.session),
      abortError: (reason) => new TaskAbortedError(reason),
    });
  }

  /**
   * The `tasks` capability to declare: `tools/call` augmentation, `tasks/cancel`, and `tasks/list`
   * unless disabled.
   *
   * @example
   * ```ts
   * new Server(info, { capabilities: { tools: {}, ...tasks.capabilities } });
   * ```
   */
  get capabilities(): ServerCapabilities {
    const tasks: NonNullable<ServerCapabilities['tasks']> = { cancel: {}, requests: { tools: { call: {} } } };
    if (this.options.list !== false) tasks.list = {};
    return { tasks };
  }

  /**
   * Installs the `tasks/*` handlers on `server` and watches its sessions. Once per manager.
   *
   * @example
   * ```ts
   * tasks.install(server);
   * ```
   */
  install(server: Server): void {
    if (this.server) throw new Error('A TaskManager serves one server');
    this.server = server;
    // One handler per method for both eras: the 2026-07-28 request (ctx.modern) speaks the extension.
    // (The extension's answers are typed as 2025 results only for the handler table.)
    server.setRequestHandler(Method.TasksGet, (params, ctx) =>
      ctx.modern ? (extensionGetTask(this, params, ctx) as Promise<Task>) : this.getTask(params, ctx),
    );
    server.setRequestHandler(Method.TasksResult, (params, ctx) => this.getTaskResult(params, ctx));
    server.setRequestHandler(Method.TasksCancel, (params, ctx) =>
      ctx.modern ? (extensionCancelTask(this, params, ctx) as Promise<Task>) : this.cancelTask(params, ctx),
    );
    // Only in revisions with the extension (the method table keeps it from 2025 sessions).
    server.setRequestHandler(
      TASKS_UPDATE,
      (params, ctx) => extensionUpdateTask(this, params, ctx) as Promise<Task>,
    );
    if (this.options.list !== false)
      server.setRequestHandler(Method.TasksList, (params, ctx) => this.listTasks(params, ctx));
    this.unsubscribe = this.runner.listen();
    this.stopWatchingSessions = server.onSessionClosed((session) => this.onSessionClosed(session));
  }

  /**
   * The task the request asks for, if it asks for one and the session's revision has tasks. A
   * `task` param from a peer on an older revision is ignored, as the specification requires.
   *
   * @throws {McpError} `-32602` when `task` is not an object or its `ttl` not a number.
   * @example
   * ```ts
   * declare const params: Record<string, unknown>;
   * const task = tasks.requested(params, ctx);
   * ```
   */
  requested(params: Record<string, unknown>, context: RequestContext): TaskMetadata | undefined {
    // 2026-07-28 has tasks only as an extension with its own wire: a `task` param there is ignored
    // (SEP-2663: servers MUST ignore it); the server decides instead (see wantsTask).
    if (params.task === undefined || context.modern || !revisionHas(context.session.protocolVersion, 'tasks'))
      return undefined;
    return taskParamOf(params);
  }

  /**
   * Whether a `tools/call` of `tool` goes to the task engine: under 2025 revisions when the request
   * carries `task` (which {@link TaskManager.runToolCall} ignores before 2025-11-25); under 2026-07-28 (the tasks extension, server-directed) when the tool allows tasks
   * (`execution.taskSupport` `optional` or `required`) and the request declared the extension.
   *
   * @throws {McpError} `-32021` under 2026-07-28 for a `required` tool when the request did not
   *   declare the extension (SEP-2663: the server cannot serve it without a task).
   * @example
   * ```ts
   * declare const tool: Tool;
   * if (tasks.wantsTask(tool, params, ctx)) console.error('runs as a task');
   * ```
   */
  wantsTask(tool: Tool, params: Record<string, unknown>, context: RequestContext): boolean {
    // 2025: the request asks; runToolCall ignores a `task` from revisions before 2025-11-25.
    if (!context.modern) return params.task !== undefined;
    const support = tool.execution?.taskSupport ?? 'forbidden';
    if (support === 'forbidden') return false;
    if (declaresTasksExtension(context.scope.clientCapabilities)) return true;
    if (support === 'optional') return false;
    throw tasksExtensionRequired(
      `Tool "${tool.name}" runs only as a task: declare the client capability extensions["${TASKS_EXTENSION}"]`,
    );
  }

  /**
   * Creates a task and runs `execute` in the background as that task. Resolves with the
   * `CreateTaskResult` to answer the request with, before the handler has done anything (under
   * 2026-07-28 in the tasks extension's flat form: `resultType: "task"` and the task's fields).
   *
   * @throws {McpError} `-32600` when the store's task limits are reached.
   * @example
   * ```ts
   * declare function slowTool(args: unknown, taskCtx: TaskContext): Promise<CallToolResult>;
   * declare const params: CallToolRequestParams;
   * const answer = tasks.run(ctx, { method: 'tools/call', params }, (taskCtx) => slowTool(params.arguments, taskCtx), {
   *   task: { ttl: 60_000 },
   *   modelImmediateResponse: 'Rendering started; the result will follow.',
   * });
   * ```
   */
  async run(
    context: RequestContext,
    request: TaskRequest,
    execute: TaskExecutor,
    options: TaskRunOptions & { task?: TaskMetadata } = {},
  ): Promise<CreateTaskResult> {
    // SEP-2663: never a task to a 2026-07-28 request that did not declare the extension.
    if (context.modern) requireTasksExtension(context, request.method);
    const requestor = await this.requestorOf(context);
    const ttl = this.settings.grantTtl(options.task?.ttl);
    const task = await this.store.create(request, requestor, {
      ttl,
      pollInterval: this.settings.pollInterval,
    });
    const run = this.runFor(task, context, requestor);
    // Under the extension a tool's isError result completes the task (SEP-2663: `failed` is for
    // JSON-RPC errors only); under 2025-11-25 it fails it.
    const toolDefault = request.method === Method.ToolsCall && !context.modern ? toolFailure : undefined;
    const failureOf = options.failureOf ?? toolDefault;
    await this.runner.start(
      run,
      requestor,
      context.request.cancelled,
      () => execute(new TaskContext(context, run)),
      {
        failureOf,
      },
    );
    // Under 2026-07-28 the answer is the extension's flat CreateTaskResult (resultType "task").
    const created = (context.modern ? createTaskResult(task) : { task }) as CreateTaskResult;
    if (options.modelImmediateResponse !== undefined) {
      created._meta = { [MODEL_IMMEDIATE_RESPONSE_META_KEY]: options.modelImmediateResponse };
    }
    return created;
  }

  /**
   * Answers a `tools/call` whose params carry `task`, following the tool's `execution.taskSupport`:
   * `optional` and `required` tools run as a task (the answer is a `CreateTaskResult`); a
   * `forbidden` (or unmarked) tool is refused with `-32601`. A `task` from a session on a revision
   * before 2025-11-25 is ignored and the tool runs normally. This is what `McpServer` calls when
   * its `tasks` option is set.
   *
   * @throws {McpError} `-32601` for a tool that does not support tasks, `-32602` for a malformed
   *   `task`, `-32600` when the task limits are reached.
   * @example
   * ```ts
   * declare function runTool(params: CallToolRequestParams, ctx: RequestContext | TaskContext): Promise<CallToolResult>;
   * declare const toolDefinition: Tool;
   * server.setRequestHandler('tools/call', (params, ctx) =>
   *   params.task === undefined
   *     ? runTool(params, ctx)
   *     : tasks.runToolCall(toolDefinition, params, ctx, (taskCtx) => runTool(params, taskCtx)),
   * );
   * ```
   */
  runToolCall<R>(
    tool: Tool,
    params: Record<string, unknown>,
    context: RequestContext,
    execute: (context: RequestContext) => R,
    options: TaskRunOptions = {},
  ): R | Promise<CreateTaskResult> {
    if (context.modern) {
      if (!this.wantsTask(tool, params, context)) return execute(context);
      return this.run(context, { method: Method.ToolsCall, params }, execute, options);
    }
    const task = this.requested(params, context);
    if (!task) return execute(context);
    if ((tool.execution?.taskSupport ?? 'forbidden') === 'forbidden') {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${tool.name}" does not support task execution: call it without "task"`,
      );
    }
    return this.run(context, { method: Method.ToolsCall, params }, execute, { ...options, task });
  }

  /**
   * Stops serving: aborts every running task, unsubscribes, and closes the store if this manager
   * created it (a store passed in options is left to its owner).
   *
   * @example
   * ```ts
   * await tasks.close();
   * ```
   */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.stopWatchingSessions?.();
    this.runner.abortAll('The server is closing');
    if (this.settings.ownsStore) await this.store.close();
  }

  /**
   * The requestor key of a request (see the module documentation).
   *
   * @example
   * ```ts
   * const key = await tasks.requestorOf(ctx); // 'session:…' or 'auth:…'
   * ```
   */
  async requestorOf(context: RequestContext): Promise<TaskRequestor> {
    if (this.options.identify) return this.options.identify(context);
    const auth = context.authInfo;
    if (auth) {
      const subject = auth.extra?.sub;
      if (typeof subject === 'string') return `auth:sub:${auth.clientId ?? ''}:${subject}`;
      if (auth.token !== undefined) return `auth:token:${await sha256(auth.token)}`;
      if (auth.clientId !== undefined) return `auth:client:${auth.clientId}`;
    }
    // 2026-07-28 has no session: each request may arrive on a connection of its own.
    if (context.modern) return BEARER_REQUESTOR;
    return this.sessionKey(context.session);
  }

  // ---------------------------------------------------------------- tasks/* handlers

  private async getTask(params: Record<string, unknown>, context: RequestContext): Promise<Task> {
    this.checkRevision(Method.TasksGet, context);
    return answerGetTask(this.store, await this.requestorOf(context), params);
  }

  private async getTaskResult(
    params: Record<string, unknown>,
    context: RequestContext,
  ): Promise<Record<string, unknown>> {
    this.checkRevision(Method.TasksResult, context);
    const taskId = taskIdParam(Method.TasksResult, params);
    const requestor = await this.requestorOf(context);
    const run = this.runner.get(taskId);
    const route = run?.requestor === requestor ? run : undefined;
    route?.resultRequests.add(context.requestId);
    try {
      return await awaitTaskPayload(this.store, requestor, taskId, context.signal);
    } finally {
      route?.resultRequests.delete(context.requestId);
    }
  }

  private async listTasks(
    params: Record<string, unknown>,
    context: RequestContext,
  ): Promise<ListTasksResult> {
    this.checkRevision(Method.TasksList, context);
    return answerListTasks(this.store, await this.requestorOf(context), params);
  }

  private async cancelTask(params: Record<string, unknown>, context: RequestContext): Promise<Task> {
    this.checkRevision(Method.TasksCancel, context);
    // The store makes the task `cancelled` before this resolves; the store event aborts the handler.
    return answerCancelTask(this.store, await this.requestorOf(context), params);
  }

  private checkRevision(method: string, context: RequestContext): void {
    if (!revisionHas(context.session.protocolVersion, 'tasks')) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
  }

  // ---------------------------------------------------------------- running tasks

  private runFor(task: Task, context: RequestContext, requestor: TaskRequestor): RunningTask {
    const run: RunningTask = {
      taskId: task.taskId,
      session: context.session,
      requestor,
      sessionBound: requestor.startsWith(SESSION_PREFIX),
      controller: new AbortController(),
      progressToken: progressTokenOf(context),
      lastProgress: Number.NEGATIVE_INFINITY,
      terminal: false,
      pendingInputs: 0,
      resultRequests: new Set(),
      setInputRequired: async (waiting) => {
        if (run.terminal) return;
        await this.store.update(task.taskId, { status: waiting ? 'input_required' : 'working' });
      },
      inputs: context.modern ? new TaskInputs((waiting) => run.setInputRequired(waiting)) : undefined,
    };
    return run;
  }

  private onSessionClosed(session: ServerSession): void {
    const policy = this.options.cancelOnSessionClose;
    for (const run of this.runner.runs()) {
      // A 2026-07-28 task (run.inputs) outlives the connection its request came on: no session owns it.
      if (run.session !== session || run.inputs || policy === false) continue;
      if (policy === undefined && !run.sessionBound) continue;
      this.store.cancel(run.taskId, run.requestor, 'The session closed').catch(() => {
        // Already terminal, or gone: nothing left to stop.
      });
    }
  }

  private sessionKey(session: ServerSession): TaskRequestor {
    // Keyed by the session's stable key (its id, or one it keeps in its state), so a restored
    // session still owns its tasks.
    return `${SESSION_PREFIX}${session.key}`;
  }
}

/**
 * Why a task's signal fired: cancelled, expired, its session closed, or the server is closing.
 *
 * @example
 * ```ts
 * taskCtx.signal.addEventListener('abort', () => console.error((taskCtx.signal.reason as Error).message));
 * ```
 */
export class TaskAbortedError extends Error {
  override name = 'TaskAbortedError';
}

/** A tool result with `isError: true` fails its task; the first text block says why. */
function toolFailure(result: Record<string, unknown>): string | undefined {
  if (result.isError !== true) return undefined;
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find(
    (block): block is { type: 'text'; text: string } =>
      typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string',
  );
  return text ? text.text.slice(0, 500) : 'The tool reported an error';
}

function progressTokenOf(context: RequestContext): ProgressToken | undefined {
  const token = context.meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
