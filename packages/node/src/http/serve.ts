/**
 * A one-call Node HTTP server for a web-standard handler.
 * @module
 */
import { createServer, type Server as NodeHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ExtraAwareHandler,
  type FetchHandler,
  type NodeListenerOptions,
  toNodeListener,
} from './adapter.js';

/** Options of {@link serve}. */
export interface ServeOptions<Extra = never> extends NodeListenerOptions<Extra> {
  /** TCP port; 0 picks a free one (read it from the returned `url`). Default 0. */
  port?: number;
  /**
   * Interface to bind. Default `127.0.0.1`: a local MCP server must not be reachable from the
   * network. Binding a public interface also needs `allowedHosts` on the handler.
   */
  host?: string;
  /**
   * Serve only this path (other paths get 404); `url` then ends with it. Default: every path.
   * The paths a handler lists in `wellKnownPaths` are served too: `protect()` of
   * `@mcpkit/auth/server` lists its metadata documents there, which its 401 points clients to.
   */
  path?: string;
  /**
   * A client must send its request headers within this many ms of connecting, or the connection
   * is cut (slow header-drip clients hold sockets otherwise). Default 10 000.
   */
  headersTimeout?: number;
  /**
   * A client must send its whole request (headers and body) within this many ms. Only receiving
   * counts: a long SSE response is not cut. Default 30 000.
   */
  requestTimeout?: number;
}

/**
 * A handler that may have resources to release when the server stops, and may answer paths
 * besides `path` (`protect()`'s Protected Resource Metadata documents).
 */
type Closable<Handler> = Handler & {
  close?: () => Promise<void>;
  readonly wellKnownPaths?: readonly string[];
};

/** Tighter than Node's own (60 s and 300 s, checked every 30 s): a drip is cut within seconds. */
const TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, checkEvery: 1_000 } as const;

/** A running server. */
export interface ServedHandler {
  /** The base URL, including `path` when one was given, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  /** The underlying Node server, for tuning timeouts or attaching listeners. */
  readonly server: NodeHttpServer;
  /** Stops listening, drops open connections (SSE streams included) and closes the handler. */
  close(): Promise<void>;
}

/**
 * Serves `handler` over `node:http`, bound to 127.0.0.1 unless told otherwise.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler(server);
 * const { url, close } = await serve(handler, { port: 3000, path: '/mcp' });
 * console.error(`MCP endpoint: ${url}`);
 * process.on('SIGTERM', () => void close());
 * ```
 */
export function serve(handler: Closable<FetchHandler>, options?: ServeOptions): Promise<ServedHandler>;
export function serve<Extra>(
  handler: Closable<ExtraAwareHandler<Extra>>,
  options: ServeOptions<Extra>,
): Promise<ServedHandler>;
export async function serve<Extra>(
  handler: Closable<FetchHandler | ExtraAwareHandler<Extra>>,
  options: ServeOptions<Extra> = {},
): Promise<ServedHandler> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path;
  const extraPaths = new Set(handler.wellKnownPaths ?? []);
  const listener = toNodeListener(handler as ExtraAwareHandler<Extra>, options);
  const requestTimeout = options.requestTimeout ?? TIMEOUTS.requestTimeout;
  const headersTimeout = options.headersTimeout ?? TIMEOUTS.headersTimeout;
  const timeouts = {
    requestTimeout,
    // Node requires headersTimeout <= requestTimeout (0 turns requestTimeout off).
    headersTimeout: requestTimeout > 0 ? Math.min(headersTimeout, requestTimeout) : headersTimeout,
    connectionsCheckingInterval: TIMEOUTS.checkEvery,
  };
  const server = createServer(
    timeouts,
    path === undefined
      ? listener
      : (req, res) => {
          const url = req.url ?? '/';
          const query = url.indexOf('?');
          const requested = query === -1 ? url : url.slice(0, query);
          if (requested === path || extraPaths.has(requested)) listener(req, res);
          else res.writeHead(404, { 'content-length': '0' }).end();
        },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${port}${path ?? ''}`,
    port,
    server,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await handler.close?.();
      await closed;
    },
  };
}
