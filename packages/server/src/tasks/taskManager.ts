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
 * aborted only by `tasks/cancel`, by TTL expiry, by the close of its session when the task is
 * bound to that session (nobody else could ever read it), or when the request that created it is
 * cancelled before its answer went out (and, under 2026-07-28, by a `notifications/cancelled` for
 * that request arriving after the answer: see ./taskLifetime.ts). Auth-bound tasks outlive their
 * session, so the same identity can fetch the result from a new one.
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
  Method,
  MODEL_IMMEDIATE_RESPONSE_META_KEY,
  Notification,
  type ServerCapabilities,
  type Task,
  type TaskMetadata,
  type TaskRequest,
  type TaskRequestor,
  type TaskStore,
  type Tool,
} from '@mcpkit/core';
import { receiverSettings, TaskRunner } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import type { Server } from '../server.js';
import { extensionUpdateTask } from './extension.js';
import { EXTENSION_TASKS } from './extensionEra.js';
import { LEGACY_TASKS } from './legacyEra.js';
import { legacyListTasks, legacyTaskResult } from './legacyMethods.js';
import { requestorOf } from './requestors.js';
import { type RunningTask, runningTask } from './runningTask.js';
import { TaskContext } from './taskContext.js';
import { TASKS_PART, type TaskEra } from './taskEra.js';
import { cancelCreatedBy, cancelIfUnanswered, cancelSessionTasks } from './taskLifetime.js';
import {
  TaskAbortedError,
  type TaskExecutor,
  type TaskManagerOptions,
  type TaskRunOptions,
} from './taskOptions.js';

// Their home is ./taskOptions.ts; exported here too, as before the split.
export { TaskAbortedError, type TaskExecutor, type TaskManagerOptions, type TaskRunOptions };

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
  private stopHearingCancels: (() => void) | undefined;

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
    // The 2026-07-28 era's requests speak the tasks extension: its module, plugged into that era.
    server.era.plug(TASKS_PART, EXTENSION_TASKS);
    // One handler per method for both eras, each era's answer from its own module. (The
    // extension's answers are typed as 2025 results only for the handler table.)
    server.setRequestHandler(
      Method.TasksGet,
      (params, ctx) => eraOf(ctx).getTask(this, params, ctx) as Promise<Task>,
    );
    server.setRequestHandler(Method.TasksResult, (params, ctx) => legacyTaskResult(this, params, ctx));
    server.setRequestHandler(
      Method.TasksCancel,
      (params, ctx) => eraOf(ctx).cancelTask(this, params, ctx) as Promise<Task>,
    );
    // Only in revisions with the extension (the method table keeps it from 2025 sessions).
    server.setRequestHandler(
      TASKS_UPDATE,
      (params, ctx) => extensionUpdateTask(this, params, ctx) as Promise<Task>,
    );
    if (this.options.list !== false)
      server.setRequestHandler(Method.TasksList, (params, ctx) => legacyListTasks(this, params, ctx));
    this.unsubscribe = this.runner.listen();
    this.stopWatchingSessions = server.onSessionClosed((session) =>
      cancelSessionTasks(this.runner, this.store, this.options.cancelOnSessionClose, session),
    );
    this.stopHearingCancels = server.onNotification(Notification.Cancelled, (params, session) =>
      cancelCreatedBy(this.runner, this.store, params.requestId, session),
    );
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
    return eraOf(context).requested(params, context);
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
    return eraOf(context).wantsTask(tool, params, context);
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
    const era = eraOf(context);
    era.beforeRun(context, request.method);
    const requestor = await requestorOf(this.options, context, era);
    const ttl = this.settings.grantTtl(options.task?.ttl);
    const task = await this.store.create(request, requestor, {
      ttl,
      pollInterval: this.settings.pollInterval,
    });
    const run = runningTask(this.store, task, context, requestor, era);
    // How a tool's isError result ends the task is the era's (2025-11-25: failed; the extension: completed).
    const toolDefault = request.method === Method.ToolsCall ? era.toolFailure : undefined;
    const failureOf = options.failureOf ?? toolDefault;
    await this.runner.start(
      run,
      requestor,
      context.request.cancelled,
      () => execute(new TaskContext(context, run)),
      { failureOf },
    );
    // A request stopped before its answer went out leaves the task unknown to all (issue 16).
    cancelIfUnanswered(this.store, run, context.request);
    const created = era.created(task);
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
    const task = eraOf(context).toolTask(tool, params, context);
    if (!task) return execute(context);
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
    this.stopHearingCancels?.();
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
  requestorOf(context: RequestContext): Promise<TaskRequestor> {
    return requestorOf(this.options, context, eraOf(context));
  }
}

/** The tasks of the era that serves `context`: what that era plugged in, else 2025 tasks. */
function eraOf(context: RequestContext): TaskEra {
  return context.eraPart<TaskEra>(TASKS_PART) ?? LEGACY_TASKS;
}
