/**
 * The requestor side of tasks (2025-11-25, experimental): call a tool as a task, poll it, fetch
 * its result, list and cancel tasks, and hear `notifications/tasks/status`.
 *
 * Under 2026-07-28 the same functions speak the tasks extension `io.modelcontextprotocol/tasks`
 * (SEP-2663; `./era/tasks.ts`): tasks come back in the 2025 shape (`ttl`, `pollInterval`), the
 * result comes from `tasks/get` (no `tasks/result`), input requests are answered with
 * `tasks/update`, and `tasks/list` does not exist. There the server decides which calls become
 * tasks, so `callTool()` alone already follows any task to its result.
 *
 * These are functions over any connected {@link Client}, so they work with `McpClient` and with
 * the low-level client alike. Status notifications are optional for a server, so everything here
 * that waits polls `tasks/get` at the server's `pollInterval`; a notification only wakes the poll
 * early.
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  type CancelTaskResult,
  CapabilityError,
  type CreateTaskResult,
  ErrorCode,
  type GetTaskResult,
  type ListTasksResult,
  McpError,
  type OutgoingRequestOptions,
  type ProgressUpdate,
  type Task,
  type TaskStatusNotificationParams,
  type Tool,
} from '@mcpkit/core';
import {
  DEFAULT_TASK_RESULT_TIMEOUT,
  declaresTasksExtension,
  fromExtensionTask,
  isTask,
  missingServerCapability,
  pollTaskUntilDone,
  type TaskPollOptions,
} from '@mcpkit/core/internal';
import type { Client } from './client.js';
import { isCreatedTask, TASK_HANDLING } from './era/tasks.js';

/**
 * Options of {@link callToolAsTask}.
 *
 * @example
 * ```ts
 * const options: CallToolAsTaskOptions = { ttl: 600_000, timeout: 10_000 };
 * ```
 */
export interface CallToolAsTaskOptions extends Omit<OutgoingRequestOptions, 'onProgress'> {
  /** Requested lifetime of the task in ms; the server may grant another. */
  ttl?: number;
  /** `_meta` to send with the call. */
  meta?: Record<string, unknown>;
  /**
   * Check the tool's `execution.taskSupport` (from the cached tool list of an `McpClient`) before
   * sending, since a client must not run a tool as a task unless the tool allows it. Default true.
   */
  checkTaskSupport?: boolean;
  /**
   * Receives the task's progress for as long as the task lives, not only until the
   * `CreateTaskResult` arrives: until the task is seen terminal (by any helper of this module, or
   * through `notifications/tasks/status`), its TTL elapses, or the client closes.
   */
  onProgress?: (update: ProgressUpdate) => void;
}

/**
 * Options of {@link pollTask}.
 *
 * @example
 * ```ts
 * const options: PollTaskOptions = { signal: AbortSignal.timeout(60_000), onStatus: (task) => console.log(task.status) };
 * ```
 */
export interface PollTaskOptions extends TaskPollOptions {}

/**
 * Options of {@link callToolAndWait}.
 *
 * @example
 * ```ts
 * const options: CallToolAndWaitOptions = { ttl: 600_000, onProgress: ({ progress }) => console.log(progress) };
 * ```
 */
export interface CallToolAndWaitOptions
  extends Omit<CallToolAsTaskOptions, 'onProgress'>,
    Omit<PollTaskOptions, 'initial' | 'stopOnInputRequired' | 'signal'> {
  /** Receives the task's progress until it ends. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Longest wait for `tasks/result` while the task needs input, in ms. Default one hour. */
  resultTimeout?: number;
  /** Cancel the task with `tasks/cancel` when `signal` aborts. Default true. */
  cancelOnAbort?: boolean;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** `setTimeout` cannot wait longer than this (about 24.8 days). */
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * True for `completed`, `failed` and `cancelled`.
 *
 * @example
 * ```ts
 * const task = await getTask(client, taskId);
 * if (isTaskTerminal(task)) console.log('done:', task.status);
 * ```
 */
export function isTaskTerminal(task: Pick<Task, 'status'>): boolean {
  return TERMINAL.has(task.status);
}

/**
 * Calls a tool as a task. Resolves with the `CreateTaskResult` as soon as the server accepted the
 * task; fetch the tool's result later with {@link getTaskResult} (or use {@link callToolAndWait}).
 *
 * @throws {CapabilityError} locally when the server lacks `tasks.requests.tools.call` or the tool
 *   does not allow tasks.
 * @example
 * ```ts
 * const { task } = await callToolAsTask(client, 'render', { scene: 1 }, { ttl: 600_000 });
 * console.log(task.taskId, task.status); // '…', 'working'
 * ```
 */
export async function callToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: CallToolAsTaskOptions = {},
): Promise<CreateTaskResult> {
  const { onProgress, ...rest } = options;
  const created = await createToolTask(client, name, args, rest, onProgress);
  // Left to the watch: it ends once the task is seen terminal, expires, or the client closes.
  created.progress?.watch(created.result.task);
  return created.result;
}

/**
 * Gets a task's current state (`tasks/get`).
 *
 * @throws {McpError} `-32602` for an unknown or expired task.
 * @example
 * ```ts
 * const task = await getTask(client, taskId);
 * ```
 */
export function getTask(
  client: Client,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<GetTaskResult> {
  if (client.era === '2026') return getExtensionTask(client, taskId, options);
  return requestTask<GetTaskResult>(client, 'tasks/get', taskId, options);
}

/**
 * Gets a task's result (`tasks/result`): what the original request would have returned. The server
 * holds the answer until the task ends; a task that failed with a JSON-RPC error rejects with it.
 *
 * @example
 * ```ts
 * const result = await getTaskResult<CallToolResult>(client, taskId);
 * ```
 */
export async function getTaskResult<R = CallToolResult>(
  client: Client,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<R> {
  // 2026-07-28: no tasks/result; the task is followed (and its input answered) until it ends.
  if (client.era === '2026') return (await client.followExtensionTask(taskId, options)) as R;
  try {
    const result = await client.request<R>('tasks/result', { taskId }, options);
    endProgressWatch(client, taskId);
    return result;
  } catch (error) {
    // The server's own error means the task is over (failed, or gone); a local one (a LocalError:
    // timeout, abort, closed, refused) says nothing.
    if (error instanceof McpError) endProgressWatch(client, taskId);
    throw error;
  }
}

/**
 * Lists one page of this client's tasks (`tasks/list`).
 *
 * @example
 * ```ts
 * const { tasks, nextCursor } = await listTasks(client);
 * ```
 */
export function listTasks(
  client: Client,
  cursor?: string,
  options?: OutgoingRequestOptions,
): Promise<ListTasksResult> {
  return client.request<ListTasksResult>('tasks/list', cursor === undefined ? {} : { cursor }, options);
}

/**
 * Cancels a task (`tasks/cancel`). Resolves with the task, now `cancelled`.
 *
 * @throws {McpError} `-32602` when the task is unknown or already terminal.
 * @example
 * ```ts
 * await cancelTask(client, taskId);
 * ```
 */
export function cancelTask(
  client: Client,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<CancelTaskResult> {
  if (client.era === '2026') {
    // The extension only acknowledges; the task as it is now is one tasks/get away.
    return client
      .request('tasks/cancel', { taskId }, options)
      .then(() => getExtensionTask(client, taskId, options));
  }
  return requestTask<CancelTaskResult>(client, 'tasks/cancel', taskId, options);
}

/**
 * Calls `listener` with every `notifications/tasks/status`; returns an unsubscribe function.
 * Servers need not send them: poll as well (see {@link pollTask}).
 *
 * @example
 * ```ts
 * const stop = onTaskStatus(client, (task) => console.log(task.taskId, task.status));
 * ```
 */
export function onTaskStatus(
  client: Client,
  listener: (task: TaskStatusNotificationParams) => void,
): () => void {
  return client.onNotification('notifications/tasks/status', (params) => {
    if (isTask(params)) listener(params as TaskStatusNotificationParams);
  });
}

/**
 * Polls a task until it is terminal (or needs input, with `stopOnInputRequired`), honouring the
 * server's `pollInterval`. A status notification for the task wakes the poll early.
 *
 * @example
 * ```ts
 * const task = await pollTask(client, taskId, { onStatus: (t) => console.log(t.status) });
 * if (task.status === 'completed') console.log(await getTaskResult(client, taskId));
 * ```
 */
export function pollTask(client: Client, taskId: string, options: PollTaskOptions = {}): Promise<Task> {
  const { signal } = options;
  const source = {
    get: () => getTask(client, taskId, { signal }),
    onWake: (wake: () => void) =>
      onTaskStatus(client, (task) => {
        if (task.taskId === taskId) wake();
      }),
  };
  return pollTaskUntilDone(source, options);
}

/**
 * Calls a tool as a task and waits for its result: creates the task, polls it, then fetches the
 * result with `tasks/result` (at once when the task needs input, so the server can deliver its
 * elicitation or sampling requests on that request). Resolves with the tool's `CallToolResult`
 * (`isError: true` included); a task that ended with a JSON-RPC error rejects with it.
 *
 * @example
 * ```ts
 * const result = await callToolAndWait(client, 'render', { scene: 1 }, {
 *   onStatus: (task) => console.log(task.status),
 *   onProgress: ({ progress, total }) => console.log(progress, total),
 * });
 * ```
 */
export async function callToolAndWait(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: CallToolAndWaitOptions = {},
): Promise<CallToolResult> {
  const {
    onProgress,
    onStatus,
    resultTimeout,
    cancelOnAbort,
    defaultInterval,
    minInterval,
    signal,
    ...callOptions
  } = options;
  if (client.era === '2026') {
    // The server decides (tasks extension): the call is followed to its end, task or not.
    const params: CallToolRequestParams = { name, arguments: args };
    if (callOptions.meta) params._meta = callOptions.meta;
    const { ttl: _ttl, meta: _meta, checkTaskSupport: _check, ...requestOptions } = callOptions;
    const sendOptions: OutgoingRequestOptions = { ...requestOptions, signal };
    if (onStatus) TASK_HANDLING.set(sendOptions, { onStatus });
    return client.request<CallToolResult>('tools/call', params, sendOptions);
  }
  let progress: ProgressWatch | undefined;
  let taskId: string | undefined;
  try {
    const { result: created, progress: watch } = await createToolTask(
      client,
      name,
      args,
      { ...callOptions, signal },
      onProgress,
    );
    progress = watch;
    progress?.watch(created.task);
    const id = created.task.taskId;
    taskId = id;
    const last = await pollTask(client, id, {
      initial: created.task,
      stopOnInputRequired: true,
      signal,
      onStatus,
      defaultInterval,
      minInterval,
    });
    // While tasks/result blocks, status notifications (if the server sends them) keep onStatus current.
    let seen = last.status;
    const stopStatus = onStatus
      ? onTaskStatus(client, (task) => {
          if (task.taskId !== id || task.status === seen) return;
          seen = task.status;
          onStatus(task);
        })
      : undefined;
    try {
      return await getTaskResult<CallToolResult>(client, id, {
        signal,
        timeout: resultTimeout ?? DEFAULT_TASK_RESULT_TIMEOUT,
        resetTimeoutOnProgress: false,
      });
    } finally {
      stopStatus?.();
    }
  } catch (error) {
    if (signal?.aborted && taskId !== undefined && cancelOnAbort !== false && client.connected) {
      await cancelTask(client, taskId).catch(() => {
        // Already terminal or gone: nothing to stop.
      });
    }
    throw error;
  } finally {
    progress?.stop();
  }
}

// ---------------------------------------------------------------- internals

/**
 * Sends a task-augmented `tools/call`. With `onProgress`, the call carries a fresh progress token
 * followed by a {@link ProgressWatch} rather than the engine's own, which would die with the
 * request: a task's progress outlives the request that created it.
 */
async function createToolTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: Omit<CallToolAsTaskOptions, 'onProgress'>,
  onProgress: ((update: ProgressUpdate) => void) | undefined,
): Promise<{ result: CreateTaskResult; progress: ProgressWatch | undefined }> {
  const { ttl, meta, checkTaskSupport, ...requestOptions } = options;
  if (client.era === '2026') {
    if (checkTaskSupport !== false) await assertTaskSupport(client, name);
    return {
      result: await createExtensionTask(client, name, args, meta, requestOptions),
      progress: undefined,
    };
  }
  const params: CallToolRequestParams = { name, arguments: args, task: ttl === undefined ? {} : { ttl } };
  if (meta) params._meta = meta;
  const gap = missingServerCapability('tools/call', params, client.serverCapabilities);
  if (gap) throw new CapabilityError(gap);
  if (checkTaskSupport !== false) await assertTaskSupport(client, name);
  const progress = onProgress ? new ProgressWatch(client, onProgress) : undefined;
  if (progress) {
    params._meta = { ...meta, progressToken: progress.token };
    // The token above must reach the server as is: the engine's own token would replace it.
    requestOptions.resetTimeoutOnProgress = false;
  }
  try {
    const result = await client.request<CreateTaskResult>('tools/call', params, requestOptions);
    if (!isTask(result?.task)) {
      throw new McpError(
        ErrorCode.InternalError,
        `The server answered a task-augmented call of "${name}" without a task`,
      );
    }
    return { result, progress };
  } catch (error) {
    progress?.stop();
    throw error;
  }
}

/**
 * A `tools/call` under the tasks extension, answered with the task itself (not followed). The
 * server decides whether to create one: a plain result here is an error, as under 2025-11-25.
 * No progress: the extension sends none for tasks.
 */
async function createExtensionTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
  options: OutgoingRequestOptions,
): Promise<CreateTaskResult> {
  if (!declaresTasksExtension(client.serverCapabilities)) {
    throw new CapabilityError(
      'The server did not declare the tasks extension (io.modelcontextprotocol/tasks)',
    );
  }
  const params: CallToolRequestParams = { name, arguments: args };
  if (meta) params._meta = meta;
  const sendOptions: OutgoingRequestOptions = { ...options };
  TASK_HANDLING.set(sendOptions, { raw: true });
  const result = await client.request<Record<string, unknown>>('tools/call', params, sendOptions);
  const task = isCreatedTask(result) ? fromExtensionTask(result) : undefined;
  if (!task) {
    throw new McpError(ErrorCode.InternalError, `The server answered the call of "${name}" without a task`);
  }
  return { task };
}

/** `tasks/get` under the extension, in the 2025 shape (the inlined result stays out). */
async function getExtensionTask(
  client: Client,
  taskId: string,
  options: OutgoingRequestOptions | undefined,
): Promise<Task> {
  const detailed = await client.request('tasks/get', { taskId }, options);
  const task = fromExtensionTask(detailed);
  if (!task) throw new McpError(ErrorCode.InternalError, `The server answered tasks/get without a task`);
  return task;
}

/** The progress watches of each client's tasks, by task id. */
const progressWatches = new WeakMap<Client, Map<string, ProgressWatch>>();

function watchesOf(client: Client): Map<string, ProgressWatch> {
  let watches = progressWatches.get(client);
  if (!watches) {
    const created = new Map<string, ProgressWatch>();
    watches = created;
    progressWatches.set(client, created);
    client.onClose(() => {
      for (const watch of [...created.values()]) watch.stop();
    });
  }
  return watches;
}

/** Every task state a helper sees passes here: a terminal one ends its task's progress watch. */
/** Sends `tasks/get` or `tasks/cancel`; a terminal task in the answer ends its progress watch. */
async function requestTask<R extends Task>(
  client: Client,
  method: 'tasks/get' | 'tasks/cancel',
  taskId: string,
  options: OutgoingRequestOptions | undefined,
): Promise<R> {
  const task = await client.request<R>(method, { taskId }, options);
  noteTask(client, task);
  return task;
}

function noteTask(client: Client, task: Task): void {
  if (isTask(task) && isTaskTerminal(task)) endProgressWatch(client, task.taskId);
}

function endProgressWatch(client: Client, taskId: string): void {
  progressWatches.get(client)?.get(taskId)?.stop();
}

/**
 * Follows the progress of one task under a token of its own, from before the request is sent
 * until the task is seen terminal (by a helper here or a status notification), its TTL elapses,
 * the client closes, or {@link ProgressWatch.stop} is called.
 */
class ProgressWatch {
  readonly token = `task-progress-${crypto.randomUUID()}`;
  private taskId: string | undefined;
  private expiry: ReturnType<typeof setTimeout> | undefined;
  private stopProgress: (() => void) | undefined;
  private stopStatus: (() => void) | undefined;

  constructor(
    private readonly client: Client,
    onProgress: (update: ProgressUpdate) => void,
  ) {
    this.stopProgress = client.onNotification('notifications/progress', (params) => {
      if (params.progressToken !== this.token || typeof params.progress !== 'number') return;
      const update: ProgressUpdate = { progress: params.progress };
      if (typeof params.total === 'number') update.total = params.total;
      if (typeof params.message === 'string') update.message = params.message;
      onProgress(update);
    });
  }

  /** Ties the watch to the task the request created, so that its end ends the watch. */
  watch(task: Task): void {
    if (!this.stopProgress) return;
    if (isTaskTerminal(task)) {
      this.stop();
      return;
    }
    const taskId = task.taskId;
    this.taskId = taskId;
    watchesOf(this.client).set(taskId, this);
    this.stopStatus = onTaskStatus(this.client, (status) => {
      if (status.taskId === taskId) noteTask(this.client, status);
    });
    if (typeof task.ttl === 'number') {
      // Past its TTL the task may be deleted at any time, so no more progress can come for it.
      // Counted from now rather than from `createdAt`, which is the server's clock.
      this.expiry = setTimeout(() => this.stop(), Math.min(MAX_TIMER_DELAY, Math.max(0, task.ttl)));
      (this.expiry as { unref?: () => void }).unref?.();
    }
  }

  stop(): void {
    this.stopProgress?.();
    this.stopStatus?.();
    this.stopProgress = undefined;
    this.stopStatus = undefined;
    if (this.expiry !== undefined) clearTimeout(this.expiry);
    this.expiry = undefined;
    if (this.taskId !== undefined) {
      const watches = progressWatches.get(this.client);
      if (watches?.get(this.taskId) === this) watches.delete(this.taskId);
    }
  }
}

async function assertTaskSupport(client: Client, name: string): Promise<void> {
  const lister = (client as Client & { tools?: () => Promise<Tool[]> }).tools;
  if (typeof lister !== 'function' || !client.serverCapabilities?.tools) return;
  const tool = (await lister.call(client)).find((candidate) => candidate.name === name);
  // An unknown tool is the server's to report (-32602), with its own message.
  if (!tool) return;
  const support = tool.execution?.taskSupport ?? 'forbidden';
  if (support === 'forbidden') {
    throw new CapabilityError(
      `Tool "${name}" does not support task execution (execution.taskSupport is "forbidden")`,
    );
  }
}
