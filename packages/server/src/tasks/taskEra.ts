/**
 * The seam between the tasks feature and the eras: what tasks do differently per protocol era,
 * as one object per era. 2025 revisions speak 2025-11-25 tasks (`./legacyEra.ts`); 2026-07-28
 * speaks the tasks extension `io.modelcontextprotocol/tasks` (`./extensionEra.ts`), which the
 * `TaskManager` plugs into the server's per-request era when installed. A request's context finds
 * its era's module with `ctx.eraPart(TASKS_PART)`; nothing in the shared task code asks which era
 * a request is of.
 * @module
 */
import type { CreateTaskResult, RequestId, Task, TaskMetadata, TaskRequestor, Tool } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import type { ExtensionHost } from './extension.js';
import type { TaskInputs } from './taskInputs.js';

/** The key under which the tasks feature plugs its per-era module into an era (`Era.plug`). */
export const TASKS_PART: unique symbol = Symbol('mcpkit.tasks');

/**
 * One era's task behaviour: its wire for `tasks/get` and `tasks/cancel`, when a call becomes a
 * task, and how a created task is bound, answered and asked through.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * const era: TaskEra = ctx.eraPart<TaskEra>(TASKS_PART) ?? LEGACY_TASKS;
 * ```
 */
export interface TaskEra {
  /** Answers `tasks/get`. */
  getTask(host: ExtensionHost, params: Record<string, unknown>, context: RequestContext): Promise<unknown>;
  /** Answers `tasks/cancel`. */
  cancelTask(host: ExtensionHost, params: Record<string, unknown>, context: RequestContext): Promise<unknown>;
  /** The task a request asks for in its params (2025), or `undefined`. */
  requested(params: Record<string, unknown>, context: RequestContext): TaskMetadata | undefined;
  /** Whether a `tools/call` of `tool` goes to the task engine. */
  wantsTask(tool: Tool, params: Record<string, unknown>, context: RequestContext): boolean;
  /** The task a `tools/call` of `tool` runs as, or `undefined` to run it plainly (throws when refused). */
  toolTask(tool: Tool, params: Record<string, unknown>, context: RequestContext): TaskMetadata | undefined;
  /** Checks made before any task is created for `method` (throws when the era cannot make one). */
  beforeRun(context: RequestContext, method: string): void;
  /** The requestor key of a request without auth or `identify`. */
  unboundRequestor(context: RequestContext): TaskRequestor;
  /** The request whose cancellation cancels the task after its answer went out, if any. */
  createdBy(context: RequestContext): RequestId | undefined;
  /** Where the task's questions to the client wait, when the era asks them in `tasks/get` answers. */
  questions(setInputRequired: (waiting: boolean) => Promise<void>): TaskInputs | undefined;
  /** How a tool's `isError` result ends its task: a failure message, or `undefined` (completed). */
  readonly toolFailure: ((result: Record<string, unknown>) => string | undefined) | undefined;
  /** The answer to the request that created `task`. */
  created(task: Task): CreateTaskResult;
}
