/**
 * The gateway's readiness: every upstream's state, worst first across the hosts serving now (one
 * shared host, or one per downstream session), for a `/readyz` endpoint or a dashboard.
 * @module
 */
import type { ServerState } from '../connection/upstream.js';
import type { McpHost } from '../host.js';

/**
 * One upstream server as the gateway sees it.
 *
 * @example
 * ```ts
 * const row: UpstreamHealth = { server: 'everything', state: 'ready', restarts: 0, hosts: 1 };
 * ```
 */
export interface UpstreamHealth {
  readonly server: string;
  /** The worst state of this server among the hosts serving now (`stopped` when none has started it). */
  readonly state: ServerState;
  /** Restarts, summed over the hosts. */
  readonly restarts: number;
  /** The last error of a host whose server is in the worst state, if any. */
  readonly lastError?: string;
  /** How many hosts run it: 1 when shared, else the downstream sessions that use it. */
  readonly hosts: number;
}

/**
 * What `gateway.readiness()` returns: `ready` unless an upstream is failed, degraded (its
 * keep-alive ping failed) or restarting.
 *
 * @example
 * ```ts
 * declare const gateway: McpGateway;
 * const { ready, servers } = gateway.readiness();
 * ```
 */
export interface GatewayReadiness {
  readonly ready: boolean;
  readonly servers: UpstreamHealth[];
}

/** Worse states first: the order a readiness check reports them in. */
const SEVERITY: Record<ServerState, number> = { failed: 4, degraded: 3, starting: 2, ready: 1, stopped: 0 };

/**
 * Folds the status of every host into one row per server.
 *
 * @example
 * ```ts
 * const { ready } = readinessOf(['a', 'b'], [host]);
 * ```
 */
export function readinessOf(servers: readonly string[], hosts: readonly McpHost[]): GatewayReadiness {
  const rows = new Map<string, UpstreamHealth>(
    servers.map((server) => [server, { server, state: 'stopped', restarts: 0, hosts: 0 }]),
  );
  for (const host of hosts) {
    for (const status of host.status()) {
      const row = rows.get(status.server);
      if (!row) continue;
      const worse = SEVERITY[status.state] > SEVERITY[row.state];
      rows.set(status.server, {
        server: status.server,
        state: worse ? status.state : row.state,
        restarts: row.restarts + status.restarts,
        hosts: row.hosts + (status.state === 'stopped' ? 0 : 1),
        ...(worse && status.lastError ? { lastError: status.lastError } : {}),
        ...(!worse && row.lastError ? { lastError: row.lastError } : {}),
      });
    }
  }
  const list = [...rows.values()];
  return { ready: list.every((row) => row.state === 'ready' || row.state === 'stopped'), servers: list };
}
