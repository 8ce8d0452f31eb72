/**
 * `mcpkit serve`: the demo server over stdio or Streamable HTTP (with the legacy HTTP+SSE
 * endpoint beside it, for old clients).
 * @module
 */
import type { RequestListener } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveFolder } from '@mcpkit/node/folder';
import { toNodeListener } from '@mcpkit/node/http';
import type { McpServer } from '@mcpkit/server';
import { type HttpGate, rateLimit } from '@mcpkit/server/guards';
import {
  createLegacySseHandler,
  createStreamableHttpHandler,
  type McpHttpHandler,
} from '@mcpkit/server/http';
import type { ServeSettings } from '../args.js';
import type { CliIo } from '../cliIo.js';
import { CliError, ExitCode } from '../errors.js';
import { MCP_PATH, startHttp, stopHttp } from '../httpServe.js';
import { cliObserver, startMetrics } from '../metrics.js';
import { createStyle, type Style, wantsColor } from '../output.js';
import { serveStdioUntilStopped, untilStopped } from '../stopped.js';
import type { ClusterNode } from './cluster.js';
import { createDemoServer } from './server.js';

/**
 * The legacy HTTP+SSE endpoint's path (GET for the event stream, POST for messages).
 *
 * @example
 * ```ts
 * const legacyUrl = `http://127.0.0.1:3000${LEGACY_SSE_PATH}`;
 * ```
 */
export const LEGACY_SSE_PATH = '/sse';

/** The `mcpkit` executable of this checkout (the same relative path from src/ and dist/). */
const BIN_PATH = fileURLToPath(new URL('../../bin/mcpkit.js', import.meta.url));

/**
 * Runs the demo server until Ctrl-C (HTTP) or until the client closes stdin (stdio).
 *
 * @example
 * ```ts
 * const code = await serve({ transport: 'http', port: 3000, host: '127.0.0.1', stateless: false, jsonResponse: false, folders: [] }, processIo());
 * ```
 */
export async function serve(settings: ServeSettings, io: CliIo): Promise<number> {
  const log = (line: string) => io.stderr.write(`[mcpkit demo] ${line}\n`);
  // Stateless HTTP gives every request a fresh session, so a task could never be reached again.
  const stateless = settings.transport === 'http' && settings.stateless;
  const metrics =
    settings.metricsPort === undefined ? undefined : await startMetrics(settings.metricsPort, log);
  // With --redis, sessions, streams and tasks live in Redis: this process is one node of a cluster.
  const cluster =
    settings.transport === 'http' && settings.redis !== undefined
      ? await (await import('./cluster.js')).joinCluster(settings.redis, log)
      : undefined;
  const server = createDemoServer({
    log,
    tasks: !stateless,
    stateless,
    taskStore: cluster?.taskStore,
    serverOptions: {
      observer: cliObserver(settings, metrics, io),
      ...(cluster ? { requestStateKeys: cluster.requestStateKeys } : {}),
    },
  });
  serveFolders(server, settings.folders, io, log);
  // Per principal when a request carries one, else per session (per address on stateless HTTP);
  // with --redis the buckets live in Redis, so the limit holds across the cluster's nodes.
  const store = cluster?.rateLimitStore;
  const limiter = settings.rateLimit
    ? rateLimit(store ? { ...settings.rateLimit, store } : settings.rateLimit)
    : undefined;
  if (limiter) {
    server.use(limiter);
    const { rate, burst } = settings.rateLimit!;
    log(`rate limit: ${rate} requests per second per client, bursts of ${burst}`);
  }
  try {
    return settings.transport === 'stdio'
      ? await serveStdio(server, io, log)
      : await serveHttp(server, settings, io, log, limiter?.httpGate, cluster, metrics?.watch);
  } finally {
    await cluster?.close();
    await metrics?.close();
  }
}

/** `--folder DIR…`: each directory as read-only `file://` resources beside the demo's own. */
function serveFolders(
  server: McpServer,
  folders: readonly string[],
  io: CliIo,
  log: (line: string) => void,
): void {
  for (const folder of folders) {
    try {
      const served = serveFolder(server, resolve(io.cwd, folder), { watch: true });
      log(`serving the folder ${served.root} read-only as ${served.uriTemplate}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^serveFolder: /, '') : String(error);
      throw new CliError(
        ExitCode.Usage,
        `Cannot serve --folder ${folder}: ${reason}`,
        folderHint(reason, io.cwd),
      );
    }
  }
}

/** Stdio: stdout carries nothing but protocol; every human-readable line goes to stderr. */
async function serveStdio(server: McpServer, io: CliIo, log: (line: string) => void): Promise<number> {
  log('serving one client on stdio');
  await serveStdioUntilStopped(server, io);
  await server.close();
  return ExitCode.Success;
}

async function serveHttp(
  server: McpServer,
  settings: ServeSettings,
  io: CliIo,
  log: (line: string) => void,
  gate: HttpGate | undefined,
  cluster: ClusterNode | undefined,
  watch: ((handler: McpHttpHandler) => unknown) | undefined,
): Promise<number> {
  const streamable = createStreamableHttpHandler(server, {
    stateless: settings.stateless,
    enableJsonResponse: settings.jsonResponse,
    gate,
    ...cluster?.handlerOptions,
  });
  const legacy = createLegacySseHandler(server);
  // --metrics-port: open SSE streams and the event store's size, read when scraped.
  watch?.(streamable);
  watch?.(legacy);
  const onError = (error: Error) => log(`HTTP error: ${error.message}`);
  // With --auth-issuer, /mcp and its metadata go through `protect`, set up once the port is known.
  const auth = settings.authIssuer === undefined ? undefined : await import('./protected.js');
  const issuer = settings.authIssuer && (await auth?.issuerMetadata(settings.authIssuer));
  let guarded: { listener: RequestListener; paths: ReadonlySet<string> } | undefined;
  const mcpListener = toNodeListener(streamable, { onError });
  const legacyListener = toNodeListener(legacy, { onError });
  const { http, base } = await startHttp(settings, (path) => {
    if (guarded?.paths.has(path)) return guarded.listener;
    if (issuer) return undefined;
    return path === MCP_PATH ? mcpListener : path === LEGACY_SSE_PATH ? legacyListener : undefined;
  });
  if (auth && issuer) {
    const demo = auth.protectDemo(
      streamable,
      issuer,
      settings.authAudience,
      `${base}${MCP_PATH}`,
      settings.authScopes,
    );
    guarded = { listener: toNodeListener(demo.handler, { onError }), paths: demo.paths };
    log(`protected by ${issuer.issuer}: tokens must be issued for ${demo.resource}; legacy HTTP+SSE is off`);
  }
  io.stdout.write(
    banner(
      `${base}${MCP_PATH}`,
      // Protected, the legacy endpoint is off (it has no authorization): not advertised then.
      issuer ? undefined : `${base}${LEGACY_SSE_PATH}`,
      settings,
      createStyle(wantsColor(io.stdout, io.env)),
    ),
  );
  await untilStopped(io);
  log('shutting down');
  await Promise.allSettled([streamable.close(), legacy.close(), server.close(), stopHttp(http)]);
  return ExitCode.Success;
}

/**
 * What `mcpkit serve --http` prints: the URL first (on a line of its own, for scripts that wait
 * for it), then ready-to-paste ways to connect.
 *
 * @example
 * ```ts
 * declare const settings: ServeSettings;
 * declare const style: Parameters<typeof banner>[3];
 * process.stdout.write(banner('http://127.0.0.1:3000/mcp', 'http://127.0.0.1:3000/sse', settings, style));
 * ```
 */
export function banner(
  url: string,
  legacyUrl: string | undefined,
  settings: ServeSettings,
  style: Style,
): string {
  const mode = [
    settings.stateless ? 'stateless' : 'with sessions',
    settings.jsonResponse ? 'JSON responses' : 'SSE responses',
  ].join(', ');
  const config = JSON.stringify({ mcpServers: { 'mcpkit-demo': { url } } }, null, 2);
  const stdioConfig = JSON.stringify(
    { mcpServers: { 'mcpkit-demo': { command: process.execPath, args: [BIN_PATH, 'serve', '--stdio'] } } },
    null,
    2,
  );
  return `${style.bold('mcpkit demo server')} listening on ${style.cyan(url)}
${style.dim(`Streamable HTTP (${mode}); ${legacyUrl ? `legacy HTTP+SSE clients: ${legacyUrl}` : 'legacy HTTP+SSE: off (it has no authorization)'}`)}

Try it:
  npx mcpkit list ${url}
  npx mcpkit call ${url} echo text=hello
  npx mcpkit call ${url} slow_count steps=5

Connect from Cursor or VS Code (mcp.json; VS Code calls the top key "servers"):
${indent(config)}

Claude Desktop starts servers itself; use stdio there (claude_desktop_config.json):
${indent(stdioConfig)}

Press Ctrl-C to stop.
`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/** What to try for a refused `--folder`: the reason says whether it is missing, a file, or repeated. */
function folderHint(reason: string, cwd: string): string {
  if (/does not exist/.test(reason))
    return `Give the path of an existing directory (a relative path starts at ${cwd})`;
  if (/not a directory/.test(reason)) return 'Give a directory, not a file: its parent, say';
  return 'Give each directory once, and directories that do not contain one another';
}
