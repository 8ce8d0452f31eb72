/**
 * `subscriptions/listen` (2026-07-28, basic/patterns/subscriptions.mdx): the one long-lived
 * request through which a modern server sends `list_changed` and `resources/updated`. It replaces
 * the 2025 GET stream and `resources/subscribe`. The client keeps at most one open, with the
 * filter of everything it currently wants; a change of filter cancels it and opens a new one
 * (closing the stream on HTTP, `notifications/cancelled` on stdio). Nothing is opened while
 * nothing is wanted: a client that never asks pays nothing.
 *
 * A stream that drops without the server's closing response (a proxy timeout, a restarted node, a
 * reconnected stdio server, which keeps no subscription across connections) is opened again with
 * backoff, as the spec allows; the server's graceful response and its error answers are final.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';

/** The `notifications` filter of a `subscriptions/listen` request. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Sends `subscriptions/listen` with `filter`; settles when the stream ends. */
export type ListenSender = (filter: SubscriptionFilter, signal: AbortSignal) => Promise<unknown>;

/** Reopening a dropped stream: first after 500 ms, doubling to 30 s; a stream that lived 30 s resets it. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * The client's one listen stream.
 *
 * @example
 * ```ts
 * const listen = new ListenStream((filter, signal) => client.request('subscriptions/listen', { notifications: filter }, { signal }), report);
 * listen.update({ toolsListChanged: true });
 * ```
 */
export class ListenStream {
  private controller: AbortController | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private current = '';

  constructor(
    private readonly send: ListenSender,
    private readonly report: (error: Error) => void,
  ) {}

  /** Opens, replaces or closes the stream so that it carries exactly `filter`. */
  update(filter: SubscriptionFilter): void {
    const key = JSON.stringify(filter);
    if (key === this.current && (this.controller || this.retry)) return;
    this.close();
    this.current = key;
    if (isEmpty(filter)) return;
    this.open(filter);
  }

  /** Cancels the stream, if one is open, and any pending reopening. */
  close(): void {
    this.controller?.abort();
    this.controller = undefined;
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.retry = undefined;
    this.failures = 0;
    this.current = '';
  }

  private open(filter: SubscriptionFilter): void {
    const controller = new AbortController();
    this.controller = controller;
    const opened = Date.now();
    this.send(filter, controller.signal).then(
      () => {
        // A response is the server ending the subscription gracefully: not reopened.
        if (this.controller === controller) this.controller = undefined;
      },
      (error: unknown) => {
        if (controller.signal.aborted || this.controller !== controller) return;
        this.controller = undefined;
        const failure = error instanceof Error ? error : new Error(String(error));
        // An error answer is the server refusing the filter; a drop is a transport accident (the
        // HTTP transport reports a lost answer stream as a ConnectionClosed error for the request).
        if (failure instanceof McpError && failure.code !== ErrorCode.ConnectionClosed) {
          return this.report(failure);
        }
        if (Date.now() - opened >= RETRY_MAX_MS) this.failures = 0;
        if (this.failures === 0) this.report(failure); // once per run of drops, not per attempt
        this.reopenLater(filter);
      },
    );
  }

  private reopenLater(filter: SubscriptionFilter): void {
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.failures);
    this.failures++;
    const timer = setTimeout(() => {
      this.retry = undefined;
      this.open(filter);
    }, delay);
    // A pending reopening must not keep a Node process alive on its own.
    (timer as { unref?: () => void }).unref?.();
    this.retry = timer;
  }
}

function isEmpty(filter: SubscriptionFilter): boolean {
  return (
    !filter.toolsListChanged &&
    !filter.promptsListChanged &&
    !filter.resourcesListChanged &&
    (filter.resourceSubscriptions?.length ?? 0) === 0
  );
}
