/**
 * What a 2026-07-28 client hears on a `subscriptions/listen` stream at the gateway: the
 * upstreams' `list_changed` (tools, prompts, resources), seen by any host of the gateway, and
 * `notifications/resources/updated` for the URIs the stream listens to, which the gateway
 * subscribes upstream while a stream wants them.
 *
 * A 2026 request has no session, so these subscriptions live on one host of their own (the shared
 * host, for a gateway with shared upstreams): one upstream subscription per URI, however many
 * streams listen to it, ended with the last of them. A listen stream for a URI no upstream
 * accepts a subscription for is acknowledged (the gateway declares `resources.subscribe`) and
 * simply hears nothing for it.
 * @module
 */
import type { Server } from '@mcpkit/server';
import type { RoutedHost } from './sessionHost.js';

/** How long list changes seen by several hosts are gathered into one notification. */
const COALESCE_MS = 20;

type ListKind = 'tools' | 'prompts' | 'resources';

interface Watch {
  count: number;
  /** The upstream subscription's end, once subscribed (`undefined` if it failed). */
  readonly end: Promise<(() => Promise<void>) | undefined>;
}

/**
 * The gateway's feed of 2026 listen streams.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * declare const makeHost: () => RoutedHost;
 * const feed = new ListenFeed(server, makeHost, true);
 * feed.listChanged('tools'); // every listen stream that asked for tool changes hears it
 * ```
 */
export class ListenFeed {
  private readonly pending = new Map<ListKind, ReturnType<typeof setTimeout>>();
  private readonly watched = new Map<string, Watch>();
  private routed: RoutedHost | undefined;

  /**
   * @param makeHost The host that subscribes for the listen streams (made when the first one needs it).
   * @param owned Whether that host is this feed's own, closed when no stream needs it any more.
   */
  constructor(
    private readonly server: Server,
    private readonly makeHost: () => RoutedHost,
    private readonly owned: boolean,
  ) {
    server.onListen((uris) => (uris.length > 0 ? this.listen(uris) : undefined));
  }

  /** The host it subscribes on, while it has one. */
  host(): RoutedHost | undefined {
    return this.routed;
  }

  /** An upstream's catalogue of `kind` changed: the listen streams that asked are told, once. */
  listChanged(kind: ListKind): void {
    // Several hosts (one per session, the pool's) see the same upstream change, each on its own connection.
    if (this.pending.has(kind)) return;
    const timer = setTimeout(() => {
      this.pending.delete(kind);
      this.server.broadcast(`notifications/${kind}/list_changed`, undefined, listenOnly);
    }, COALESCE_MS);
    this.pending.set(kind, timer);
  }

  /** Ends every upstream subscription; an own host is closed. */
  async close(): Promise<void> {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    const ends = [...this.watched.values()].map((watch) => watch.end);
    this.watched.clear();
    await Promise.allSettled(ends.map(async (end) => (await end)?.()));
    if (this.owned) await this.routed?.host.close();
    this.routed = undefined;
  }

  private listen(uris: readonly string[]): () => void {
    const ends = uris.map((uri) => this.watch(uri));
    return () => {
      for (const end of ends) end();
    };
  }

  /** Subscribes `uri` upstream for its first stream; the returned function ends it after the last. */
  private watch(uri: string): () => void {
    let watch = this.watched.get(uri);
    if (!watch) {
      this.routed ??= this.makeHost();
      const updated = (changed: string) => {
        if (changed === uri) this.server.broadcast('notifications/resources/updated', { uri }, listenOnly);
      };
      const end = this.routed.host.subscribe(uri, updated).catch(() => undefined);
      watch = { count: 0, end };
      this.watched.set(uri, watch);
    }
    watch.count++;
    const held = watch;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--held.count > 0 || this.watched.get(uri) !== held) return;
      this.watched.delete(uri);
      void held.end
        .then((end) => end?.())
        .then(
          () => this.idle(),
          () => this.idle(),
        );
    };
  }

  /** An own host with nothing left to watch is closed. */
  private idle(): void {
    if (!this.owned || this.watched.size > 0 || !this.routed) return;
    const routed = this.routed;
    this.routed = undefined;
    void routed.host.close();
  }
}

/** A broadcast for the listen streams only: the 2025 sessions hear their own hosts. */
function listenOnly(): boolean {
  return false;
}
