/**
 * What the provider reports as it logs in: one event per step of the MCP authorization flow
 * (protected resource metadata, authorization server metadata, the client's identity, the
 * authorization request with PKCE, the token, a refresh, a step-up), each done or failed with the
 * reason. A console or a CLI shows them; the provider never reports a token or a secret.
 * @module
 */

/**
 * The steps of a login, in the order they happen.
 *
 * @example
 * ```ts
 * const step: AuthStepName = 'authorization-server-metadata';
 * ```
 */
export type AuthStepName =
  | 'protected-resource-metadata'
  | 'authorization-server-metadata'
  | 'client'
  | 'authorization'
  | 'token'
  | 'refresh'
  | 'step-up';

/**
 * One step, done (`ok: true`, with what it found) or failed (`ok: false`, with why).
 *
 * @example
 * ```ts
 * const event: AuthStep = { step: 'client', ok: true, detail: 'dynamic registration: client id abc' };
 * ```
 */
export interface AuthStep {
  readonly step: AuthStepName;
  readonly ok: boolean;
  /** What the step found or did (URLs, the issuer, how the client is identified, the scope). */
  readonly detail?: string;
  /** Why the step failed. */
  readonly reason?: string;
}

/**
 * Receives each step as it ends.
 *
 * @example
 * ```ts
 * const observer: AuthObserver = (step) => console.log(step.step, step.ok ? 'ok' : step.reason);
 * ```
 */
export type AuthObserver = (step: AuthStep) => void;

/**
 * Runs one step and reports it: `detail` describes what it returned; a throw is reported with its
 * message and thrown again.
 *
 * @example
 * ```ts
 * const as = await observed(observer, 'authorization-server-metadata', () => discover(), (as) => as.issuer);
 * ```
 */
export async function observed<T>(
  observer: AuthObserver | undefined,
  step: AuthStepName,
  run: () => Promise<T>,
  detail?: (value: T) => string | undefined,
): Promise<T> {
  if (!observer) return run();
  let value: T;
  try {
    value = await run();
  } catch (error) {
    observer({ step, ok: false, reason: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const said = detail?.(value);
  observer(said === undefined ? { step, ok: true } : { step, ok: true, detail: said });
  return value;
}
