/**
 * `mcpkit gateway`: every server of a config file served as one MCP server, over stdio or
 * Streamable HTTP, until the client closes stdin or Ctrl-C.
 * @module
 */
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { toNodeListener } from '@mcpkit/node/http';
import type { GatewaySettings } from '../args.js';
import type { CliIo } from '../cliIo.js';
import { loadAllServers } from '../config.js';
import { ExitCode } from '../errors.js';
import { MCP_PATH, startHttp, stopHttp } from '../httpServe.js';
import { type CliMetrics, cliObserver, startMetrics } from '../metrics.js';
import { serveStdioUntilStopped, untilStopped } from '../stopped.js';
import { stateLogger } from './stateLog.js';

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
  // A remote server asking for OAuth gets the tokens a login cached, refreshed with its entry's
  // client; the gateway opens no browser (it serves others, and its stdin may be their stream).
  const auth = servers.some((entry) => entry.kind === 'url')
    ? await import('../auth/hostAuth.js').then(({ hostAuth }) =>
        hostAuth(
          servers,
          { clientId: undefined, clientSecret: undefined, scope: undefined, login: false },
          {
            io,
            onTerminal: false,
            notice: log,
            trace: undefined,
            whyNot: 'the gateway opens no browser',
          },
          settings.config,
        ),
      )
    : undefined;
  const metrics =
    settings.metricsPort === undefined ? undefined : await startMetrics(settings.metricsPort, log);
  const sharing = settings.sharing ?? {};
  const gateway = createGateway({
    observer: cliObserver(settings, metrics, io),
    ...(sharing.upstreams === undefined ? {} : { upstreams: sharing.upstreams }),
    ...(sharing.lanes === undefined ? {} : { lanes: sharing.lanes }),
    host: {
      servers,
      connector: nodeConnector(auth ? { authProvider: auth.providerOf } : {}),
      ...(settings.era === undefined ? {} : { protocolEra: settings.era }),
      ...(settings.startBudgetMs === undefined ? {} : { startBudgetMs: settings.startBudgetMs }),
      ...(settings.maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeout: settings.maxTotalTimeoutMs }),
      ...(settings.apps ? { apps: true } : {}),
      // Why a server failed, restarted or took long: /readyz says only its state.
      onStateChange: stateLogger(log),
      onNameCollision: ({ name }) => log(`two servers still share the name "${name}"; both get a suffix`),
    },
  });
  log(`serving ${servers.length} server(s) of ${settings.config}: ${servers.map((s) => s.name).join(', ')}`);
  try {
    if (settings.transport === 'stdio') {
      await serveStdioUntilStopped(gateway, io);
    } else {
      await serveHttp(gateway, settings, io, log, metrics);
    }
  } finally {
    await gateway.close();
    await auth?.close();
    await metrics?.close();
  }
  return ExitCode.Success;
}

async function serveHttp(
  gateway: McpGateway,
  settings: GatewaySettings,
  io: CliIo,
  log: (line: string) => void,
  metrics: CliMetrics | undefined,
): Promise<void> {
  const sharing = settings.sharing ?? {};
  const handler = gateway.httpHandler({
    ...(sharing.sessionIdleMs === undefined ? {} : { sessionIdleTimeout: sharing.sessionIdleMs }),
    ...(sharing.sessionsPerClient === undefined ? {} : { maxSessionsPerClient: sharing.sessionsPerClient }),
  });
  // --metrics-port: open SSE streams and the event store's size, read when scraped.
  metrics?.watch(handler);
  const listener = toNodeListener(handler, {
    onError: (error) => log(`HTTP error: ${error.message}`),
  });
  const { http, base } = await startHttp(settings, (path) => {
    if (path === MCP_PATH) return listener;
    if (path !== '/healthz' && path !== '/readyz') return undefined;
    return (req, res) => {
      if (req.method !== 'GET') {
        res.writeHead(405, { allow: 'GET' }).end();
        return;
      }
      const { status, body } = health(gateway, path);
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
    };
  });
  io.stdout.write(`${base}${MCP_PATH}\n`);
  await untilStopped(io);
  log('shutting down');
  await stopHttp(http);
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
