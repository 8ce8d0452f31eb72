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
  /**
   * Receives each server's stderr text, labelled with the server. Default: not passed on (the
   * last line still explains a server's exit in its state's error).
   */
  onStderr?: (server: string, text: string) => void;
  /** Which of this process's variables servers inherit (see `StdioClientOptions.inheritEnv`). */
  inheritEnv?: StdioClientOptions['inheritEnv'];
  /**
   * The stdio transport's limits for every server (see `StdioClientOptions`): a server past one
   * loses its connection and is restarted, and the others never notice. Default: the transport's.
   */
  limits?: StdioLimits;
}

/**
 * The limits of {@link NodeConnectorOptions.limits}.
 *
 * @example
 * ```ts
 * const limits: StdioLimits = { maxMessageBytes: 4 * 1024 * 1024, maxIncomingPerSecond: 500 };
 * ```
 */
export type StdioLimits = Pick<
  StdioClientOptions,
  'maxMessageBytes' | 'maxJsonDepth' | 'maxWriteQueueBytes' | 'maxIncomingPerSecond'
>;

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
      ...options.limits,
      command: entry.command,
      args: entry.args,
      env: entry.env,
      ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
      ...(options.inheritEnv === undefined ? {} : { inheritEnv: options.inheritEnv }),
      // Always piped (read continuously, only its last 2 KiB kept): a server that dies says why
      // in its state (`host.status()`, `list --config`), with the tail of its stderr.
      stderr: 'pipe',
      // A gateway forwards a downstream burst in one tick: one write to the upstream at its end,
      // not one each (nor the first at once and the rest after: 'after-first' cost the gateway and
      // its upstream about a tenth more CPU per call, bench/gateway-cpu.mjs, see docs/benchmarks.md).
      coalesceWrites: true,
      ...(onStderr ? { onStderr: (text: string) => onStderr(entry.name, text) } : {}),
    });
  };
}
