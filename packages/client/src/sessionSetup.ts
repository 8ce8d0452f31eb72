/**
 * What a client sets up on the server beyond single calls (resource subscriptions, a log level),
 * each by the means of the era spoken, and its recovery: kept so that it can be set up again when
 * the server forgot the session (restart, failover) and the transport opened a new one, or the
 * client reconnected; then the `onSessionRecovered` listeners run.
 * @module
 */
import type { LoggingLevel, OutgoingRequestOptions } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import type { Client } from './client.js';
import type { ListenInterest } from './listenInterest.js';

/**
 * The subscriptions and log level a client asked for, set up in its session and again in a new one.
 *
 * @example
 * ```ts
 * const setup = new SessionSetup(client, interest, () => false, () => catalogue.forget(), console.error);
 * await setup.subscribe('test://watched');
 * await setup.recovered(); // in a new session: subscribed again
 * ```
 */
export class SessionSetup {
  // #private, not `private`: the minifier shortens these names (the client's bundle budget).
  readonly #client: Client;
  /** 2026-07-28: the listen stream, whose filter names the subscribed resources. */
  readonly #interest: ListenInterest;
  /** The client's `setModernLogLevel`: true when the level went into the 2026-07-28 envelope. */
  readonly #modernLogLevel: (level: LoggingLevel) => boolean;
  /** Drops what was cached of the old session (lists, output validators). */
  readonly #forget: () => void;
  /** The client's `reportError`. */
  readonly #report: (error: Error) => void;
  #subscriptions: Set<string> | undefined;
  #level: LoggingLevel | undefined;
  #listeners: Set<() => void> | undefined;

  constructor(
    client: Client,
    interest: ListenInterest,
    modernLogLevel: (level: LoggingLevel) => boolean,
    forget: () => void,
    report: (error: Error) => void,
  ) {
    this.#client = client;
    this.#interest = interest;
    this.#modernLogLevel = modernLogLevel;
    this.#forget = forget;
    this.#report = report;
  }

  /** Subscribes to `uri`: under 2026-07-28 through the listen stream, else `resources/subscribe`. */
  async subscribe(uri: string, options?: OutgoingRequestOptions): Promise<void> {
    if (this.#client.era === '2026') {
      // resources/subscribe is gone; the listen stream's filter names the resource.
      this.#interest.subscribe(uri);
      return;
    }
    await this.#client.request('resources/subscribe', { uri }, options);
    if (!this.#subscriptions) this.#subscriptions = new Set();
    this.#subscriptions.add(uri);
  }

  /** Ends the subscription to `uri`. */
  async unsubscribe(uri: string, options?: OutgoingRequestOptions): Promise<void> {
    if (this.#client.era === '2026') {
      this.#interest.unsubscribe(uri);
      return;
    }
    this.#subscriptions?.delete(uri);
    await this.#client.request('resources/unsubscribe', { uri }, options);
  }

  /** Sets the log level: under 2026-07-28 in every later request's `_meta`, else `logging/setLevel`. */
  async setLevel(level: LoggingLevel, options?: OutgoingRequestOptions): Promise<void> {
    if (this.#modernLogLevel(level)) return;
    await this.#client.request('logging/setLevel', { level }, options);
    this.#level = level;
  }

  /** Adds a listener run after each recovery; returns the function that removes it. */
  onRecovered(listener: () => void): () => void {
    if (!this.#listeners) this.#listeners = new Set();
    const listeners = this.#listeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * A new session replaced the old one: forgets what was cached of it, sends the log level and
   * every subscription again (reporting those that failed), then runs the listeners.
   */
  async recovered(): Promise<void> {
    const report = this.#report;
    // The new session may serve other lists: what was cached came from the old one.
    this.#forget();
    const client = this.#client;
    const sent: Promise<unknown>[] = [];
    if (this.#level !== undefined) sent.push(client.request('logging/setLevel', { level: this.#level }));
    for (const uri of this.#subscriptions ?? []) sent.push(client.request('resources/subscribe', { uri }));
    for (const outcome of await Promise.allSettled(sent)) {
      if (outcome.status === 'rejected') report(toError(outcome.reason));
    }
    for (const listener of this.#listeners ?? []) {
      try {
        listener();
      } catch (error) {
        report(toError(error));
      }
    }
  }
}
