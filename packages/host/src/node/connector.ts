/**
 * The Node.js connector: stdio servers spawned through `@mcpkit/node`, HTTP as everywhere.
 * @module
 */
import { type StdioClientOptions, StdioClientTransport } from '@mcpkit/node/stdio';
import type { ServerEntry } from '../config.js';
import { type Connector, type HttpConnectorOptions, httpConnector } from '../connection/connector.js';

/**
 * Options of {@link nodeConnector}.
 *
 * @example
 * ```ts
 * const options: NodeConnectorOptions = { onStderr: (server, text) => log.debug(server, text) };
 * ```
 */
export interface NodeConnectorOptions extends HttpConnectorOptions {
  /** Receives each server's stderr text, labelled with the server. Default: discarded. */
  onStderr?: (server: string, text: string) => void;
  /** Which of this process's variables servers inherit (see `StdioClientOptions.inheritEnv`). */
  inheritEnv?: StdioClientOptions['inheritEnv'];
}

/**
 * A connector that spawns stdio servers (a fresh process on each restart) and reaches URL
 * servers over HTTP.
 *
 * @example
 * ```ts
 * const host = new McpHost({ servers, connector: nodeConnector({ onStderr: (s, t) => process.stderr.write(`[${s}] ${t}`) }) });
 * ```
 */
export function nodeConnector(options: NodeConnectorOptions = {}): Connector {
  const http = httpConnector(options);
  return (entry: ServerEntry) => {
    if (entry.kind !== 'stdio') return http(entry);
    const onStderr = options.onStderr;
    return new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: entry.env,
      ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
      ...(options.inheritEnv === undefined ? {} : { inheritEnv: options.inheritEnv }),
      stderr: onStderr ? 'pipe' : 'ignore',
      // A gateway forwards a downstream burst in one tick: one write to the upstream at its end,
      // not one each (nor the first at once and the rest after: 'after-first' cost the gateway and
      // its upstream about a tenth more CPU per call, bench/gateway-cpu.mjs, see docs/benchmarks.md).
      coalesceWrites: true,
      ...(onStderr ? { onStderr: (text: string) => onStderr(entry.name, text) } : {}),
    });
  };
}
