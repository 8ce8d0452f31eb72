/**
 * `mcpkit serve --http --redis URL`: the demo server as one node of a cluster. Sessions and
 * resumable streams live in Redis (`@mcpkit/redis`), so several such processes behind a load
 * balancer without sticky sessions serve clients as one server.
 * @module
 */
import type { TaskStore } from '@mcpkit/core';
import {
  connectRedis,
  RedisBucketStore,
  RedisEventStore,
  RedisSessionStore,
  RedisTaskStore,
} from '@mcpkit/redis';
import type { RateLimitStore } from '@mcpkit/server/guards';
import type { StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { CliError, ExitCode } from '../errors.js';

/** What a node adds to its Streamable HTTP handler, and how it leaves. */
export interface ClusterNode {
  readonly handlerOptions: Pick<StreamableHttpHandlerOptions, 'sessionStore' | 'eventStore'>;
  /** For the server's TaskManager: tasks are polled, cancelled and resulted on any node. */
  readonly taskStore: TaskStore;
  /** For `--rate-limit`: one limit per client across every node (fails closed while Redis is down). */
  readonly rateLimitStore: RateLimitStore;
  /**
   * The secret that seals 2026-07-28 `requestState`, the same on every node (kept in Redis), so a
   * retry that lands on another node than the round before can be opened there.
   */
  readonly requestStateKeys: readonly string[];
  close(): Promise<void>;
}

/**
 * Connects to Redis at `url` and builds the shared stores.
 *
 * @throws {CliError} when Redis cannot be reached.
 * @example
 * ```ts
 * const node = await joinCluster('redis://127.0.0.1:6379', console.error);
 * const handler = createStreamableHttpHandler(server, node.handlerOptions);
 * ```
 */
export async function joinCluster(url: string, log: (line: string) => void): Promise<ClusterNode> {
  let lastError = '';
  const onError = (error: Error) => {
    // Redis going away repeats the same error on every reconnection attempt: say it once.
    if (error.message !== lastError) log(`Redis: ${error.message}`);
    lastError = error.message;
  };
  const redis = await connectRedis(url, { onError }).catch((error: unknown) => {
    throw new CliError(
      ExitCode.Connection,
      `Could not connect to Redis at ${redactUrl(url)}: ${error instanceof Error ? error.message : String(error)}`,
      'Start it (redis-server --port 6379), or check the --redis URL',
    );
  });
  redis.on('ready', () => {
    if (lastError) log('Redis: connected again');
    lastError = '';
  });
  log(`cluster node on Redis ${redactUrl(url)}`);
  const sessionStore = new RedisSessionStore(redis);
  const taskStore = new RedisTaskStore(redis, { onError: (error) => log(`tasks: ${error.message}`) });
  const eventStore = new RedisEventStore(redis);
  const requestStateKeys = [await sharedSecret(redis, STATE_KEY)];
  return {
    handlerOptions: { sessionStore, eventStore },
    taskStore,
    rateLimitStore: new RedisBucketStore(redis, { onError }),
    requestStateKeys,
    close: async () => {
      eventStore.close();
      taskStore.close();
      sessionStore.close();
      redis.disconnect();
    },
  };
}

type RedisClient = Awaited<ReturnType<typeof connectRedis>>;

/** Where the cluster's `requestState` sealing secret lives in Redis. */
const STATE_KEY = 'mcpkit:requestState:secret';

/** The secret under `key`: the first node to come up makes it (SET NX), every node reads it. */
async function sharedSecret(redis: RedisClient, key: string): Promise<string> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const made = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  await redis.set(key, made, 'NX');
  const secret = await redis.get(key);
  if (secret === null) throw new CliError(ExitCode.Connection, `Redis lost the key ${key} just written`);
  return secret;
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the given URL';
  }
}
