/**
 * Resource subscriptions of a host: many listeners per resource fan in to one upstream
 * subscription, and each update goes to that resource's listeners only.
 * @module
 */
import type { Route } from './catalogue/catalogue.js';

type Listener = (uri: string) => void;

/**
 * The host's subscriptions, by server and upstream URI.
 *
 * @example
 * ```ts
 * if (subscriptions.add(route, uri, listener)) await client.subscribeResource(route.original);
 * ```
 */
export class Subscriptions {
  /** server → upstream URI → listener → the URI the listener subscribed with. */
  private readonly byServer = new Map<string, Map<string, Map<Listener, string>>>();

  /** Adds a listener; true when it is the first for this resource (subscribe upstream). */
  add(route: Route, hostUri: string, listener: Listener): boolean {
    let uris = this.byServer.get(route.server);
    if (!uris) {
      uris = new Map();
      this.byServer.set(route.server, uris);
    }
    let listeners = uris.get(route.original);
    const first = !listeners;
    if (!listeners) {
      listeners = new Map();
      uris.set(route.original, listeners);
    }
    listeners.set(listener, hostUri);
    return first;
  }

  /** Removes a listener; true when it was the last for this resource (unsubscribe upstream). */
  remove(route: Route, listener: Listener): boolean {
    const uris = this.byServer.get(route.server);
    const listeners = uris?.get(route.original);
    if (!listeners?.delete(listener)) return false;
    if (listeners.size > 0) return false;
    uris!.delete(route.original);
    return true;
  }

  /** The upstream URIs subscribed on `server` (renewed after a restart). */
  of(server: string): string[] {
    return [...(this.byServer.get(server)?.keys() ?? [])];
  }

  /** Routes an update from `server` to the listeners of that resource. */
  notify(server: string, uri: string): void {
    for (const [listener, hostUri] of this.byServer.get(server)?.get(uri) ?? []) listener(hostUri);
  }
}
