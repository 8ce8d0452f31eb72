/**
 * How the host reaches a server: a connector turns a config entry into a transport. The core of
 * the host only knows HTTP (web `fetch`); stdio servers need `@mcpkit/host/node`'s connector.
 * @module
 */

import {
  type AuthProvider,
  type FetchLike,
  HttpClientTransport,
  SseClientTransport,
} from '@mcpkit/client/http';
import type { Transport } from '@mcpkit/core';
import type { ServerEntry } from '../config.js';
import { HostConfigError } from '../errors.js';

/**
 * Makes a fresh transport for a server each time it is (re)started.
 *
 * @example
 * ```ts
 * const connector: Connector = (entry) => myTransportFor(entry);
 * ```
 */
export type Connector = (entry: ServerEntry) => Transport | Promise<Transport>;

/**
 * Options of {@link httpConnector}.
 *
 * @example
 * ```ts
 * const options: HttpConnectorOptions = { authProvider: (entry) => providers.get(entry.name) };
 * ```
 */
export interface HttpConnectorOptions {
  /**
   * The OAuth client of a remote server (e.g. `@mcpkit/auth/client`'s `OAuthClientProvider`, with
   * the host's token store), chosen per server so no token reaches another server. Asked once per
   * server: reconnections and restarts reuse the same provider, so they never log in again.
   */
  authProvider?: (entry: ServerEntry & { kind: 'url' }) => AuthProvider | undefined;
  /** The `fetch` to use. Default: the global one. */
  fetch?: FetchLike;
}

/**
 * The runtime-neutral connector: Streamable HTTP (falling back to legacy HTTP+SSE), or SSE when
 * the entry's `type` says so. A stdio entry is refused with a hint.
 *
 * @example
 * ```ts
 * const host = new McpHost({ servers, connector: httpConnector({ authProvider: (entry) => oauthFor(entry.url) }) });
 * ```
 */
export function httpConnector(options: HttpConnectorOptions = {}): Connector {
  const providers = new WeakMap<ServerEntry, AuthProvider | undefined>();
  const providerOf = (entry: ServerEntry & { kind: 'url' }) => {
    if (!providers.has(entry)) providers.set(entry, options.authProvider?.(entry));
    return providers.get(entry);
  };
  return (entry) => {
    if (entry.kind === 'stdio') {
      throw new HostConfigError(
        `Server "${entry.name}" is a stdio server, and this host has no way to start processes`,
        "Pass connector: nodeConnector() from '@mcpkit/host/node'",
      );
    }
    const authProvider = providerOf(entry);
    const transportOptions = {
      headers: { ...entry.headers },
      ...(authProvider ? { authProvider } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
    return entry.transport === 'sse'
      ? new SseClientTransport(entry.url, transportOptions)
      : new HttpClientTransport(entry.url, transportOptions);
  };
}
