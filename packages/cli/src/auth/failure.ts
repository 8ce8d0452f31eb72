/**
 * Authorization failures as the user sees them, and the redaction of secrets from anything the
 * CLI prints. Light on purpose (no OAuth library imports): every command's error path loads it.
 * @module
 */
import { CliError, ExitCode } from '../errors.js';

/** Names whose values are secrets, in a URL, a form body or JSON. */
const SECRET_NAMES =
  'access_token|refresh_token|id_token|code_verifier|client_secret|assertion|subject_token|accessToken|refreshToken|clientSecret';
const SECRET_PARAM = new RegExp(`([?&\\s]|^)(${SECRET_NAMES})=[^&\\s"']+`, 'g');
// An authorization code only travels in a redirect URL's query; a JSON "code" is often a tool's own.
const CODE_PARAM = /([?&])code=[^&\s"']+/g;
const SECRET_JSON = new RegExp(`"(${SECRET_NAMES})"(\\s*):(\\s*)"[^"]*"`, 'g');
// "Bearer <token>" anywhere; any scheme's credentials after "Authorization:" ("Basic" alone is prose).
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const AUTHORIZATION = /(authorization["']?\s*[:=]\s*["']?[A-Za-z]+)\s+[^\s"',]+/gi;

/**
 * Replaces tokens, codes and secrets in `text` with `[redacted]`: bearer and basic credentials,
 * `access_token=…`-style parameters and their JSON forms.
 *
 * @example
 * ```ts
 * redactSecrets('Authorization: Bearer eyJhbGci.x.y'); // 'Authorization: Bearer [redacted]'
 * ```
 */
export function redactSecrets(text: string): string {
  return text
    .replace(AUTHORIZATION, '$1 [redacted]')
    .replace(BEARER, '$1 [redacted]')
    .replace(SECRET_PARAM, '$1$2=[redacted]')
    .replace(CODE_PARAM, '$1code=[redacted]')
    .replace(SECRET_JSON, '"$1"$2:$3"[redacted]"');
}

/**
 * An authorization failure of `@mcpkit/auth` (found by name, so this module needs no import of
 * it) as a `CliError` with exit code 3.
 *
 * @example
 * ```ts
 * const failure = authFailure(error, 'https://mcp.example.com/mcp'); // CliError or undefined
 * ```
 */
export function authFailure(error: unknown, targetHint: string | undefined): CliError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof CliError) return current;
    if (current.name === 'AuthorizationError') {
      const denied = /\baccess_denied\b/.test(current.message);
      return new CliError(
        ExitCode.Connection,
        `Could not log in: ${current.message}`,
        denied
          ? `The authorization server refused the login. If it refused the scope asked for, name one it grants: mcpkit login ${targetHint ?? 'URL'} --scope SCOPE`
          : `Rerun with --verbose to see each step; "mcpkit logout ${targetHint ?? 'URL'}" forgets cached tokens`,
      );
    }
    current = current.cause;
  }
  return undefined;
}
