/**
 * An HTTP server's own OAuth client settings (`oauth` in its entry): the pre-registered client
 * and the scope to ask its authorization server for. The names are Claude Code's (`oauth.clientId`,
 * `oauth.scopes` as one space-separated string) and OAuth's own (`scope`); Cursor's array of
 * `scopes` is read too.
 * @module
 */
import { HostConfigError } from '../errors.js';
import { isRecord } from './fields.js';
import type { OAuthEntry } from './types.js';

const FIELDS = ['clientId', 'clientSecret', 'scope', 'scopes'] as const;

/** Fields other hosts accept that mcpkit does not, with why (shown as the hint). */
const NOT_SUPPORTED: Readonly<Record<string, string>> = {
  callbackPort:
    'mcpkit registers as a native app (RFC 8252), whose loopback redirect may use any port; register http://127.0.0.1/callback',
  authServerMetadataUrl:
    'mcpkit finds the authorization server from the server (RFC 9728, then RFC 8414); drop the field',
};

/**
 * Checks an entry's `oauth` object (absent: `undefined`). Every field is optional, but a
 * `clientSecret` needs its `clientId`; unknown fields are refused, naming the server and field.
 *
 * @throws {HostConfigError} naming the file, the server and the field.
 * @example
 * ```ts
 * checkOAuth('mcp.json: server "crm"', { clientId: 'mcpkit', scope: 'crm:read' });
 * // { clientId: 'mcpkit', scope: 'crm:read' }
 * ```
 */
export function checkOAuth(where: string, value: unknown): OAuthEntry | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new HostConfigError(
      `${where}: "oauth" must be an object`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own variable syntax
      '"oauth": { "clientId": "…", "clientSecret": "${env:NAME}", "scope": "a b" }',
    );
  }
  for (const key of Object.keys(value)) {
    if ((FIELDS as readonly string[]).includes(key)) continue;
    throw new HostConfigError(
      `${where}: "oauth.${key}" is not a field mcpkit knows`,
      NOT_SUPPORTED[key] ?? `"oauth" takes ${FIELDS.join(', ')}`,
    );
  }
  const clientId = text(where, value, 'clientId');
  const clientSecret = text(where, value, 'clientSecret');
  if (clientSecret !== undefined && clientId === undefined) {
    throw new HostConfigError(`${where}: "oauth.clientSecret" needs "oauth.clientId"`);
  }
  if (value.scope !== undefined && value.scopes !== undefined) {
    throw new HostConfigError(`${where}: "oauth" has both "scope" and "scopes"; keep one`);
  }
  const scope = text(where, value, 'scope') ?? scopes(where, value.scopes);
  return {
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(scope === undefined ? {} : { scope }),
  };
}

/** A non-empty string field of `oauth`, or `undefined` when absent. */
function text(where: string, oauth: Record<string, unknown>, key: string): string | undefined {
  const value = oauth[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new HostConfigError(`${where}: "oauth.${key}" must be a non-empty string`);
}

/** `scopes`: one space-separated string (Claude Code) or an array of scope names (Cursor). */
function scopes(where: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  const words = Array.isArray(value) ? value : [];
  if (
    words.length > 0 &&
    words.every((word) => typeof word === 'string' && word !== '' && !/\s/.test(word))
  ) {
    return words.join(' ');
  }
  throw new HostConfigError(
    `${where}: "oauth.scopes" must be a space-separated string or an array of scope names`,
  );
}
