/**
 * How the host reaches a server: a connector turns a config entry into a transport. The core of
 * the host only knows HTTP (web `fetch`); stdio servers need `@mcpkit/host/node`'s connector.
 * @module
 */

import { HttpClientTransport, SseClientTransport } from '@mcpkit/client/http';
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
 * The runtime-neutral connector: Streamable HTTP (falling back to legacy HTTP+SSE), or SSE when
 * the entry's `type` says so. A stdio entry is refused with a hint.
 *
 * @example
 * ```ts
 * const host = new McpHost({ servers, connector: httpConnector });
 * ```
 */
export const httpConnector: Connector = (entry) => {
  if (entry.kind === 'stdio') {
    throw new HostConfigError(
      `Server "${entry.name}" is a stdio server, and this host has no way to start processes`,
      "Pass connector: nodeConnector() from '@mcpkit/host/node'",
    );
  }
  const options = { headers: { ...entry.headers } };
  return entry.transport === 'sse'
    ? new SseClientTransport(entry.url, options)
    : new HttpClientTransport(entry.url, options);
};
