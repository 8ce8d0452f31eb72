/**
 * What the client wants to hear of: listeners of `list_changed` per list kind (run once the
 * client forgot the list it held), and (2026-07-28) the resources subscribed to. Under 2026-07-28 one `subscriptions/listen` stream carries exactly
 * that; under 2025 the session's GET stream and `resources/subscribe` do, and no stream is opened.
 * @module
 */
import { addListener } from '@mcpkit/core/internal';
import type { Client } from './client.js';
import { ListenStream } from './era/listen.js';
import type { ListKind } from './mcpClientOptions.js';

/**
 * The client's listeners and listened resources, and its listen stream.
 *
 * @example
 * ```ts
 * const interest = new ListenInterest(client, (error) => console.error(error), (kind) => catalogue.forget(kind));
 * const stop = interest.onListChanged('tools', () => console.error('tools changed'));
 * ```
 */
export class ListenInterest {
  /** 2026-07-28: the `subscriptions/listen` stream, opened when something is listened for. */
  #listen: ListenStream | undefined;
  /** 2026-07-28: the resources subscribed to, carried by the listen stream's filter. */
  readonly #listenedResources = new Set<string>();
  readonly #listChangedListeners = new Map<ListKind, Set<() => void>>();

  readonly #client: Client;
  readonly #report: (error: Error) => void;

  constructor(
    client: Client,
    report: (error: Error) => void,
    /** Drops what the client holds of a list that changed, before its listeners run. */
    forget: (kind: ListKind) => void,
  ) {
    this.#client = client;
    this.#report = report;
    for (const kind of ['tools', 'resources', 'prompts'] as const) {
      client.onNotification(`notifications/${kind}/list_changed`, () => {
        forget(kind);
        this.#listChanged(kind);
      });
    }
  }

  /** Adds a `list_changed` listener of `kind`; returns the function that removes it. */
  onListChanged(kind: ListKind, listener: () => void): () => void {
    const remove = addListener(this.#listChangedListeners, kind, listener);
    this.refresh();
    return () => {
      remove();
      this.refresh();
    };
  }

  /** Calls the listeners of `kind`. */
  #listChanged(kind: ListKind): void {
    for (const listener of this.#listChangedListeners.get(kind) ?? []) listener();
  }

  /** 2026-07-28: adds `uri` to the stream's filter (resources/subscribe is gone). */
  subscribe(uri: string): void {
    this.#listenedResources.add(uri);
    this.refresh();
  }

  /** 2026-07-28: takes `uri` out of the stream's filter. */
  unsubscribe(uri: string): void {
    this.#listenedResources.delete(uri);
    this.refresh();
  }

  /**
   * 2026-07-28: keeps the `subscriptions/listen` stream carrying exactly what is wanted: the list
   * kinds someone listens to and the subscribed resources. Nothing under 2025 (the session's GET
   * stream and resources/subscribe carry those).
   */
  refresh(): void {
    const client = this.#client;
    if (client.era !== '2026' || !client.connected) return;
    const wants = (kind: ListKind) => (this.#listChangedListeners.get(kind)?.size ?? 0) > 0;
    this.#listen ??= new ListenStream(
      (filter, signal) =>
        client.request(
          'subscriptions/listen',
          { notifications: filter },
          { signal, timeout: Number.POSITIVE_INFINITY, maxTotalTimeout: Number.POSITIVE_INFINITY },
        ),
      this.#report,
    );
    this.#listen.update({
      toolsListChanged: wants('tools'),
      promptsListChanged: wants('prompts'),
      resourcesListChanged: wants('resources'),
      resourceSubscriptions: [...this.#listenedResources],
    });
  }

  /** Closes the listen stream. */
  close(): void {
    this.#listen?.close();
  }
}
