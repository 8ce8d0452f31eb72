/**
 * Tasks through the gateway (2025-11-25). A downstream `tools/call` with `task` gets a task of
 * the gateway's own (ids, `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` scoped to
 * the caller, as a server's `TaskManager` scopes them, with `notifications/tasks/status`), and
 * that task follows the upstream's: a tool that supports tasks upstream runs there as a task too,
 * its statuses (`working`, `input_required`, `cancelled`, with their messages) are copied onto
 * the gateway's task, its result or error becomes the gateway task's outcome, and cancelling the
 * gateway's task cancels the upstream one. A tool without task support upstream is called plainly
 * inside the gateway's task.
 *
 * Why a task of the gateway's own rather than the upstream's id passed through: two upstreams
 * may issue the same id, a shared upstream connection would let every session list every task,
 * and the upstream's task is bound to the gateway's connection, not to the downstream caller.
 * @module
 */
import {
  type CallToolResult,
  type CreateTaskResult,
  ErrorCode,
  McpError,
  Method,
  type ServerCapabilities,
  type Task,
  type TaskMetadata,
  type Tool,
} from '@mcpkit/core';
import { declaresTasksExtension } from '@mcpkit/core/internal';
import type { RequestContext, Server } from '@mcpkit/server';
import { TaskManager, type TaskManagerOptions } from '@mcpkit/server/tasks';
import type { McpHost } from '../host.js';
import type { HostCallOptions } from '../toolCall.js';

/**
 * A tool as the gateway offers it for tasks: a tool the upstream runs as a task (`optional` or
 * `required`) is `optional` at the gateway, which also answers a plain call of it by waiting for
 * the upstream task; any other tool is offered without `execution`.
 *
 * @example
 * ```ts
 * gatewayExecution({ taskSupport: 'required' }); // { taskSupport: 'optional' }
 * ```
 */
export function gatewayExecution(execution: Tool['execution']): Tool['execution'] | undefined {
  const support = execution?.taskSupport;
  return support === 'optional' || support === 'required'
    ? { ...execution, taskSupport: 'optional' }
    : undefined;
}

/**
 * The gateway's task side: a `TaskManager` on the gateway's server, and task-augmented calls.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const tasks = new GatewayTasks();
 * tasks.install(server);
 * ```
 */
export class GatewayTasks {
  private readonly manager: TaskManager;
  private readonly taskTools = new WeakMap<McpHost, ReadonlyMap<string, Tool>>();
  private readonly watched = new WeakSet<McpHost>();

  constructor(options: TaskManagerOptions = {}) {
    this.manager = new TaskManager(options);
  }

  /** The `tasks` capability the gateway declares. */
  get capabilities(): ServerCapabilities {
    return this.manager.capabilities;
  }

  /** Installs `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on the gateway's server. */
  install(server: Server): void {
    this.manager.install(server);
  }

  /**
   * Whether a 2026-07-28 request may be answered with a task (it declared the tasks extension,
   * `io.modelcontextprotocol/tasks`): the server decides, by the tool's `execution`.
   */
  offered(ctx: RequestContext): boolean {
    return ctx.modern !== undefined && declaresTasksExtension(ctx.scope.clientCapabilities);
  }

  /**
   * The tools `host` offers with task support at the gateway, by catalogue name: at once when
   * known (a 2026 call's per-call check), else once the catalogue is listed; forgotten when the
   * host's tools change.
   */
  taskToolsOf(host: McpHost): ReadonlyMap<string, Tool> | Promise<ReadonlyMap<string, Tool>> {
    const known = this.taskTools.get(host);
    if (known) return known;
    if (!this.watched.has(host)) {
      this.watched.add(host);
      host.onListChanged(({ kind }) => {
        if (kind === 'tools') this.taskTools.delete(host);
      });
    }
    return host.tools().then((tools) => {
      const offered = new Map<string, Tool>();
      for (const tool of tools) if (gatewayExecution(tool.execution)) offered.set(tool.name, tool);
      this.taskTools.set(host, offered);
      return offered;
    });
  }

  /** The task a `tools/call` asks for, if it asks for one on a revision that has tasks. */
  requested(params: Record<string, unknown>, ctx: RequestContext): TaskMetadata | undefined {
    return this.manager.requested(params, ctx);
  }

  /**
   * Answers a task-augmented call with a task of the gateway's own that runs `call`, following
   * the upstream's task when there is one.
   *
   * @throws {McpError} `-32601` when the tool does not support tasks at the gateway.
   */
  async run(
    ctx: RequestContext,
    params: Record<string, unknown>,
    task: TaskMetadata,
    tool: Tool | undefined,
    call: (ctx: RequestContext, options: HostCallOptions) => Promise<CallToolResult>,
  ): Promise<CreateTaskResult> {
    if (!gatewayExecution(tool?.execution)) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${String(params.name)}" does not support task execution: call it without "task"`,
      );
    }
    const requestor = await this.manager.requestorOf(ctx);
    const store = this.manager.store;
    return this.manager.run(
      ctx,
      { method: Method.ToolsCall, params },
      (taskCtx) => {
        const follow = (upstream: Task): void => {
          const message =
            upstream.statusMessage === undefined ? {} : { statusMessage: upstream.statusMessage };
          if (upstream.status === 'working' || upstream.status === 'input_required') {
            void store.update(taskCtx.taskId, { status: upstream.status, ...message }).catch(ignore);
          } else if (upstream.status === 'cancelled') {
            const why = upstream.statusMessage ?? 'The upstream server cancelled the task';
            void store.cancel(taskCtx.taskId, requestor, why).catch(ignore);
          }
        };
        const options = { onTaskStatus: follow, ...(task.ttl === undefined ? {} : { taskTtl: task.ttl }) };
        return call(taskCtx, options).catch((error: unknown) => {
          // Stopped by tasks/cancel, expiry or the session's end: the task's status already says
          // so and the upstream was told; the late error is nobody's to report.
          if (taskCtx.signal.aborted) throw new McpError(ErrorCode.InternalError, 'The task was stopped');
          throw error;
        });
      },
      { task },
    );
  }

  /** Aborts every running task (their upstream tasks are cancelled). */
  close(): Promise<void> {
    return this.manager.close();
  }
}

/** The task ended meanwhile (terminal tasks take no updates) or expired: nothing to copy. */
function ignore(): void {}
