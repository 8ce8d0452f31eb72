/**
 * A real cluster for tests: Debian's `redis-server` on a random 127.0.0.1 port with a temporary
 * directory, node processes running `mcpkit serve --http --redis URL`, and nginx balancing them
 * round-robin with no stickiness. Everything listens on 127.0.0.1 and is killed by `stop()`.
 * `scripts/install-cluster-deps.sh` installs the two programs.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** What tests/fixtures/report-listening.mjs prints when a server listens. */
const LISTENING_MARK = 'MCPKIT_LISTENING';

const CLI = ['--import', './conformance/register-ts.mjs', 'packages/cli/src/main.ts'];
const REPORT = ['--import', './tests/fixtures/report-listening.mjs'];
/** Debian puts nginx in /usr/sbin, which is not on every user's PATH. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

/** A free TCP port on 127.0.0.1 (for programs that cannot report the port they bound). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves when `child` prints a line containing `mark` (to stdout or stderr); rejects if it exits. */
function waitForLine(child: ChildProcess, mark: string, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((candidate) => candidate.includes(mark));
      if (line !== undefined) {
        cleanup();
        resolve(line);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${what} exited (${code}) before it was ready:\n${seen.slice(-2000)}`));
    };
    const cleanup = () => {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A running redis-server. `stop()` kills it; `start()` brings it back on the same port. */
export class RedisProcess {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly durable: boolean,
  ) {}

  /** `durable`: every write is on disk before Redis answers, so a killed Redis comes back with it. */
  static async start(options: { durable?: boolean } = {}): Promise<RedisProcess> {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-redis-'));
    const redis = new RedisProcess(await freePort(), dir, options.durable ?? false);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir];
    const persistence = this.durable
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
    const child = spawn('redis-server', [...args, '--save', '', ...persistence], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await waitForLine(child, 'Ready to accept connections', 'redis-server');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  async remove(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
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

  /** Starts a node on `port` (0: any free one). */
  static async start(redisUrl: string, port = 0): Promise<NodeProcess> {
    const child = spawn(
      process.execPath,
      [...REPORT, ...CLI, 'serve', '--http', '--port', String(port), '--redis', redisUrl],
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

/** nginx in front of `ports`, round-robin with no stickiness; `X-Upstream` names the node that answered. */
export class Balancer {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {}

  static async start(ports: readonly number[]): Promise<Balancer> {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-nginx-'));
    const port = await freePort();
    const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
    const config = `
worker_processes 1;
daemon off;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root root;' : ''}
events { worker_connections 512; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  upstream nodes {
    ${ports.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join('\n    ')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://nodes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host:$server_port;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
    const file = path.join(dir, 'nginx.conf');
    await writeFile(file, config);
    const child = spawn(NGINX, ['-p', dir, '-c', file, '-e', path.join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const balancer = new Balancer(port, child, dir);
    await balancer.ready();
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  async stop(): Promise<void> {
    // SIGTERM: nginx's fast shutdown, in which the master takes its worker down too (a SIGKILL
    // would leave the worker listening).
    this.child.kill('SIGTERM');
    await exited(this.child);
    await rm(this.dir, { recursive: true, force: true });
  }

  /** nginx prints nothing when it is up: poll its port. */
  private async ready(): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (this.child.exitCode !== null) throw new Error(`nginx exited with ${this.child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${this.port}/`).then(
        () => true,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('nginx did not start');
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
