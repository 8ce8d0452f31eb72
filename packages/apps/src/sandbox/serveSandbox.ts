/**
 * The sandbox proxy page on a loopback origin of its own, for hosts served from Node (the CLI,
 * tests, local tools): a `node:http` server on 127.0.0.1 that checks the `Host` header (no DNS
 * rebinding) and answers with `sandboxResponse`.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxResponse } from './sandboxResponse.js';

/**
 * Where to listen.
 *
 * @example
 * ```ts
 * const options: SandboxServerOptions = { port: 4100 };
 * ```
 */
export interface SandboxServerOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** A loopback address. Default `127.0.0.1`. */
  hostname?: string;
  /** The page's path. Default `/sandbox`. */
  path?: string;
}

/**
 * A running sandbox server.
 *
 * @example
 * ```ts
 * const sandbox = await serveSandbox();
 * console.log(sandbox.url); // http://127.0.0.1:41234/sandbox
 * await sandbox.close();
 * ```
 */
export interface SandboxServer {
  /** The page's URL: give it to `mount()` as `sandbox`. */
  readonly url: string;
  readonly origin: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Serves the sandbox proxy page on its own loopback origin.
 *
 * @throws {TypeError} for a hostname that is not loopback.
 * @example
 * ```ts
 * import { serveSandbox } from '@mcpkit/apps/sandbox';
 *
 * const sandbox = await serveSandbox({ port: 4100 });
 * // the host page mounts views with { sandbox: sandbox.url }
 * ```
 */
export async function serveSandbox(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  if (!LOOPBACK.has(hostname))
    throw new TypeError(`The sandbox server binds to loopback only (got ${hostname})`);
  const path = options.path ?? '/sandbox';
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const expected = new URL(origin).host;
    if (req.headers.host !== expected) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request\n');
      return;
    }
    const response = sandboxResponse(
      new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET' }),
      path,
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    void response.text().then((body) => res.end(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  return {
    url: `${origin}${path}`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
