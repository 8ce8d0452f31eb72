/**
 * Serving MCP over HTTP from the CLI (`mcpkit serve --http`, `mcpkit gateway --http`): one Node
 * server that routes by path, a clear error when the port cannot be had, and a stop that does not
 * wait for streams that never end by themselves.
 * @module
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServeSettings } from './args.js';
import { CliError, ExitCode } from './errors.js';

/** Where to listen (`--host`, `--port`). */
type ListenAt = Pick<ServeSettings, 'host' | 'port'>;

/**
 * The Streamable HTTP endpoint's path.
 *
 * @example
 * ```ts
 * const url = `http://127.0.0.1:3000${MCP_PATH}`;
 * ```
 */
export const MCP_PATH = '/mcp';

/**
 * Starts an HTTP server on `settings.host:settings.port` that hands each request to the listener
 * `route` picks by path; a path it does not know gets a 404 that names the MCP endpoint. Resolves
 * once listening, with the base URL (`http://host:port`, an IPv6 host in brackets).
 *
 * @throws {CliError} when the port is in use or not allowed.
 * @example
 * ```ts
 * declare const mcp: RequestListener;
 * const { http, base } = await startHttp({ host: '127.0.0.1', port: 0 }, (path) => (path === MCP_PATH ? mcp : undefined));
 * console.log(`${base}${MCP_PATH}`);
 * ```
 */
export async function startHttp(
  settings: ListenAt,
  route: (path: string) => RequestListener | undefined,
): Promise<{ http: Server; base: string }> {
  const http = createServer((req, res) => {
    const listener = route((req.url ?? '/').split('?', 1)[0] ?? '/');
    if (listener) listener(req, res);
    else
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`Not found. The MCP endpoint is ${MCP_PATH}\n`);
  });
  await listen(http, settings);
  const port = (http.address() as AddressInfo).port;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return { http, base: `http://${host}:${port}` };
}

/**
 * Closes `http`, cutting its open connections (an SSE stream never ends by itself).
 *
 * @example
 * ```ts
 * declare const http: Server;
 * await stopHttp(http);
 * ```
 */
export function stopHttp(http: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  return closed;
}

/** Listens on `settings.host:settings.port`; a port in use or not allowed is a clear CLI error. */
function listen(http: Server, settings: ListenAt): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new CliError(
            ExitCode.Connection,
            `Port ${settings.port} on ${settings.host} is already in use`,
            'Stop the other server, or pick another port: --port 3001 (or --port 0 for any free one)',
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new CliError(
            ExitCode.Connection,
            `No permission to listen on port ${settings.port}`,
            'Use a port above 1023',
          ),
        );
      } else {
        reject(
          new CliError(
            ExitCode.Connection,
            `Could not listen on ${settings.host}:${settings.port}: ${error.code ?? error.message}`,
          ),
        );
      }
    });
    http.listen(settings.port, settings.host, () => resolve());
  });
}
