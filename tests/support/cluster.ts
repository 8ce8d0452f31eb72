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

/** What tests/fixtures/listen-on-cue.mjs prints when a standby process waits for its port. */
const STANDBY_MARK = 'MCPKIT_STANDBY';
const CUE = ['--import', './tests/fixtures/listen-on-cue.mjs'];

/** A standby reads its port from stdin; other nodes get none. */
function spawnNode(preloads: readonly string[], redisUrl: string, port: number, extra: readonly string[]) {
  const standby = preloads.includes(CUE[1]!);
  return spawn(
    process.execPath,
    [...preloads, ...CLI, 'serve', '--http', '--port', String(port), '--redis', redisUrl, ...extra],
    { stdio: [standby ? 'pipe' : 'ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
}

/** Reads the port of the `MCPKIT_LISTENING` line. */
function portOf(line: string): number {
  return (JSON.parse(line.slice(line.indexOf(LISTENING_MARK) + LISTENING_MARK.length)) as { port: number })
    .port;
}

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
    const child = spawnNode(REPORT, redisUrl, port, extra);
    const line = await waitForLine(child, LISTENING_MARK, 'mcpkit serve');
    return new NodeProcess(portOf(line), child);
  }

  /**
   * Starts a node that loads and connects everything but waits to be told its port: a warm
   * replacement for a node a test kills ({@link StandbyNode.activate} takes the dead node's port).
   */
  static standby(redisUrl: string, extra: readonly string[] = []): StandbyNode {
    const child = spawnNode([...REPORT, ...CUE], redisUrl, 0, extra);
    const ready = waitForLine(child, STANDBY_MARK, 'mcpkit serve (standby)');
    ready.catch(() => {}); // reported by activate(), if it is ever called
    return {
      activate: async (port) => {
        await ready;
        const listening = waitForLine(child, LISTENING_MARK, 'mcpkit serve (activated)');
        child.stdin!.write(`${port}\n`);
        return new NodeProcess(portOf(await listening), child);
      },
      stop: async () => {
        child.kill('SIGKILL');
        await exited(child);
      },
    };
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

/** A warm node process waiting for the port it will serve on (see {@link NodeProcess.standby}). */
export interface StandbyNode {
  /** Listens on `port` (a killed node's) once the process is ready, and resolves when it does. */
  activate(port: number): Promise<NodeProcess>;
  /** Ends the process if it was never activated. */
  stop(): Promise<void>;
}

/**
 * Standby nodes started ahead (`depth` of them), so that replacing a killed node costs no process
 * start: `take` activates the oldest on the port and starts another in the background.
 */
export class StandbyPool {
  private readonly queue: StandbyNode[] = [];

  constructor(
    private readonly redisUrl: () => string,
    private readonly depth = 2,
  ) {}

  /** A node serving on `port` (a killed node's), taken from standby. */
  take(port: number): Promise<NodeProcess> {
    this.fill();
    const standby = this.queue.shift()!;
    this.fill();
    return standby.activate(port);
  }

  /** Starts standbys until `depth` are on their way (call once the cluster is up). */
  fill(): void {
    while (this.queue.length < this.depth) this.queue.push(NodeProcess.standby(this.redisUrl()));
  }

  /** Ends the standby processes not taken, ready or not. */
  async stop(): Promise<void> {
    await Promise.all(this.queue.splice(0).map((standby) => standby.stop()));
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
