/**
 * The real parts of a cluster, for the cluster tests and the cluster benchmark: Debian's
 * `redis-server` on a random 127.0.0.1 port with a temporary directory, and nginx balancing
 * given ports round-robin with no stickiness (`X-Upstream` names the node that answered).
 * `scripts/install-cluster-deps.sh` installs the two programs.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian puts nginx in /usr/sbin, which is not on every user's PATH. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

/** A free TCP port on 127.0.0.1 (for programs that cannot report the port they bound). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Resolves when `child` prints a line containing `mark` (to stdout or stderr); rejects if it exits.
 * @param {import('node:child_process').ChildProcess} child
 */
export function waitForLine(child, mark, what) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((candidate) => candidate.includes(mark));
      if (line !== undefined) {
        cleanup();
        resolve(line);
      }
    };
    const onExit = (code) => {
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

/** @param {import('node:child_process').ChildProcess} child */
export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A running redis-server. `stop()` kills it; `start()` brings it back on the same port. */
export class RedisProcess {
  /** @type {import('node:child_process').ChildProcess | undefined} */
  #child;

  constructor(port, dir, durable) {
    this.port = port;
    this.dir = dir;
    this.durable = durable;
  }

  /** `durable`: every write is on disk before Redis answers, so a killed Redis comes back with it. */
  static async start(options = {}) {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-redis-'));
    const redis = new RedisProcess(await freePort(), dir, options.durable ?? false);
    await redis.start();
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir];
    const persistence = this.durable
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
    const child = spawn('redis-server', [...args, '--save', '', ...persistence], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    await waitForLine(child, 'Ready to accept connections', 'redis-server');
  }

  async stop() {
    const child = this.#child;
    this.#child = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  async remove() {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** nginx in front of `ports`, round-robin with no stickiness; `X-Upstream` names the node that answered. */
export class Balancer {
  constructor(port, child, dir) {
    this.port = port;
    this.child = child;
    this.dir = dir;
  }

  /**
   * `keepalive`: nginx keeps connections to the nodes open between requests, as a production
   * setup would (the benchmark); the kill tests leave it off, so a dead node is a refused connect.
   * @param {readonly number[]} ports
   * @param {{ keepalive?: boolean }} [options]
   */
  static async start(ports, options = {}) {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-nginx-'));
    const port = await freePort();
    const temp = (name) => `${name}_temp_path ${path.join(dir, name)};`;
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
    ${options.keepalive ? 'keepalive 64;' : ''}
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

  get url() {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  async stop() {
    // SIGTERM: nginx's fast shutdown, in which the master takes its worker down too (a SIGKILL
    // would leave the worker listening).
    this.child.kill('SIGTERM');
    await exited(this.child);
    await rm(this.dir, { recursive: true, force: true });
  }

  /** nginx prints nothing when it is up: poll its port. */
  async ready() {
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
