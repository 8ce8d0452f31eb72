/**
 * `startConsole`: the backend of the console on 127.0.0.1, on a random port, behind a random
 * token, serving the built page and its API.
 * @module
 */

import { serveSandbox } from '@mcpkit/apps/sandbox';
import type { AuthProvider } from '@mcpkit/client/http';
import type { Transport } from '@mcpkit/core';
import type { ServerEntry, ServerPolicy } from '@mcpkit/host';
import { serve } from '@mcpkit/node/http';
import { ConsoleApi } from './api.js';
import { type Asset, assetResponse, loadAssets, pageCsp, uiDirectory } from './assets.js';
import type { ConsoleBackend, PinnedEra } from './backend.js';
import { EventHub } from './eventHub.js';
import { RequestGuard, randomToken } from './guard.js';
import { HostBackend } from './hostBackend.js';
import { type ConsoleLoginRedirect, PageLogin } from './pageLogin.js';
import { Questions } from './questions.js';
import { ServerBackend } from './serverBackend.js';

/**
 * What the console talks to: one server (a fresh transport for each connection, so the revision
 * can be pinned by reconnecting) or every server of a config file behind a host.
 *
 * @example
 * ```ts
 * const target: ConsoleTarget = { kind: 'server', describe: 'http://127.0.0.1:3000/mcp', transport: () => new HttpClientTransport(new URL('http://127.0.0.1:3000/mcp')) };
 * ```
 */
export type ConsoleTarget =
  | {
      readonly kind: 'server';
      /** The target as `mcpkit` takes it: a URL or `-- command args…` (shown, and used in exported command lines). */
      readonly describe: string;
      readonly transport: () => Transport;
    }
  | {
      readonly kind: 'host';
      /** `--config FILE`. */
      readonly describe: string;
      readonly servers: readonly ServerEntry[];
      readonly policy?: Readonly<Record<string, ServerPolicy>>;
      /** The OAuth client of each remote server that has one (its logins go through the page). */
      readonly authProvider?: (entry: ServerEntry & { kind: 'url' }) => AuthProvider | undefined;
    };

/**
 * Options of {@link startConsole}.
 *
 * @example
 * ```ts
 * declare const target: ConsoleTarget;
 * const options: ConsoleOptions = { target, port: 0 };
 * ```
 */
export interface ConsoleOptions {
  readonly target: ConsoleTarget;
  /** Default 0: a random free port. */
  readonly port?: number;
  /** Default a fresh random token; tests may fix one. */
  readonly token?: string;
  /** The revision to pin at first (default `auto`); the page can pin another. */
  readonly era?: PinnedEra;
  /** Where the built page is; default the package's own `dist/ui`. */
  readonly uiDirectory?: string;
  /**
   * Where the steps of an OAuth login come from (`@mcpkit/auth/client`'s observer): called once
   * with the function that shows a step on the page's Authorization tab.
   */
  readonly authSteps?: (show: (step: object) => void) => void;
  /**
   * Lets the page run the OAuth login of an HTTP server: `attach` is called once the console
   * listens, with where its logins come back (`/callback` on the console's own port) and how the
   * client's redirect hook waits for the person; `retry` forgets a refused login before the person
   * tries again (Reconnect, "Log in again").
   */
  readonly login?: {
    readonly attach: (redirect: ConsoleLoginRedirect) => void;
    readonly retry?: () => void;
  };
}

/**
 * A running console.
 *
 * @example
 * ```ts
 * declare const target: ConsoleTarget;
 * const running: RunningConsole = await startConsole({ target });
 * console.log(running.url);
 * await running.close();
 * ```
 */
export interface RunningConsole {
  /** The page's URL, token included: the only way in. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts the console: loads the page, connects to the target, serves both on 127.0.0.1, and the
 * MCP Apps sandbox proxy on another loopback port (views render on that origin, never the page's).
 *
 * @example
 * ```ts
 * import { startConsole } from '@mcpkit/console';
 * import { loadHostConfig } from '@mcpkit/host/node';
 * const servers = await loadHostConfig('mcp.json');
 * const { url, close } = await startConsole({ target: { kind: 'host', describe: '--config mcp.json', servers } });
 * ```
 */
export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const assets = await loadAssets(options.uiDirectory ?? uiDirectory());
  const token = options.token ?? randomToken();
  const hub = new EventHub();
  const questions = new Questions(hub);
  const { target } = options;
  const backend: ConsoleBackend =
    target.kind === 'server'
      ? new ServerBackend(target.transport, target.describe, hub, questions)
      : new HostBackend(
          target.servers,
          target.policy ?? {},
          target.describe,
          hub,
          questions,
          target.authProvider,
        );
  // The sandbox proxy page is public content on an origin of its own: it serves nothing else, so
  // a view that escapes its inner frame still cannot reach the console's API (other origin, no token).
  const sandbox = await serveSandbox();
  // Both need the port: made once the console listens, before it connects.
  let api: ConsoleApi | undefined;
  let login: PageLogin | undefined;
  const page: Page = { assets, csp: pageCsp(sandbox.origin) };
  let guard: RequestGuard | undefined;
  let served: Awaited<ReturnType<typeof serve>>;
  try {
    served = await serve((request: Request) => route(request, guard!, page, hub, api!, login), {
      host: '127.0.0.1',
      port: options.port ?? 0,
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  guard = new RequestGuard(served.port, token);
  options.authSteps?.((step) => hub.emit('authStep', { time: Date.now(), ...step }));
  if (options.login) {
    login = new PageLogin(`http://127.0.0.1:${served.port}/callback`, hub, () => {
      // A login that ended after its connection gave up (past the transport's authorizationTimeout,
      // or after a failed attempt): connect again, with its tokens.
      const { error, pinned } = backend.state();
      if (error !== undefined) void backend.reconnect(pinned);
    });
    options.login.attach(login);
  }
  api = new ConsoleApi(backend, hub, questions, {
    sandbox: sandbox.url,
    ...(login ? { login: { control: login, retry: options.login?.retry } } : {}),
  });
  // A login waits for the person on the page: the URL is printed now, the connection goes on.
  const connecting = backend.reconnect(options.era ?? 'auto');
  await (login ? login.untilConnectedOrWaiting(connecting) : connecting);
  return {
    url: `http://127.0.0.1:${served.port}/?token=${token}`,
    port: served.port,
    async close() {
      login?.close();
      api!.close();
      questions.close();
      hub.close();
      await backend.close();
      await served.close();
      await sandbox.close();
    },
  };
}

/** The built page and the CSP its HTML is served with. */
interface Page {
  readonly assets: ReadonlyMap<string, Asset>;
  readonly csp: string;
}

async function route(
  request: Request,
  guard: RequestGuard,
  { assets, csp }: Page,
  hub: EventHub,
  api: ConsoleApi,
  login: PageLogin | undefined,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  // The authorization server's redirect: another origin's navigation, so no token and no Origin
  // check; the login's `state` stands in for them (see PageLogin).
  if (pathname === '/callback' && login) return guard.hostRefusal(request) ?? login.callback(request);
  const asset = pathname.startsWith('/assets/') ? assets.get(pathname) : undefined;
  const refusal = guard.refusal(request, asset === undefined);
  if (refusal) return refusal;
  if (asset)
    return request.method === 'GET' ? assetResponse(asset, csp) : new Response(null, { status: 405 });
  if (pathname === '/' && request.method === 'GET') return assetResponse(assets.get('/index.html')!, csp);
  if (pathname === '/api/events' && request.method === 'GET') return hub.stream();
  if (pathname.startsWith('/api/')) return api.handle(pathname.slice('/api/'.length), request);
  return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain' } });
}
