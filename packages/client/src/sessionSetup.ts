/**
 * What a client set up in its session on the server (resource subscriptions, a log level), kept
 * so that it can be set up again when the server forgot the session (restart, failover) and the
 * transport opened a new one.
 * @module
 */
import type { LoggingLevel } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';

/** The requests that set a session up again. */
export interface SessionSetupRequests {
  subscribe(uri: string): Promise<unknown>;
  setLevel(level: LoggingLevel): Promise<unknown>;
}

/**
 * The subscriptions and log level a client asked for, to re-apply in a new session.
 *
 * @example
 * ```ts
 * const setup = new SessionSetup();
 * setup.subscribed('test://watched');
 * const failures = await setup.reapply({ subscribe: (uri) => client.subscribeResource(uri), setLevel: (level) => client.setLoggingLevel(level) });
 * ```
 */
export class SessionSetup {
  private subscriptions: Set<string> | undefined;
  private level: LoggingLevel | undefined;

  /** Records a subscription the server accepted. */
  subscribed(uri: string): void {
    if (!this.subscriptions) this.subscriptions = new Set();
    this.subscriptions.add(uri);
  }

  /** Records an unsubscription. */
  unsubscribed(uri: string): void {
    this.subscriptions?.delete(uri);
  }

  /** Records the log level the server accepted. */
  leveled(level: LoggingLevel): void {
    this.level = level;
  }

  /** Sends the log level and every subscription again; resolves with the errors of those that failed. */
  async reapply(send: SessionSetupRequests): Promise<Error[]> {
    const sent: Promise<unknown>[] = [];
    if (this.level !== undefined) sent.push(send.setLevel(this.level));
    for (const uri of this.subscriptions ?? []) sent.push(send.subscribe(uri));
    const settled = await Promise.allSettled(sent);
    const failures: Error[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'rejected') failures.push(toError(outcome.reason));
    }
    return failures;
  }
}
