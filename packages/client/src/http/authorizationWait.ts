/**
 * The wait on the auth provider after a 401 (or a step-up 403): bounded by `authorizationTimeout`,
 * cut short when the exchange is aborted, and told to the connection so that the requests the
 * exchange carries do not time out while a person logs in (`MessageSink.authorizing`). All of
 * it happens only on a 401 or 403: a request that is let through costs nothing here.
 * @module
 */
import type { MessageSink } from '@mcpkit/core';
import { timerDelay } from '@mcpkit/core/internal';
import { AuthorizationTimeoutError } from './errors.js';
import { type Outgoing, requestIdsOf } from './messages.js';

/**
 * How long a request waits, by default, on its auth provider after a 401 or a step-up 403, in
 * ms: 10 minutes, time for a person to log in in a browser. Longer than the CLI's own wait for
 * the browser (5 minutes), whose message is then the one a person sees.
 *
 * @example
 * ```ts
 * declare const authProvider: AuthProvider;
 * new StreamableHttpClientTransport(url, { authProvider, authorizationTimeout: 2 * DEFAULT_AUTHORIZATION_TIMEOUT });
 * ```
 */
export const DEFAULT_AUTHORIZATION_TIMEOUT = 10 * 60_000;

/** What one wait needs: the provider's answer, the exchange, and who to tell. */
export interface AuthorizationWait {
  /** The provider's `onUnauthorized` or `onForbidden`, under way. */
  readonly reaction: Promise<boolean>;
  /** `METHOD URL`, for the error text. */
  readonly what: string;
  /** The exchange's controller: aborting it (a cancellation, `close()`) ends the wait at once. */
  readonly controller: AbortController;
  /** The JSON-RPC message the exchange carries, whose requests wait; none for a GET. */
  readonly message: Outgoing | undefined;
  /** The connection to tell, when it listens. */
  readonly sink: MessageSink | undefined;
  /** The exchange's own clock to stop and restart (the legacy SSE stream's wait for its endpoint). */
  readonly onWait?: ((waiting: boolean) => void) | undefined;
  /** The bound, in ms. */
  readonly limit: number;
}

/**
 * Resolves as the provider does, within `limit`; meanwhile the message's requests are told to
 * the sink as waiting on authorization, and told again, however the wait ends, that it is over.
 *
 * @throws {AuthorizationTimeoutError} the provider did not finish within `limit`.
 * @example
 * ```ts
 * const retry = await awaitAuthorization({
 *   reaction: auth.onUnauthorized(response),
 *   what: `POST ${url.href}`,
 *   controller,
 *   message,
 *   sink,
 *   limit: DEFAULT_AUTHORIZATION_TIMEOUT,
 * });
 * ```
 */
export async function awaitAuthorization(wait: AuthorizationWait): Promise<boolean> {
  const { sink, message, controller, limit } = wait;
  const ids = message !== undefined && sink?.authorizing ? requestIdsOf(message) : [];
  if (ids.length > 0) sink!.authorizing!(ids, true);
  wait.onWait?.(true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const signal = controller.signal;
  try {
    const bounded = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AuthorizationTimeoutError(wait.what, limit)), timerDelay(limit));
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    return await Promise.race([wait.reaction, bounded]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (ids.length > 0) sink!.authorizing!(ids, false);
    wait.onWait?.(false);
  }
}
