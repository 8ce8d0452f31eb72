/**
 * A real cluster for tests: Debian's `redis-server` on a random 127.0.0.1 port with a temporary
 * directory, node processes running `mcpkit serve --http --redis URL`, and nginx balancing them
 * round-robin with no stickiness. Everything listens on 127.0.0.1 and is killed by `stop()`.
 * Redis and nginx are started by bench/lib/cluster.mjs, which the cluster benchmark shares;
 * `scripts/install-cluster-deps.sh` installs the two programs.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { Balancer, exited, RedisProcess, waitForLine } from '../../bench/lib/cluster.mjs';

export { Balancer, freePort, RedisProcess } from '../../bench/lib/cluster.mjs';

/** What tests/fixtures/report-listening.mjs prints when a server listens. */
const LISTENING_MARK = 'MCPKIT_LISTENING';

const CLI = ['--import', './conformance/register-ts.mjs', 'packages/cli/src/main.ts'];
const REPORT = ['--import', './tests/fixtures/report-listening.mjs'];

/** One `mcpkit serve --http --redis` process. */
export class NodeProcess {
  stderr = '';
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  /** Starts a node on `port` (0: any free one), with `extra` arguments of `mcpkit serve`. */
  static async start(redisUrl: string, port = 0, extra: readonly string[] = []): Promise<NodeProcess> {
    const child = spawn(
      process.execPath,
      [...REPORT, ...CLI, 'serve', '--http', '--port', String(port), '--redis', redisUrl, ...extra],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    const line = await waitForLine(child, LISTENING_MARK, 'mcpkit serve');
    const report = JSON.parse(line.slice(line.indexOf(LISTENING_MARK) + LISTENING_MARK.length)) as {
      port: number;
    };
    return new NodeProcess(report.port, child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL: the process gets no chance to clean up, as when a machine dies. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await exited(this.child);
  }
}

/** Redis, three nodes and nginx in front of them, started together; `stop()` ends them all. */
export interface Cluster {
  readonly redis: RedisProcess;
  /** The nodes; a test that kills one may put a restarted one in its place. */
  readonly nodes: NodeProcess[];
  readonly balancer: Balancer;
  stop(): Promise<void>;
}

/** Starts a {@link Cluster} of `size` nodes. */
export async function startCluster(options: { size?: number; durable?: boolean } = {}): Promise<Cluster> {
  const redis = await RedisProcess.start({ durable: options.durable ?? false });
  const nodes = await Promise.all(
    Array.from({ length: options.size ?? 3 }, () => NodeProcess.start(redis.url)),
  );
  const balancer = await Balancer.start(nodes.map((node) => node.port));
  return {
    redis,
    nodes,
    balancer,
    stop: async () => {
      await balancer.stop();
      for (const node of nodes) if (node.running) await node.kill();
      await redis.remove();
    },
  };
}

/** The running parts of a {@link Cluster} a test file shares, read through {@link useCluster}. */
export type ClusterView = Omit<Cluster, 'stop'>;

/**
 * Starts a {@link Cluster} before the file's tests (up to 60 s) and stops it after them. The view
 * reads the running cluster when a test touches it, so `cluster.nodes[0]` works inside a test.
 */
export function useCluster(options: { size?: number; durable?: boolean } = {}): ClusterView {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster(options);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const running = (): Cluster => {
    if (cluster === undefined) throw new Error('the cluster is not running (read it inside a test)');
    return cluster;
  };
  return {
    get redis() {
      return running().redis;
    },
    get nodes() {
      return running().nodes;
    },
    get balancer() {
      return running().balancer;
    },
  };
}
