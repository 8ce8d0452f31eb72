/**
 * `mcpkit dev FILE`: the dev loop. The client connects to a front that mcpkit owns (Streamable
 * HTTP, or stdio) and that stays up; the server file runs behind it as a stdio process, and is
 * restarted on every change of its sources. The front is the gateway with one upstream and shared
 * upstreams: a restart is `gateway.restart()` (not a crash, so no backoff and no circuit), after
 * which every connected client is told `notifications/tools/list_changed` (and resources,
 * prompts) and lists again in the session it already has.
 * @module
 */
import { existsSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type { ServerEntry } from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { toNodeListener } from '@mcpkit/node/http';
import { StdioServerProcessError } from '@mcpkit/node/stdio';
import type { DevSettings } from '../argTypes.js';
import type { CliIo } from '../cliIo.js';
import { ExitCode, usageError } from '../errors.js';
import { MCP_PATH, startHttp, stopHttp } from '../httpServe.js';
import { serveStdioUntilStopped, untilStopped } from '../stopped.js';
import { DEV_HINT } from './args.js';
import { nodeArgsFor } from './runner.js';
import { watchSources } from './watch.js';

/** How long a burst of file events must be quiet before the server restarts. */
const DEBOUNCE_MS = 150;

/**
 * Runs FILE behind a front until Ctrl-C (or, with `--stdio`, until the client closes stdin).
 *
 * @example
 * ```ts
 * import { processIo } from 'mcpkit';
 * const settings = { file: 'server.ts', transport: 'http', port: 3000, host: '127.0.0.1', watch: [], serverArgs: [] } as const;
 * const code = await runDev(settings, processIo());
 * ```
 */
export async function runDev(settings: DevSettings, io: CliIo): Promise<number> {
  const log = (line: string) => io.stderr.write(`[mcpkit dev] ${line}\n`);
  const file = resolve(io.cwd, settings.file);
  if (!existsSync(file)) throw usageError(`No file "${settings.file}"`, DEV_HINT);
  const entry = serverEntry(file, settings, io.cwd);
  const gateway = createGateway({
    host: {
      servers: [entry],
      // The server's stderr is the developer's: passed through as it comes.
      connector: nodeConnector({ onStderr: (_server, text) => io.stderr.write(text), inheritEnv: true }),
      // One try per start: a server that cannot start waits for the next change rather than a backoff.
      restart: { maxAttempts: 1 },
    },
    info: { name: `mcpkit dev ${basename(file)}`, version: '0.1.0' },
    // One upstream process for every client, restarted once per change. A call of a client that
    // can be asked something (sampling, elicitation) holds a lane, another process of the server,
    // so that the server's question reaches that client; `gateway.restart` restarts lanes too.
    upstreams: 'shared',
  });
  const shown = (path: string) => relative(io.cwd, path) || '.';
  const restarts = new Restarts(gateway, entry.name, log);
  // The shared host exists from the start: a crash (a close that is not a restart) is said once.
  for (const host of gateway.hosts()) {
    host.onStateChange(({ state, error }) => {
      if (state === 'starting' && error)
        log(`the server exited by itself (${whyNotStarted(error)}); starting it again`);
    });
  }
  const watched =
    settings.watch.length > 0 ? [file, ...settings.watch.map((p) => resolve(io.cwd, p))] : [dirname(file)];
  const watcher = await watchSources(
    watched,
    DEBOUNCE_MS,
    (path) => restarts.changed(shown(path)),
    (error) => log(`watching failed: ${error.message}`),
  );
  try {
    await restarts.first(shown(file));
    log(`watching ${watched.map(shown).join(', ')} (node_modules and .git aside); Ctrl-C stops`);
    if (settings.transport === 'stdio') await serveStdioUntilStopped(gateway, io);
    else await serveHttp(gateway, settings, io, log);
  } finally {
    await watcher.close();
    await gateway.close();
  }
  return ExitCode.Success;
}

/** The server as the gateway's one upstream: this Node, its loader if any, the file, its args. */
function serverEntry(file: string, settings: DevSettings, cwd: string): ServerEntry {
  return {
    kind: 'stdio',
    name: basename(file).replace(/\.[^.]+$/, '') || 'server',
    command: process.execPath,
    args: [...nodeArgsFor(file, cwd), file, ...settings.serverArgs],
    env: {},
    cwd,
    disabled: false,
    autoApprove: [],
  };
}

/**
 * The restarts, one at a time: a change during a restart is queued (the last one wins), so a
 * burst of saves ends on the latest code with one line each.
 */
class Restarts {
  private running: Promise<void> | undefined;
  private queued: string | undefined;

  constructor(
    private readonly gateway: McpGateway,
    private readonly server: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The first start: said to be running, or why not (then a change is awaited). */
  first(file: string): Promise<void> {
    return this.run(() => `${file} is running`);
  }

  /** A watched path changed. */
  changed(path: string): void {
    if (this.running) {
      this.queued = path;
      return;
    }
    void this.run((ms) => `restarted after a change in ${path} (${ms} ms)`);
  }

  private run(success: (ms: number) => string): Promise<void> {
    const started = performance.now();
    const run = this.gateway.restart(this.server).then(
      () => this.log(success(Math.round(performance.now() - started))),
      (error: unknown) =>
        this.log(`the server did not start (${whyNotStarted(error)}); waiting for the next change`),
    );
    this.running = run.finally(() => {
      this.running = undefined;
      const next = this.queued;
      this.queued = undefined;
      if (next !== undefined) this.changed(next);
    });
    return this.running;
  }
}

/**
 * Why a start failed, in a few words: the server's exit (its stderr, passed through, says why),
 * or the failure's own message.
 */
function whyNotStarted(error: unknown): string {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (!(cause instanceof StdioServerProcessError)) continue;
    if (cause.exitCode !== null) return `it exited with code ${cause.exitCode}; its stderr is above`;
    if (cause.signal !== null) return `it was ended by ${cause.signal}`;
    return cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The Streamable HTTP front on `--host:--port`, its URL on stdout, until Ctrl-C. */
async function serveHttp(
  gateway: McpGateway,
  settings: DevSettings,
  io: CliIo,
  log: (line: string) => void,
): Promise<void> {
  const listener = toNodeListener(gateway.httpHandler(), {
    onError: (error) => log(`HTTP error: ${error.message}`),
  });
  const { http, base } = await startHttp(settings, (path) => (path === MCP_PATH ? listener : undefined));
  io.stdout.write(`${base}${MCP_PATH}\n`);
  log(`connect your client to ${base}${MCP_PATH}; it stays connected across restarts`);
  await untilStopped(io);
  await stopHttp(http);
}
