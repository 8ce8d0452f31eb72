/**
 * The client as a task receiver (2025-11-25, experimental): a server may send
 * `sampling/createMessage` or `elicitation/create` with a `task` param; the client answers at once
 * with a `CreateTaskResult`, runs its handler in the background, and answers the server's
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` about it, sending
 * `notifications/tasks/status` on every change.
 *
 * Binding. A client serves one server over one connection, so every task is bound to that
 * connection: a requestor key unique to this receiver. Nobody else can reach the tasks, which is
 * why `tasks/list` is safe to advertise (the default).
 *
 * Lifetime. A handler running as a task gets a {@link ClientTaskContext} whose signal fires on
 * `tasks/cancel`, when the task's TTL elapses, and when the connection closes (the tasks die with
 * it: nobody could ever read them again). The TTL the server asks for is granted within
 * `[minTtl, maxTtl]`.
 * @module
 */
import {
  type ClientCapabilities,
  ConnectionClosedError,
  type CreateTaskResult,
  ErrorCode,
  IncomingRequest,
  isSupportedProtocolVersion,
  McpError,
  type OutgoingRequestOptions,
  type ProgressUpdate,
  type Task,
  type TaskMetadata,
  type TaskStore,
  withRelatedTask,
} from '@mcpkit/core';
import {
  answerCancelTask,
  answerGetTask,
  answerListTasks,
  awaitTaskPayload,
  type RunningTask,
  receiverSettings,
  revisionHas,
  TaskRunner,
  type TaskTtlLimits,
  taskIdParam,
  taskParamOf,
} from '@mcpkit/core/internal';
import type { Client } from './client.js';
import type { ClientMethodHandler, ClientRequestHandler } from './context.js';
import { ClientRequestContext } from './context.js';

/**
 * Options of {@link ClientTaskReceiver} (and of `McpClient`'s `tasks` option).
 *
 * @example
 * ```ts
 * declare const sampling: SamplingHandler;
 * const client = new McpClient(info, { sampling, tasks: { maxTtl: 600_000, pollInterval: 500 } });
 * ```
 */
export interface ClientTaskOptions extends TaskTtlLimits {
  /** Where tasks are kept. Default: a new `InMemoryTaskStore`, closed with the connection. */
  store?: TaskStore;
  /** Suggested ms between the server's `tasks/get` polls. Default 1 000. */
  pollInterval?: number;
  /** Answer and advertise `tasks/list`. Default true. */
  list?: boolean;
  /** Answer and advertise `tasks/cancel`. Default true. */
  cancel?: boolean;
  /** Send `notifications/tasks/status` on every status change. Default true. */
  statusNotifications?: boolean;
}

/** The request methods a client may run as tasks (2025-11-25). */
export type ClientTaskMethod = 'sampling/createMessage' | 'elicitation/create';

interface ClientRun extends RunningTask {
  readonly context: ClientTaskContext;
}

type Owner = ConstructorParameters<typeof IncomingRequest>[0];

/**
 * What a sampling or elicitation handler gets while it runs as a task: a
 * {@link ClientRequestContext} as before (`meta`, `requestId`, `progress`), but tied to the task rather than to the request, which was
 * answered with a `CreateTaskResult` long ago. `signal` fires on `tasks/cancel`, TTL expiry and
 * connection close; `progress` keeps using the request's `progressToken` until the task is
 * terminal; notifications and requests it sends carry the related-task `_meta`.
 *
 * @example
 * ```ts
 * declare function runModel(params: CreateMessageRequestParams, options: { signal: AbortSignal }): Promise<CreateMessageResult>;
 * const sampling: SamplingHandler = async (params, context) => {
 *   if (context instanceof ClientTaskContext) console.error('running as task', context.taskId);
 *   return runModel(params, { signal: context.signal });
 * };
 * ```
 */
export class ClientTaskContext extends ClientRequestContext {
  /** @internal */
  constructor(
    client: Client,
    owner: Owner,
    request: IncomingRequest,
    params: Record<string, unknown>,
    /** The id of the task this handler runs as. */
    readonly taskId: string,
    private readonly taskController: AbortController,
  ) {
    super(client, new IncomingRequest(owner, request.id, request.method, params, request.extra));
  }

  /** Fires on `tasks/cancel`, when the task's TTL elapses, or when the connection closes. */
  override get signal(): AbortSignal {
    return this.taskController.signal;
  }
}

/**
 * Why a client task's signal fired: cancelled, expired, or the connection closed.
 *
 * @example
 * ```ts
 * declare const context: ClientTaskContext;
 * context.signal.addEventListener('abort', () => console.error((context.signal.reason as Error).message));
 * ```
 */
export class ClientTaskAbortedError extends Error {
  override name = 'ClientTaskAbortedError';
}

/**
 * Runs a client's sampling and elicitation handlers as tasks when the server asks, and answers
 * the `tasks/*` requests about them. `McpClient` creates one from its `tasks` option; a low-level
 * {@link Client} can use one directly.
 *
 * @example
 * ```ts
 * declare const runModel: ClientMethodHandler<'sampling/createMessage'>;
 * const receiver = new ClientTaskReceiver({ maxTtl: 600_000 });
 * const client = new Client(info, { capabilities: { sampling: {}, ...receiver.capabilitiesFor(['sampling/createMessage']) } });
 * client.setRequestHandler('sampling/createMessage', receiver.taskable('sampling/createMessage', runModel));
 * receiver.install(client);
 * ```
 */
export class ClientTaskReceiver {
  /** Where this receiver keeps its tasks. */
  readonly store: TaskStore;
  private readonly settings: ReturnType<typeof receiverSettings>;
  private readonly requestor = `connection:${crypto.randomUUID()}`;
  private readonly runner: TaskRunner<ClientRun>;
  private client: Client | undefined;
  private onError: (error: Error) => void = () => {};
  private unsubscribe: (() => void) | undefined;

  constructor(readonly options: ClientTaskOptions = {}) {
    this.settings = receiverSettings(options);
    this.store = this.settings.store;
    this.runner = new TaskRunner<ClientRun>(this.store, {
      sendStatus: (_run, task) => this.sendStatus(task),
      reportError: (error) => this.onError(error),
      abortError: (reason) => new ClientTaskAbortedError(reason),
      concerns: (_run, requestor) => requestor === this.requestor,
      onEnd: (run) => {
        run.context.request.done = true;
      },
    });
  }

  /**
   * The `tasks` capability to declare for handlers of `methods`; empty when there are none.
   *
   * @example
   * ```ts
   * declare const receiver: ClientTaskReceiver;
   * receiver.capabilitiesFor(['elicitation/create']);
   * // { tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } } }
   * ```
   */
  capabilitiesFor(methods: Iterable<ClientTaskMethod>): ClientCapabilities {
    const requests: Record<string, Record<string, object>> = {};
    for (const method of methods) {
      if (method === 'sampling/createMessage') requests.sampling = { createMessage: {} };
      else if (method === 'elicitation/create') requests.elicitation = { create: {} };
    }
    if (Object.keys(requests).length === 0) return {};
    const tasks: NonNullable<ClientCapabilities['tasks']> = { requests };
    if (this.options.list !== false) tasks.list = {};
    if (this.options.cancel !== false) tasks.cancel = {};
    return { tasks };
  }

  /**
   * Wraps the handler of `method` so that a request carrying `task` runs as a task: the wrapper
   * answers with the `CreateTaskResult` and runs `handler` in the background with a
   * {@link ClientTaskContext}. Other requests (and `task` from a server on an older revision,
   * which the specification says to ignore) go to `handler` unchanged.
   *
   * @example
   * ```ts
   * declare const receiver: ClientTaskReceiver;
   * declare const runModel: ClientMethodHandler<'sampling/createMessage'>;
   * client.setRequestHandler('sampling/createMessage', receiver.taskable('sampling/createMessage', runModel));
   * ```
   */
  taskable<M extends ClientTaskMethod>(method: M, handler: ClientMethodHandler<M>): ClientMethodHandler<M>;
  taskable(method: ClientTaskMethod, handler: ClientRequestHandler): ClientRequestHandler;
  taskable(
    method: ClientTaskMethod,
    typed: ClientRequestHandler | ClientMethodHandler<any>,
  ): ClientRequestHandler {
    const handler = typed as ClientRequestHandler;
    return (params, ctx) => {
      const task = this.requested(params);
      return task ? this.run(method, params, ctx, task, handler) : handler(params, ctx);
    };
  }

  /**
   * Answers `tasks/get`, `tasks/result` and (unless disabled) `tasks/list` and `tasks/cancel` on
   * `client`, and ends the tasks when its connection closes. Once per receiver, before connecting.
   *
   * @example
   * ```ts
   * declare const receiver: ClientTaskReceiver;
   * receiver.install(client, (error) => console.error(error));
   * ```
   */
  install(client: Client, onError?: (error: Error) => void): void {
    if (this.client) throw new Error('A ClientTaskReceiver serves one client');
    this.client = client;
    if (onError) this.onError = onError;
    client.setRequestHandler('tasks/get', (params) => {
      this.checkRevision('tasks/get');
      return answerGetTask(this.store, this.requestor, params);
    });
    client.setRequestHandler('tasks/result', (params, request) => {
      this.checkRevision('tasks/result');
      return awaitTaskPayload(
        this.store,
        this.requestor,
        taskIdParam('tasks/result', params),
        request.signal,
      );
    });
    if (this.options.list !== false) {
      client.setRequestHandler('tasks/list', (params) => {
        this.checkRevision('tasks/list');
        return answerListTasks(this.store, this.requestor, params);
      });
    }
    if (this.options.cancel !== false) {
      client.setRequestHandler('tasks/cancel', (params) => {
        this.checkRevision('tasks/cancel');
        // The store event that follows aborts the handler.
        return answerCancelTask(this.store, this.requestor, params);
      });
    }
    this.unsubscribe = this.runner.listen();
    client.onClose(() => void this.close());
  }

  /**
   * Ends every task (their signals fire) and, if this receiver created its store, closes it. Runs
   * by itself when the connection closes.
   *
   * @example
   * ```ts
   * declare const receiver: ClientTaskReceiver;
   * await receiver.close();
   * ```
   */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const runs = this.runner.abortAll('The connection closed');
    if (this.settings.ownsStore) {
      await this.store.close();
      return;
    }
    // A shared store outlives this connection: leave no live task nobody can reach.
    await Promise.all(
      runs.map((run) =>
        this.store.cancel(run.taskId, this.requestor, 'The connection closed').catch(() => {}),
      ),
    );
  }

  // ---------------------------------------------------------------- running tasks

  private requested(params: Record<string, unknown>): TaskMetadata | undefined {
    if (params.task === undefined || !this.speaksTasks()) return undefined;
    return taskParamOf(params);
  }

  private async run(
    method: ClientTaskMethod,
    params: Record<string, unknown>,
    ctx: ClientRequestContext,
    metadata: TaskMetadata,
    handler: ClientRequestHandler,
  ): Promise<CreateTaskResult> {
    const { task: _augmentation, ...work } = params;
    const ttl = this.settings.grantTtl(metadata.ttl);
    const task = await this.store.create({ method, params: work }, this.requestor, {
      ttl,
      pollInterval: this.settings.pollInterval,
    });
    const run = this.runFor(task, ctx, work);
    await this.runner.start(run, this.requestor, ctx.request.cancelled, () => handler(work, run.context), {
      quietAfterEnd: true,
    });
    return { task };
  }

  private runFor(task: Task, ctx: ClientRequestContext, params: Record<string, unknown>): ClientRun {
    const controller = new AbortController();
    const taskId = task.taskId;
    const owner = this.ownerFor(taskId);
    const context = new ClientTaskContext(ctx.client, owner, ctx.request, params, taskId, controller);
    return { taskId, controller, context, terminal: false };
  }

  /** Where a task context's notifications, requests and progress go: to the server, tagged. */
  private ownerFor(taskId: string): Owner {
    const isLive = () => this.runner.get(taskId)?.terminal === false;
    return {
      notifyFor: (_request: IncomingRequest, method: string, params?: Record<string, unknown>) => {
        if (!isLive()) return;
        return this.client?.notify(method, withRelatedTask(params ?? {}, taskId));
      },
      requestFor: <R>(
        request: IncomingRequest,
        method: string,
        params: Record<string, unknown> | undefined,
        options: OutgoingRequestOptions | undefined,
      ): Promise<R> => {
        const client = this.client;
        if (!client) return Promise.reject(new ConnectionClosedError('Not connected'));
        const tagged = withRelatedTask(params ?? {}, taskId);
        return client.request<R>(method, tagged, { ...options, signal: options?.signal ?? request.signal });
      },
      progressFor: (request: IncomingRequest, update: ProgressUpdate) => {
        if (!isLive() || request.progressToken === undefined) return;
        const params = withRelatedTask({ progressToken: request.progressToken, ...update }, taskId);
        return this.client?.notify('notifications/progress', params);
      },
    };
  }

  private sendStatus(task: Task): void | Promise<void> {
    const client = this.client;
    if (this.options.statusNotifications === false || !client?.connected) return;
    return client.notify('notifications/tasks/status', { ...task });
  }

  /** A `task` param, and `tasks/*`, exist only from 2025-11-25 on: older peers get neither. */
  private speaksTasks(): boolean {
    const version = this.client?.protocolVersion;
    // 2026-07-28 has tasks only as an extension, which this receiver does not speak.
    return isSupportedProtocolVersion(version) && revisionHas(version, 'tasks');
  }

  private checkRevision(method: string): void {
    if (!this.speaksTasks()) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}
