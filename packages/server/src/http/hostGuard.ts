/**
 * The shape of the `Host`/`Origin` guard (security.ts builds it; cors.ts asks it about origins),
 * apart from both so neither imports the other.
 * @module
 */

/** What the guard reads of a request. */
export interface GuardedRequest {
  /** A header by lower-case name, or null. */
  header(name: string): string | null;
  /** The absolute request URL. */
  readonly url: string;
}

/** Compiled allow-lists; built once per handler. */
export interface HostGuard {
  /** `'host'` or `'origin'` names the failed check; `undefined` means the request may proceed. */
  check(request: GuardedRequest): 'host' | 'origin' | undefined;
  /** Whether a request carrying this `Origin` header passes the `Origin` check. */
  allowsOrigin(origin: string): boolean;
}
