/**
 * Sending a request under 2026-07-28: with the envelope, followed through its `input_required`
 * rounds (each a new request) and, for a call that became a task, through the task to its end.
 * @module
 */
import {
  type Connection,
  type IncomingRequest,
  LocalError,
  Method,
  type OutgoingRequestOptions,
} from '@mcpkit/core';
import { DEFAULT_REQUEST_TIMEOUT, toError } from '@mcpkit/core/internal';
import type { ClientOptions } from '../clientOptions.js';
import type { HandlerRegistry } from '../handlers.js';
import type { ClientEnvelope } from './clientEnvelope.js';
import { DEFAULT_MAX_INPUT_ROUNDS, followInputRounds, inputHandlerFailed } from './inputRequests.js';
import { isInputRequired, type ModernVersion } from './modern.js';
import { type ExtensionSender, followTask, isCreatedTask, TASK_HANDLING } from './tasks.js';

/** What a client's 2026-07-28 requests go through: its connection, read when a request is sent. */
export interface ModernLink {
  /** The connection; throws before the client connected. */
  readonly live: Connection;
}

/** One client's 2026-07-28 requests; made once per client, so sending makes no closure. */
export class ModernRequests {
  /** Answers an input request of an `input_required` result, made once. */
  private readonly answer = (request: IncomingRequest) => this.answerInput(request);

  constructor(
    private readonly link: ModernLink,
    private readonly options: ClientOptions,
    private readonly envelope: ClientEnvelope,
    private readonly handlers: HandlerRegistry<unknown>,
    /** Answers a request of the server the way the client does (through its middleware). */
    private readonly handle: (request: IncomingRequest) => unknown,
    private readonly onError: (error: Error) => void,
  ) {}

  /**
   * A request under 2026-07-28: sent with the envelope, and followed through its `input_required`
   * rounds, each a new request.
   */
  send<R>(
    version: ModernVersion,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    const first = this.link.live.request(method, this.envelope.wrap(params, version), options);
    // Nearly every answer is complete: only input rounds and tasks build what following them needs.
    return first.then((result) =>
      isInputRequired(result) || (method === Method.ToolsCall && isCreatedTask(result))
        ? this.follow(version, method, params, options, result)
        : result,
    ) as Promise<R>;
  }

  /** The rest of a 2026-07-28 request after its first answer: its input rounds, then its task. */
  private async follow(
    version: ModernVersion,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
    first: unknown,
  ): Promise<unknown> {
    const send = (retry: Record<string, unknown>) =>
      this.link.live.request(method, this.envelope.wrap(params, version, retry), options);
    const rounds = this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    const bound = { method, timeoutMs: this.timeoutOf(options) };
    const result = await followInputRounds(first, send, this.answer, rounds, options, bound);
    // The tasks extension: the server may answer with a task, which this client follows to its end.
    const handling = options ? TASK_HANDLING.get(options) : undefined;
    if (method !== Method.ToolsCall || !isCreatedTask(result) || handling?.raw) return result;
    return followTask(this.taskSender(version), this.answer, result, options, bound, handling?.onStatus);
  }

  /**
   * Follows task `taskId` to its end (polling, answering its input requests with the client's
   * handlers) and gives the original request's result, or throws its error.
   */
  followTask(version: ModernVersion, taskId: string, options?: OutgoingRequestOptions): Promise<unknown> {
    const send = this.taskSender(version);
    const timeoutMs = this.timeoutOf(options);
    const handling = options ? TASK_HANDLING.get(options) : undefined;
    return send('tasks/get', { taskId }, { signal: options?.signal, timeout: options?.timeout }).then(
      (task) =>
        followTask(
          send,
          this.answer,
          task as Record<string, unknown>,
          options,
          { method: 'tasks/get', timeoutMs },
          handling?.onStatus,
        ),
    );
  }

  /**
   * Under 2026-07-28 the server decides that a call becomes a task, and its answer is the only
   * place the task id goes: a task in the answer to a call its caller gave up on (the answer and
   * the cancellation crossed, on stdio) is cancelled, as nobody else can (issue 16; servers that
   * heard the cancellation cancel it themselves, and acknowledge this one).
   */
  cancelLateTask(version: ModernVersion, result: Record<string, unknown>): void {
    if (!isCreatedTask(result)) return;
    const params = this.envelope.wrap({ taskId: result.taskId }, version);
    this.link.live.request('tasks/cancel', params).catch((error: unknown) => this.onError(toError(error)));
  }

  private taskSender(version: ModernVersion): ExtensionSender {
    return (name, taskParams, taskOptions) =>
      this.link.live.request(name, this.envelope.wrap(taskParams, version), taskOptions);
  }

  private timeoutOf(options: OutgoingRequestOptions | undefined): number {
    return options?.timeout ?? this.options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
  }

  /**
   * Runs the client's handler for one input request of an `input_required` result. A handler
   * that throws fails the call here: 2026-07-28 has no error form in `inputResponses` (under 2025
   * the error went back to the server), and the message says so rather than passing the
   * handler's error off as the server's answer.
   */
  private async answerInput(request: IncomingRequest): Promise<unknown> {
    if (!this.handlers.has(request.method)) {
      throw new LocalError(
        `The server asked for "${request.method}" input, which this client has no handler for (and did not declare)`,
      );
    }
    try {
      return await this.handle(request);
    } catch (error) {
      if (request.stopped) throw error; // the call was cancelled or timed out: its own error stands
      throw inputHandlerFailed(request.method, error);
    }
  }
}
