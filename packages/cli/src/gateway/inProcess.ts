/**
 * `--config FILE` without `--server`, for a file with several servers: the CLI talks to an
 * in-process gateway over every server of the file, so each verb works across all of them
 * (`list` shows the namespaced catalogue, `call everything__echo` is routed).
 * @module
 */
import { createInMemoryPair, type Transport } from '@mcpkit/core';
import { type HttpConnectorOptions, McpHost, type McpHostOptions, type ServerEntry } from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';

/**
 * The OAuth provider of each HTTP server of the file (`hostAuth`'s).
 *
 * @example
 * ```ts
 * const authProvider: EntryAuth = (entry) => providers.get(entry.name);
 * ```
 */
export type EntryAuth = HttpConnectorOptions['authProvider'];

/** The state of one server behind the in-process gateway, as `list` shows it. */
export interface ServerStatusLine {
  readonly server: string;
  readonly state: string;
  readonly lastError?: string;
  /** The end of its stderr, when it exited. */
  readonly stderr?: string;
}

/**
 * An in-process gateway over `servers` and a client transport connected to it; closing the
 * transport closes the gateway and every server it started.
 *
 * @example
 * ```ts
 * const { transport, status } = gatewayTransport(await loadHostConfig('mcp.json'));
 * await client.connect(transport);
 * ```
 */
export function gatewayTransport(
  servers: readonly ServerEntry[],
  authProvider?: EntryAuth,
): {
  transport: Transport;
  status: () => ServerStatusLine[];
  /** The server that offers a tool or prompt of the catalogue, by its catalogue name. */
  serverOf: (kind: 'tools' | 'prompts', name: string) => string | undefined;
} {
  const gateway = createGateway({
    host: configHostOptions(servers, authProvider),
    info: { name: 'mcpkit (config)', version: '0.1.0' },
    // One client: its own upstreams, each started once (shared ones would start a lane beside
    // each for a call that can be asked something).
    upstreams: 'perSession',
  });
  const [client, server] = createInMemoryPair();
  gateway.connect(server);
  return {
    transport: new ClosingTransport(client, gateway),
    status: () => statusOf(gateway, servers),
    serverOf: (kind, name) => gateway.hosts()[0]?.route(kind, name)?.server,
  };
}

/** The host of `--config FILE` with several servers: the gateway's, and the one `configHost` makes. */
function configHostOptions(servers: readonly ServerEntry[], authProvider?: EntryAuth): McpHostOptions {
  return { servers, connector: nodeConnector(authProvider ? { authProvider } : {}) };
}

/**
 * A host over `servers` as the in-process gateway runs them, for a verb that sends to a server
 * through the host itself (`mcpkit replay` of a host session); the caller closes it. `more` adds
 * to its options (a replay's hooks).
 *
 * @example
 * ```ts
 * const host = configHost(await loadHostConfig('mcp.json'));
 * try { await host.callTool('a__echo', { text: 'hi' }); } finally { await host.close(); }
 * ```
 */
export function configHost(
  servers: readonly ServerEntry[],
  authProvider?: EntryAuth,
  more: Partial<McpHostOptions> = {},
): McpHost {
  return new McpHost({ ...configHostOptions(servers, authProvider), ...more });
}

function statusOf(gateway: McpGateway, servers: readonly ServerEntry[]): ServerStatusLine[] {
  const host = gateway.hosts()[0];
  if (!host) return servers.map((entry) => ({ server: entry.name, state: 'stopped' }));
  return host.status().map(({ server, state, lastError, stderr }) => ({
    server,
    state,
    ...(lastError ? { lastError } : {}),
    ...(stderr ? { stderr } : {}),
  }));
}

/** The client end of the pair; `close()` also shuts the gateway down. */
class ClosingTransport implements Transport {
  constructor(
    private readonly inner: Transport,
    private readonly gateway: McpGateway,
  ) {}
  start(sink: Parameters<Transport['start']>[0]): ReturnType<Transport['start']> {
    return this.inner.start(sink);
  }
  send(...args: Parameters<Transport['send']>): ReturnType<Transport['send']> {
    return this.inner.send(...args);
  }
  async close(): Promise<void> {
    await this.inner.close();
    await this.gateway.close();
  }
}
