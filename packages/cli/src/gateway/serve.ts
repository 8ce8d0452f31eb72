/**
 * `mcpkit gateway`: every server of a config file served as one MCP server, over stdio or
 * Streamable HTTP, until the client closes stdin or Ctrl-C.
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { toNodeListener } from '@mcpkit/node/http';
import { StdioServerTransport } from '@mcpkit/node/stdio';
import type { GatewaySettings } from '../args.js';
import { loadAllServers } from '../config.js';
import { listen, MCP_PATH } from '../demo/serve.js';
import { ExitCode } from '../errors.js';
import type { CliIo } from '../run.js';
import { untilStopped } from '../stopped.js';

/**
 * Runs the gateway until stdin closes (stdio) or Ctrl-C.
 *
 * @example
 * ```ts
 * const code = await runGateway({ config: 'mcp.json', transport: 'stdio', port: 3000, host: '127.0.0.1' }, processIo());
 * ```
 */
export async function runGateway(settings: GatewaySettings, io: CliIo): Promise<number> {
  const log = (line: string) => io.stderr.write(`[mcpkit gateway] ${line}\n`);
  const servers = await loadAllServers(settings.config, io.env);
  const gateway = createGateway({
    host: {
      servers,
      connector: nodeConnector(),
      onNameCollision: ({ name }) => log(`two servers still share the name "${name}"; both get a suffix`),
    },
  });
  log(`serving ${servers.length} server(s) of ${settings.config}: ${servers.map((s) => s.name).join(', ')}`);
  if (settings.transport === 'stdio') {
    const session = gateway.connect(new StdioServerTransport());
    await untilStopped(io, (stop) => session.onClose(stop));
  } else {
    await serveHttp(gateway, settings, io, log);
  }
  await gateway.close();
  return ExitCode.Success;
}

async function serveHttp(
  gateway: McpGateway,
  settings: GatewaySettings,
  io: CliIo,
  log: (line: string) => void,
): Promise<void> {
  const listener = toNodeListener(gateway.httpHandler(), {
    onError: (error) => log(`HTTP error: ${error.message}`),
  });
  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === MCP_PATH) listener(req, res);
    else if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
      const { status, body } = health(gateway, path);
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
    } else
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`Not found. The MCP endpoint is ${MCP_PATH}\n`);
  });
  await listen(http, settings);
  const port = (http.address() as AddressInfo).port;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  io.stdout.write(`http://${host}:${port}${MCP_PATH}\n`);
  await untilStopped(io);
  log('shutting down');
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  await closed;
}

/**
 * `/healthz`: the process serves. `/readyz`: 200 when no upstream is failed, degraded or
 * restarting, else 503; each upstream's state and restarts, without error texts (they can name
 * paths and hosts).
 */
function health(gateway: McpGateway, path: string): { status: number; body: string } {
  if (path === '/healthz') return { status: 200, body: '{"status":"ok"}\n' };
  const { ready, servers } = gateway.readiness();
  const rows = servers.map(({ server, state, restarts }) => ({ server, state, restarts }));
  return { status: ready ? 200 : 503, body: `${JSON.stringify({ ready, servers: rows })}\n` };
}
