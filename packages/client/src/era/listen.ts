/**
 * `subscriptions/listen` (2026-07-28, basic/patterns/subscriptions.mdx): the one long-lived
 * request through which a modern server sends `list_changed` and `resources/updated`. It replaces
 * the 2025 GET stream and `resources/subscribe`. The client keeps at most one open, with the
 * filter of everything it currently wants; a change of filter cancels it and opens a new one
 * (closing the stream on HTTP, `notifications/cancelled` on stdio). Nothing is opened while
 * nothing is wanted: a client that never asks pays nothing.
 * @module
 */

/** The `notifications` filter of a `subscriptions/listen` request. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Sends `subscriptions/listen` with `filter`; settles when the stream ends. */
export type ListenSender = (filter: SubscriptionFilter, signal: AbortSignal) => Promise<unknown>;

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
  private current = '';

  constructor(
    private readonly send: ListenSender,
    private readonly report: (error: Error) => void,
  ) {}

  /** Opens, replaces or closes the stream so that it carries exactly `filter`. */
  update(filter: SubscriptionFilter): void {
    const key = JSON.stringify(filter);
    if (key === this.current && this.controller) return;
    this.close();
    this.current = key;
    if (isEmpty(filter)) return;
    const controller = new AbortController();
    this.controller = controller;
    this.send(filter, controller.signal).then(
      () => {
        // A response is the server ending the subscription gracefully.
        if (this.controller === controller) this.controller = undefined;
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (this.controller === controller) this.controller = undefined;
        this.report(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  /** Cancels the stream, if one is open. */
  close(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.current = '';
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
