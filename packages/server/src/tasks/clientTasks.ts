/**
 * The server as a task requestor (2025-11-25, experimental): ask a client to run
 * `sampling/createMessage` or `elicitation/create` as a task, poll it, fetch its result, list and
 * cancel its tasks. The mirror of `@mcpkit/client`'s task helpers, over a {@link ServerSession}.
 *
 * A client runs these requests as tasks only when it declared `tasks.requests.sampling.createMessage`
 * or `tasks.requests.elicitation.create`; the helpers check that (and the negotiated revision)
 * before sending, and refuse locally with a {@link CapabilityError} otherwise, so a caller can
 * fall back to a plain `ctx.sample(...)` or `ctx.elicit(...)`.
 *
 * Waiting polls `tasks/get` at the client's `pollInterval`. The client's
 * `notifications/tasks/status` reach the server's `notifications/tasks/status` handler, if one is
 * set (`server.setNotificationHandler`); polling does not depend on them, as the specification
 * requires of requestors.
 *
 * Inside a request handler on Streamable HTTP, pass `{ relatedRequestId: ctx.requestId }` so these
 * requests travel on that request's stream.
 * @module
 */
import {
  type CancelTaskResult,
  CapabilityError,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateTaskResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  ErrorCode,
  type GetTaskResult,
  type ListTasksResult,
  McpError,
  Method,
  type OutgoingRequestOptions,
  type Task,
} from '@mcpkit/core';
import {
  DEFAULT_TASK_RESULT_TIMEOUT,
  isTask,
  missingClientCapability,
  pollTaskUntilDone,
  revisionHas,
  type TaskPollOptions,
} from '@mcpkit/core/internal';
import type { ServerSession } from '../kernel/session.js';

/**
 * Options of {@link sampleAsTask} and {@link elicitAsTask}.
 *
 * @example
 * ```ts
 * const options: ClientTaskRequestOptions = { ttl: 600_000, timeout: 10_000 };
 * ```
 */
export interface ClientTaskRequestOptions extends OutgoingRequestOptions {
  /** Requested lifetime of the task in ms; the client may grant another. */
  ttl?: number;
}

/**
 * Options of {@link pollClientTask}.
 *
 * @example
 * ```ts
 * const options: PollClientTaskOptions = { signal: AbortSignal.timeout(60_000), onStatus: (task) => console.error(task.status) };
 * ```
 */
export interface PollClientTaskOptions extends TaskPollOptions {
  /** The incoming request these polls are made for (routes them onto its HTTP stream). */
  relatedRequestId?: string | number;
}

/**
 * Options of {@link sampleAndWait} and {@link elicitAndWait}.
 *
 * @example
 * ```ts
 * const options: ClientTaskWaitOptions = { ttl: 600_000, onStatus: (task) => console.error(task.status) };
 * ```
 */
export interface ClientTaskWaitOptions
  extends ClientTaskRequestOptions,
    Omit<PollClientTaskOptions, 'initial' | 'signal' | 'relatedRequestId'> {
  /** Longest wait for `tasks/result` once polling stopped, in ms. Default one hour. */
  resultTimeout?: number;
  /** Cancel the task with `tasks/cancel` (when the client allows it) if `signal` aborts. Default true. */
  cancelOnAbort?: boolean;
}

/**
 * Asks the client to sample as a task. Resolves with the `CreateTaskResult` as soon as the client
 * accepted; fetch the `CreateMessageResult` with {@link getClientTaskResult} (or use
 * {@link sampleAndWait}).
 *
 * @throws {CapabilityError} locally when the client lacks `tasks.requests.sampling.createMessage`
 *   (or the revision has no tasks).
 * @example
 * ```ts
 * const messages: SamplingMessage[] = [{ role: 'user', content: { type: 'text', text: 'Summarize' } }];
 * const { task } = await sampleAsTask(ctx.session, { messages, maxTokens: 200 }, { ttl: 600_000 });
 * ```
 */
export function sampleAsTask(
  session: ServerSession,
  params: CreateMessageRequestParams,
  options: ClientTaskRequestOptions = {},
): Promise<CreateTaskResult> {
  return requestAsTask(session, Method.SamplingCreateMessage, params, options);
}

/**
 * Asks the client to elicit (form or URL mode) as a task. Resolves with the `CreateTaskResult`;
 * the `ElicitResult` comes from {@link getClientTaskResult} (or use {@link elicitAndWait}).
 *
 * @throws {CapabilityError} locally when the client lacks `tasks.requests.elicitation.create` or
 *   the elicitation mode (or the revision has no tasks).
 * @example
 * ```ts
 * const { task } = await elicitAsTask(ctx.session, {
 *   message: 'Approve the deployment?',
 *   requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
 * });
 * ```
 */
export function elicitAsTask(
  session: ServerSession,
  params: ElicitRequestFormParams | ElicitRequestURLParams,
  options: ClientTaskRequestOptions = {},
): Promise<CreateTaskResult> {
  return requestAsTask(session, Method.ElicitationCreate, params, options);
}

/**
 * Gets the state of one of the client's tasks (`tasks/get`).
 *
 * @throws {McpError} `-32602` for an unknown or expired task.
 * @example
 * ```ts
 * const task = await getClientTask(ctx.session, taskId);
 * ```
 */
export function getClientTask(
  session: ServerSession,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<GetTaskResult> {
  return session.request<GetTaskResult>(Method.TasksGet, { taskId }, options);
}

/**
 * Gets a client task's result (`tasks/result`): what the original request would have returned.
 * The client holds the answer until the task ends; a task that failed with a JSON-RPC error
 * rejects with it.
 *
 * @example
 * ```ts
 * const reply = await getClientTaskResult<CreateMessageResult>(ctx.session, taskId);
 * ```
 */
export function getClientTaskResult<R = Record<string, unknown>>(
  session: ServerSession,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<R> {
  return session.request<R>(Method.TasksResult, { taskId }, options);
}

/**
 * Lists one page of the tasks the client runs for this session (`tasks/list`).
 *
 * @throws {CapabilityError} locally when the client did not declare `tasks.list`.
 * @example
 * ```ts
 * const { tasks, nextCursor } = await listClientTasks(ctx.session);
 * ```
 */
export function listClientTasks(
  session: ServerSession,
  cursor?: string,
  options?: OutgoingRequestOptions,
): Promise<ListTasksResult> {
  return session.request<ListTasksResult>(Method.TasksList, cursor === undefined ? {} : { cursor }, options);
}

/**
 * Cancels one of the client's tasks (`tasks/cancel`). Resolves with the task, now `cancelled`.
 *
 * @throws {CapabilityError} locally when the client did not declare `tasks.cancel`.
 * @throws {McpError} `-32602` when the task is unknown or already terminal.
 * @example
 * ```ts
 * await cancelClientTask(ctx.session, taskId);
 * ```
 */
export function cancelClientTask(
  session: ServerSession,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<CancelTaskResult> {
  return session.request<CancelTaskResult>(Method.TasksCancel, { taskId }, options);
}

/**
 * Polls a client task until it is terminal (or needs input, with `stopOnInputRequired`),
 * honouring the client's `pollInterval`.
 *
 * @example
 * ```ts
 * const task = await pollClientTask(ctx.session, taskId, { signal: ctx.signal });
 * if (task.status === 'completed') console.error(await getClientTaskResult(ctx.session, taskId));
 * ```
 */
export function pollClientTask(
  session: ServerSession,
  taskId: string,
  options: PollClientTaskOptions = {},
): Promise<Task> {
  const { signal, relatedRequestId } = options;
  const requestOptions: OutgoingRequestOptions = { signal, relatedRequestId };
  return pollTaskUntilDone({ get: () => getClientTask(session, taskId, requestOptions) }, options);
}

/**
 * Asks the client to sample as a task and waits for the `CreateMessageResult`: creates the task,
 * polls it, then fetches the result with `tasks/result`.
 *
 * @throws {CapabilityError} locally when the client cannot run sampling as a task.
 * @example
 * ```ts
 * const messages: SamplingMessage[] = [{ role: 'user', content: { type: 'text', text: 'Summarize' } }];
 * const reply = await sampleAndWait(ctx.session, { messages, maxTokens: 200 }, { signal: ctx.signal });
 * ```
 */
export function sampleAndWait(
  session: ServerSession,
  params: CreateMessageRequestParams,
  options: ClientTaskWaitOptions = {},
): Promise<CreateMessageResult> {
  return requestAndWait<CreateMessageResult>(session, Method.SamplingCreateMessage, params, options);
}

/**
 * Asks the client to elicit as a task and waits for the `ElicitResult`.
 *
 * @throws {CapabilityError} locally when the client cannot run elicitation as a task.
 * @example
 * ```ts
 * const requestedSchema = { type: 'object' as const, properties: { name: { type: 'string' as const } } };
 * const answer = await elicitAndWait(ctx.session, { message: 'Your name?', requestedSchema }, { ttl: 600_000 });
 * if (answer.action === 'accept') console.error(answer.content);
 * ```
 */
export function elicitAndWait(
  session: ServerSession,
  params: ElicitRequestFormParams | ElicitRequestURLParams,
  options: ClientTaskWaitOptions = {},
): Promise<ElicitResult> {
  return requestAndWait<ElicitResult>(session, Method.ElicitationCreate, params, options);
}

// ---------------------------------------------------------------- internals

async function requestAsTask(
  session: ServerSession,
  method: 'sampling/createMessage' | 'elicitation/create',
  params: CreateMessageRequestParams | ElicitRequestFormParams | ElicitRequestURLParams,
  options: ClientTaskRequestOptions,
): Promise<CreateTaskResult> {
  const { ttl, ...requestOptions } = options;
  const augmented: Record<string, unknown> = { ...params, task: ttl === undefined ? {} : { ttl } };
  assertTaskable(session, method, augmented);
  const created = await session.request<CreateTaskResult>(method, augmented, requestOptions);
  if (!isTask(created?.task)) {
    throw new McpError(
      ErrorCode.InternalError,
      `The client answered a task-augmented "${method}" without a task`,
    );
  }
  return created;
}

async function requestAndWait<R>(
  session: ServerSession,
  method: 'sampling/createMessage' | 'elicitation/create',
  params: CreateMessageRequestParams | ElicitRequestFormParams | ElicitRequestURLParams,
  options: ClientTaskWaitOptions,
): Promise<R> {
  const { onStatus, resultTimeout, cancelOnAbort, defaultInterval, minInterval, ...requestOptions } = options;
  const { signal, relatedRequestId } = requestOptions;
  const created = await requestAsTask(session, method, params, requestOptions);
  const taskId = created.task.taskId;
  try {
    await pollClientTask(session, taskId, {
      initial: created.task,
      stopOnInputRequired: true,
      signal,
      relatedRequestId,
      onStatus,
      defaultInterval,
      minInterval,
    });
    return await getClientTaskResult<R>(session, taskId, {
      signal,
      relatedRequestId,
      timeout: resultTimeout ?? DEFAULT_TASK_RESULT_TIMEOUT,
      resetTimeoutOnProgress: false,
    });
  } catch (error) {
    const cancellable = session.clientCapabilities.tasks?.cancel !== undefined;
    if (signal?.aborted && cancelOnAbort !== false && cancellable && !session.closed) {
      await cancelClientTask(session, taskId, { relatedRequestId }).catch(() => {
        // Already terminal or gone: nothing to stop.
      });
    }
    throw error;
  }
}

/** Refuses locally what the client could not run as a task, with the reason. */
function assertTaskable(session: ServerSession, method: string, params: Record<string, unknown>): void {
  if (!revisionHas(session.protocolVersion, 'tasks')) {
    throw new CapabilityError(
      `"${method}" cannot run as a task: the session speaks ${session.protocolVersion}, which has no tasks`,
    );
  }
  const gap = missingClientCapability(method, params, session.clientCapabilities);
  if (gap) throw new CapabilityError(gap);
}
