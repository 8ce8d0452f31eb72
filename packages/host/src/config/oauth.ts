/**
 * An HTTP server's own OAuth client settings: the pre-registered client and the scope to ask its
 * authorization server for. Read from `oauth` (Claude Code's object: `clientId`, and `scopes` as
 * one space-separated string; mcpkit adds `clientSecret` and OAuth's own `scope`) or from
 * Cursor's `auth` (`CLIENT_ID`, `CLIENT_SECRET`, an array of `scopes`).
 * @module
 */
import { HostConfigError } from '../errors.js';
import { isRecord } from './fields.js';
import type { OAuthEntry } from './types.js';

/** How one host's config names the client settings. */
interface Dialect {
  readonly object: 'oauth' | 'auth';
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every field it may hold. */
  readonly fields: readonly string[];
}

const CLAUDE_CODE: Dialect = {
  object: 'oauth',
  clientId: 'clientId',
  clientSecret: 'clientSecret',
  fields: ['clientId', 'clientSecret', 'scope', 'scopes'],
};
const CURSOR: Dialect = {
  object: 'auth',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
  fields: ['CLIENT_ID', 'CLIENT_SECRET', 'scopes'],
};

/** Fields other hosts accept that mcpkit does not, with why (shown as the hint). */
const NOT_SUPPORTED: Readonly<Record<string, string>> = {
  callbackPort:
    'mcpkit registers as a native app (RFC 8252), whose loopback redirect may use any port; register http://127.0.0.1/callback',
  authServerMetadataUrl:
    'mcpkit finds the authorization server from the server (RFC 9728, then RFC 8414); drop the field',
};

/**
 * Checks an entry's `oauth` (or Cursor's `auth`) object; `undefined` when it has neither. Every
 * field is optional, but a secret needs its client id; unknown fields are refused, naming the
 * server and the field.
 *
 * @throws {HostConfigError} naming the file, the server and the field.
 * @example
 * ```ts
 * checkOAuth('mcp.json: server "crm"', { url: 'https://crm.example/mcp', oauth: { clientId: 'mcpkit', scope: 'crm:read' } });
 * // { clientId: 'mcpkit', scope: 'crm:read' }
 * ```
 */
export function checkOAuth(where: string, entry: Record<string, unknown>): OAuthEntry | undefined {
  if (entry.oauth !== undefined && entry.auth !== undefined) {
    throw new HostConfigError(`${where} has both "oauth" and "auth"; keep one`);
  }
  const dialect = entry.auth !== undefined ? CURSOR : CLAUDE_CODE;
  const value = entry[dialect.object];
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new HostConfigError(
      `${where}: "${dialect.object}" must be an object`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own variable syntax
      '"oauth": { "clientId": "…", "clientSecret": "${env:NAME}", "scope": "a b" }',
    );
  }
  const name = (key: string) => `"${dialect.object}.${key}"`;
  for (const key of Object.keys(value)) {
    if (dialect.fields.includes(key)) continue;
    throw new HostConfigError(
      `${where}: ${name(key)} is not a field mcpkit knows`,
      NOT_SUPPORTED[key] ?? `"${dialect.object}" takes ${dialect.fields.join(', ')}`,
    );
  }
  const text = (key: string): string | undefined => {
    const field = value[key];
    if (field === undefined) return undefined;
    if (typeof field === 'string' && field.trim() !== '') return field.trim();
    throw new HostConfigError(`${where}: ${name(key)} must be a non-empty string`);
  };
  const clientId = text(dialect.clientId);
  const clientSecret = text(dialect.clientSecret);
  if (clientSecret !== undefined && clientId === undefined) {
    throw new HostConfigError(`${where}: ${name(dialect.clientSecret)} needs ${name(dialect.clientId)}`);
  }
  if (value.scope !== undefined && value.scopes !== undefined) {
    throw new HostConfigError(`${where}: "${dialect.object}" has both "scope" and "scopes"; keep one`);
  }
  const scope = text('scope') ?? scopes(`${where}: ${name('scopes')}`, value.scopes);
  return {
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(scope === undefined ? {} : { scope }),
  };
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
  throw new HostConfigError(`${where} must be a space-separated string or an array of scope names`);
}
