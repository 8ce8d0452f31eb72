/**
 * The settings of the verbs that run a server: `serve` (the demo server) and `gateway` (the host
 * as one MCP server), with their addresses, authorization, rate limit and observability options.
 * @module
 */

import type { Values } from './argOptions.js';
import type { GatewaySettings, ServeSettings } from './argTypes.js';
import { isHttpUrl, parseDuration, parseEra } from './argValues.js';
import { usageError } from './errors.js';
import { gatewaySharing } from './gatewaySharing.js';

/** The demo server's default address, as the quickstart documents it. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3000;

export const SERVE_HINT = 'mcpkit serve --http --port 3000, or mcpkit serve --stdio';

/** The settings of `serve`, from its options. */
export function serveSettings(values: Values): ServeSettings {
  if (values.stdio && values.http) throw usageError('Choose one of --stdio and --http', SERVE_HINT);
  const transport = values.stdio ? 'stdio' : 'http';
  if (transport === 'stdio') {
    for (const name of ['port', 'host', 'stateless', 'json-response', 'auth-issuer', 'redis'] as const) {
      if (values[name] !== undefined) throw usageError(`--${name} applies to --http only`, SERVE_HINT);
    }
  }
  const authIssuer = optionalUrl(values, 'auth-issuer');
  const authAudience = optionalUrl(values, 'auth-audience');
  if (authAudience !== undefined && authIssuer === undefined) {
    throw usageError('--auth-audience needs --auth-issuer', 'mcpkit serve --http --auth-issuer URL');
  }
  const authScopes = scopeList(values['auth-scope'] as string | undefined);
  if (authScopes !== undefined && authIssuer === undefined) {
    throw usageError(
      '--auth-scope needs --auth-issuer',
      'mcpkit serve --http --auth-issuer URL --auth-scope mcp:read',
    );
  }
  const redis = values.redis as string | undefined;
  if (redis !== undefined && !/^rediss?:\/\//.test(redis)) {
    throw usageError(`--redis expects a redis:// or rediss:// URL, got "${redis}"`);
  }
  if (redis !== undefined && values.stateless === true) {
    throw usageError(
      '--redis and --stateless exclude each other',
      'a stateless server keeps no state to share',
    );
  }
  const settings: ServeSettings = {
    transport,
    ...listenAt(values),
    stateless: values.stateless === true,
    jsonResponse: values['json-response'] === true,
    ...(authIssuer === undefined ? {} : { authIssuer }),
    ...(authAudience === undefined ? {} : { authAudience }),
    ...(authScopes === undefined ? {} : { authScopes }),
    folders: (values.folder as string[] | undefined) ?? [],
    ...observing(values),
    ...(redis === undefined ? {} : { redis }),
  };
  const limit = values['rate-limit'] as string | undefined;
  return limit === undefined ? settings : { ...settings, rateLimit: parseRateLimit(limit) };
}

/** `--auth-scope "a b"`: space-separated scope tokens (RFC 6749 §3.3), at least one. */
function scopeList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(' ').filter((scope) => scope !== '');
  if (scopes.length === 0 || scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))) {
    throw usageError(
      `--auth-scope expects space-separated scopes, got "${value}"`,
      '--auth-scope "mcp:read mcp:write"',
    );
  }
  return scopes;
}

/**
 * The settings of `auth-server`: the port of 127.0.0.1 (default 9000; it binds nothing else).
 *
 * @example
 * ```ts
 * authServerSettings({ port: '0' }); // { port: 0 }
 * ```
 */
export function authServerSettings(values: Values): { port: number } {
  return { port: values.port === undefined ? 9000 : parsePort(values.port as string, 'port') };
}

/** `N/s` or `N/m`, optionally `,burst=B` (default twice the per-second rate, at least 1). */
const RATE_LIMIT = /^(\d{1,9}(?:\.\d{1,9})?)\/(s|m)(?:,burst=(\d{1,9}))?$/;

/**
 * Parses `--rate-limit`: `20/s` (20 per second, bursts of 40), `20/s,burst=5`, `30/m`.
 *
 * @throws {CliError} a usage error for anything else.
 * @example
 * ```ts
 * parseRateLimit('20/s,burst=40'); // { rate: 20, burst: 40 }
 * ```
 */
export function parseRateLimit(text: string): { rate: number; burst: number } {
  const match = RATE_LIMIT.exec(text);
  const count = Number(match?.[1]);
  if (!match || !(count > 0)) {
    throw usageError(
      `--rate-limit must look like 20/s, 20/s,burst=40 or 30/m, got "${text.slice(0, 40)}"`,
      'mcpkit serve --rate-limit 20/s',
    );
  }
  const rate = match[2] === 'm' ? count / 60 : count;
  const burst = match[3] === undefined ? Math.max(1, rate * 2) : Number(match[3]);
  if (burst < 1)
    throw usageError('--rate-limit: burst must be at least 1', 'mcpkit serve --rate-limit 20/s,burst=40');
  return { rate, burst };
}

export const GATEWAY_HINT = 'mcpkit gateway --config mcp.json --stdio, or --http [--port N --host H]';

/** The settings of `gateway`, from its options. */
export function gatewaySettings(values: Values): GatewaySettings {
  const config = values.config as string | undefined;
  if (config === undefined) throw usageError('"gateway" needs --config FILE', GATEWAY_HINT);
  if (values.stdio === values.http) throw usageError('Choose one of --stdio and --http', GATEWAY_HINT);
  if (values.stdio && (values.port !== undefined || values.host !== undefined)) {
    throw usageError('--port and --host apply to --http only', GATEWAY_HINT);
  }
  const sharing = gatewaySharing(values);
  if (values.stdio && (sharing.sessionIdleMs !== undefined || sharing.sessionsPerClient !== undefined)) {
    throw usageError('--session-idle and --sessions-per-client apply to --http only', GATEWAY_HINT);
  }
  return {
    ...(Object.keys(sharing).length > 0 ? { sharing } : {}),
    config,
    transport: values.stdio ? 'stdio' : 'http',
    port: values.port === undefined ? DEFAULT_HTTP_PORT : parsePort(values.port as string, 'port'),
    host: (values.host as string | undefined) ?? DEFAULT_HTTP_HOST,
    era: parseEra(values.era as string | undefined, '2025'),
    ...observing(values),
    ...upstreamSettings(values),
  };
}

/** `--start-budget DURATION`, `--max-total-timeout DURATION` and `--apps`, when given. */
function upstreamSettings(values: Values): {
  startBudgetMs?: number;
  maxTotalTimeoutMs?: number;
  apps?: boolean;
} {
  const budget = values['start-budget'] as string | undefined;
  const total = values['max-total-timeout'] as string | undefined;
  return {
    ...(budget === undefined ? {} : { startBudgetMs: parseDuration(budget, 'start-budget') }),
    ...(total === undefined ? {} : { maxTotalTimeoutMs: parseDuration(total, 'max-total-timeout') }),
    ...(values.apps === true ? { apps: true } : {}),
  };
}

/** `--metrics-port N` and `--log-json`, when given. */
function observing(values: Values): { metricsPort?: number; logJson?: boolean } {
  const text = values['metrics-port'] as string | undefined;
  return {
    ...(text === undefined ? {} : { metricsPort: parsePort(text, 'metrics-port') }),
    ...(values['log-json'] === true ? { logJson: true } : {}),
  };
}

function optionalUrl(values: Values, name: 'auth-issuer' | 'auth-audience'): string | undefined {
  const text = values[name] as string | undefined;
  if (text === undefined) return undefined;
  if (!isHttpUrl(text)) throw usageError(`--${name} expects an http(s) URL, got "${text}"`);
  return text;
}

/**
 * Where an HTTP front listens: `--port` (default 3000) and `--host` (default 127.0.0.1).
 *
 * @example
 * ```ts
 * listenAt({ port: '0' }); // { port: 0, host: '127.0.0.1' }
 * ```
 */
export function listenAt(values: Values): { port: number; host: string } {
  return {
    port: values.port === undefined ? DEFAULT_HTTP_PORT : parsePort(values.port as string, 'port'),
    host: (values.host as string | undefined) ?? DEFAULT_HTTP_HOST,
  };
}

/** A port number from the command line (0: any free one); a usage error for anything else. */
function parsePort(text: string, name: 'port' | 'metrics-port'): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port > 65535) {
    throw usageError(
      `--${name} must be a number from 0 to 65535, got "${text}"`,
      `Use --${name} 0 for any free port`,
    );
  }
  return port;
}
