/**
 * The client side of the tasks extension `io.modelcontextprotocol/tasks` (2026-07-28, SEP-2663).
 * The server decides whether a `tools/call` becomes a task; a client that declared the extension
 * must take either answer. This client follows a task to its end by itself, so `callTool()` keeps
 * returning the tool's result: it polls `tasks/get` at the server's `pollIntervalMs`, answers the
 * task's `inputRequests` with its own sampling/elicitation/roots handlers through `tasks/update`,
 * and sends `tasks/cancel` when the caller aborts. The task helpers of `../tasks.ts` use the same
 * pieces under 2026-07-28.
 * @module
 */
import {
  ErrorCode,
  type IncomingRequest,
  LocalError,
  McpError,
  type OutgoingRequestOptions,
  TASKS_EXTENSION,
  type Task,
} from '@mcpkit/core';
import { fromExtensionTask, isRecord, timerDelay } from '@mcpkit/core/internal';
import { type AnswerBound, answerAll } from './inputRequests.js';

/**
 * Sends one request of the extension (`tasks/get`, `tasks/update`, `tasks/cancel`) under 2026-07-28.
 *
 * @example
 * ```ts
 * const send: ExtensionSender = (method, params, options) => connection.request(method, withEnvelope(params, envelopeEntries(source)), options);
 * ```
 */
export type ExtensionSender = (
  method: string,
  params: Record<string, unknown>,
  options: OutgoingRequestOptions | undefined,
) => Promise<unknown>;

/**
 * How a caller of `tools/call` wants a task handled (set by the task helpers).
 *
 * @example
 * ```ts
 * const handling: TaskHandling = { onStatus: (task) => console.error(task.status) };
 * ```
 */
export interface TaskHandling {
  /** Hand the `CreateTaskResult` back as it is, without following the task. */
  readonly raw?: boolean;
  /** Hears every state of the task seen while following it. */
  readonly onStatus?: (task: Task) => void;
}

/**
 * Per options object of a `tools/call`: how its task is handled. A side table rather than an
 * option, so the public options stay those of 2025-11-25.
 *
 * @example
 * ```ts
 * const options = {};
 * TASK_HANDLING.set(options, { raw: true }); // client.request('tools/call', params, options) returns the task
 * ```
 */
export const TASK_HANDLING = new WeakMap<object, TaskHandling>();

/** Default ms between polls when the server suggests none. */
const DEFAULT_POLL_INTERVAL = 1_000;
/** Polls no faster than this, whatever the server suggests. */
const MIN_POLL_INTERVAL = 10;

/**
 * The capabilities this client states under 2026-07-28, with the tasks extension declared: the
 * client follows any task the server creates.
 *
 * @example
 * ```ts
 * withTasksExtension({ sampling: {} }).extensions; // { 'io.modelcontextprotocol/tasks': {} }
 * ```
 */
export function withTasksExtension<C extends object>(
  capabilities: C,
): C & { extensions: Record<string, unknown> } {
  const extensions = (capabilities as { extensions?: Record<string, unknown> }).extensions;
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/**
 * True for the extension's `CreateTaskResult` (`resultType: "task"`).
 *
 * @example
 * ```ts
 * isCreatedTask({ resultType: 'task', taskId: 't', status: 'working' }); // true
 * ```
 */
export function isCreatedTask(result: unknown): result is Record<string, unknown> & { taskId: string } {
  return isRecord(result) && result.resultType === 'task' && typeof result.taskId === 'string';
}

/**
 * What a finished task gives its caller: the result on `completed`, the JSON-RPC error (thrown)
 * on `failed`, and an error naming the task on `cancelled`.
 *
 * @throws {McpError} the task's error, or `-32603` for a cancelled task.
 * @example
 * ```ts
 * const result = taskOutcome({ taskId: 't', status: 'completed', result: { content: [] } });
 * ```
 */
export function taskOutcome(detailed: Record<string, unknown>): unknown {
  if (detailed.status === 'completed') return isRecord(detailed.result) ? detailed.result : {};
  if (detailed.status === 'failed') {
    const error = detailed.error;
    if (isRecord(error) && typeof error.code === 'number' && typeof error.message === 'string') {
      throw new McpError(error.code, error.message, error.data);
    }
    throw new McpError(ErrorCode.InternalError, `Task ${String(detailed.taskId)} failed`);
  }
  const why = typeof detailed.statusMessage === 'string' ? `: ${detailed.statusMessage}` : '';
  throw new McpError(ErrorCode.InternalError, `Task ${String(detailed.taskId)} was cancelled${why}`);
}

/**
 * Follows a task the server created until it is terminal, then gives what the original request
 * would have returned (see {@link taskOutcome}). Answers each new input request once, with
 * `answer`, through `tasks/update`. When `options.signal` aborts, sends `tasks/cancel` and rejects.
 *
 * @example
 * ```ts
 * declare const send: ExtensionSender;
 * declare const created: Record<string, unknown>;
 * const result = await followTask(send, (request) => handle(request), created, {}, { method: 'tools/call', timeoutMs: 60_000 });
 * ```
 */
export async function followTask(
  send: ExtensionSender,
  answer: (request: IncomingRequest) => Promise<unknown>,
  created: Record<string, unknown>,
  options: OutgoingRequestOptions | undefined,
  bound: AnswerBound,
  onStatus?: (task: Task) => void,
): Promise<unknown> {
  const taskId = String(created.taskId);
  const signal = options?.signal;
  const pollOptions: OutgoingRequestOptions = { signal, timeout: options?.timeout };
  const answered = new Set<string>();
  let detailed = created;
  try {
    for (;;) {
      const task = fromExtensionTask(detailed);
      if (!task)
        throw new LocalError(`The server sent a task state without "taskId" and "status" for ${taskId}`);
      onStatus?.(task);
      if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
        return taskOutcome(detailed);
      }
      if (task.status === 'input_required') {
        await answerOpen(send, answer, taskId, detailed.inputRequests, answered, pollOptions, bound);
      } else {
        await pause(
          timerDelay(Math.max(MIN_POLL_INTERVAL, task.pollInterval ?? DEFAULT_POLL_INTERVAL)),
          signal,
        );
      }
      detailed = asRecord(await send('tasks/get', { taskId }, pollOptions));
    }
  } catch (error) {
    if (signal?.aborted)
      await send('tasks/cancel', { taskId }, { timeout: options?.timeout }).catch(() => {});
    throw error;
  }
}

/** Answers the input requests not answered before (keys are unique over a task's life). */
async function answerOpen(
  send: ExtensionSender,
  answer: (request: IncomingRequest) => Promise<unknown>,
  taskId: string,
  requests: unknown,
  answered: Set<string>,
  options: OutgoingRequestOptions,
  bound: AnswerBound,
): Promise<void> {
  if (!isRecord(requests)) throw new LocalError(`Task ${taskId} needs input but sent no "inputRequests"`);
  const fresh: Record<string, unknown> = {};
  for (const key of Object.keys(requests)) if (!answered.has(key)) fresh[key] = requests[key];
  if (Object.keys(fresh).length === 0) {
    // Answered already; the server has not caught up yet (tasks/update is eventually consistent).
    await pause(DEFAULT_POLL_INTERVAL / 10, options.signal);
    return;
  }
  const inputResponses = await answerAll(fresh, answer, options.signal, bound);
  for (const key of Object.keys(fresh)) answered.add(key);
  await send('tasks/update', { taskId, inputResponses }, options);
}

function asRecord(value: unknown): Record<string, unknown> {
  if (!isRecord(value))
    throw new LocalError('The server answered tasks/get with something that is not a task');
  return value;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
