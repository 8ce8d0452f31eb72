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
  return {
    handlerOptions: { sessionStore, eventStore },
    taskStore,
    rateLimitStore: new RedisBucketStore(redis, { onError }),
    close: async () => {
      eventStore.close();
      taskStore.close();
      sessionStore.close();
      redis.disconnect();
    },
  };
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
