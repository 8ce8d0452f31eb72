/**
 * The options of the task helpers of `tasks.ts`.
 * @module
 */
import type { OutgoingRequestOptions, ProgressUpdate } from '@mcpkit/core';
import type { TaskPollOptions } from '@mcpkit/core/internal';
import type { Client } from './client.js';

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

/**
 * The form of {@link callToolAsTask} and {@link callToolAndWait}: the client, the tool's name and
 * arguments (default `{}`), then the helper's options.
 *
 * @example
 * ```ts
 * const call: ToolTaskCall<CallToolAndWaitOptions, CallToolResult> = callToolAndWait;
 * ```
 */
export type ToolTaskCall<Options, Result> = (
  client: Client,
  name: string,
  args?: Record<string, unknown>,
  options?: Options,
) => Promise<Result>;
