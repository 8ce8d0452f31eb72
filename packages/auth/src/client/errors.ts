/**
 * The local failure type of the OAuth client. Messages name the step and the server's error code,
 * never a token, code, verifier or secret.
 * @module
 */

/**
 * Authorization could not be completed (discovery, registration, authorization or a token request).
 *
 * @example
 * ```ts
 * try { await client.connect(transport); } catch (e) { if (e instanceof AuthorizationError) console.error(e.message); }
 * ```
 */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
}

const SECRET_PARAMS =
  /((?:access_token|refresh_token|id_token|code|code_verifier|client_secret|assertion|subject_token)=)[^&\s"]+/gi;

/** Removes secrets from a message that may carry a URL or form body. */
export function redact(text: string): string {
  return text
    .replace(SECRET_PARAMS, '$1[redacted]')
    .replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]');
}

/**
 * Wraps an oauth4webapi failure from `step` into an {@link AuthorizationError} without its
 * secrets: `"<step> failed: <error> (<description>)"`, or `"<what>: …"` when `what` is given.
 */
export function wrapError(step: string, error: unknown, what = `${step} failed`): AuthorizationError {
  if (error instanceof AuthorizationError) return error;
  const detail = oauthErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
  return new AuthorizationError(redact(`${what}: ${detail}`));
}

function oauthErrorCode(error: unknown): string | undefined {
  const value = error as { error?: unknown; error_description?: unknown } | null;
  if (value && typeof value.error === 'string') {
    return typeof value.error_description === 'string'
      ? `${value.error} (${value.error_description})`
      : value.error;
  }
  return undefined;
}
