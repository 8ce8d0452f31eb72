/**
 * The questions a task asks its client under the tasks extension (2026-07-28, SEP-2663). There is
 * no server-to-client request in that revision: a `ctx.elicit()`/`ctx.sample()`/`ctx.listRoots()`
 * of a running task becomes an entry of the task's `inputRequests`, which the client reads with
 * `tasks/get` and answers with `tasks/update`. The task is `input_required` while any is open.
 *
 * Kept in memory beside the running handler (the handler awaits the answer): in a cluster, the
 * client's `tasks/get` and `tasks/update` must reach the node that runs the task, which is what the
 * extension's `Mcp-Name: <taskId>` routing header is for.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';
import { shapeProblem } from '../mrtr/responses.js';

interface OpenQuestion {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The open questions of one task.
 *
 * @example
 * ```ts
 * const inputs = new TaskInputs((waiting) => store.update(taskId, { status: waiting ? 'input_required' : 'working' }));
 * const answer = inputs.ask('elicitation/create', { message: 'OK?', requestedSchema: { type: 'object', properties: {} } });
 * inputs.answer({ '1': { action: 'accept', content: {} } });
 * ```
 */
export class TaskInputs {
  private readonly open = new Map<string, OpenQuestion>();
  private next = 0;

  constructor(private readonly setWaiting: (waiting: boolean) => Promise<void>) {}

  /**
   * Opens a question; resolves with the client's answer. Keys are never reused within a task, as
   * the extension requires.
   */
  async ask<R>(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<R> {
    signal.throwIfAborted();
    const key = String(++this.next);
    const answered = new Promise<unknown>((resolve, reject) => {
      this.open.set(key, { method, params, resolve, reject });
    });
    const onAbort = () => this.settle(key, (question) => question.reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    if (this.open.size === 1) await this.setWaiting(true);
    try {
      return (await answered) as R;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** The open questions as the `inputRequests` map of `tasks/get`. */
  requests(): Record<string, unknown> {
    const requests: Record<string, unknown> = {};
    for (const [key, question] of this.open)
      requests[key] = { method: question.method, params: question.params };
    return requests;
  }

  /**
   * Takes the answers of a `tasks/update`: each to an open question resolves it; keys that are not
   * open (never asked, answered already) are ignored, as the extension says.
   *
   * @throws {McpError} `-32602` when an answer to an open question does not have its kind's shape
   *   (nothing is taken then).
   */
  answer(responses: Record<string, unknown>): void {
    const taken: [string, unknown][] = [];
    for (const [key, response] of Object.entries(responses)) {
      const question = this.open.get(key);
      if (!question) continue;
      const problem = shapeProblem(question.method, response);
      if (problem) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `inputResponses[${JSON.stringify(key.slice(0, 64))}] is not a ${question.method} result: ${problem}`,
        );
      }
      taken.push([key, response]);
    }
    for (const [key, response] of taken) this.settle(key, (question) => question.resolve(response));
  }

  private settle(key: string, how: (question: OpenQuestion) => void): void {
    const question = this.open.get(key);
    if (!question) return;
    this.open.delete(key);
    how(question);
    if (this.open.size === 0) this.setWaiting(false).catch(() => {});
  }
}
