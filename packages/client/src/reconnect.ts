/**
 * Reconnection for a plain client: when its connection is lost (a stdio server that exited or
 * crashed, an HTTP transport that gave up), connect again over a fresh transport, with backoff.
 *
 * Streamable HTTP needs no help for a server that forgot the session (404): its transport
 * re-initializes by itself. This is for the connection itself going away; for stdio, a fresh
 * transport is a fresh process, so the server is restarted.
 * @module
 */
import {
  CapabilityError,
  ConnectionClosedError,
  type InitializeResult,
  LocalError,
  type OutgoingRequestOptions,
  type Transport,
} from '@mcpkit/core';
import type { ReconnectingClient } from './ports.js';
import type { RestartOptions, RestartPolicy } from './restart.js';
import { backoffDelay, CrashWindow, restartPolicy } from './restart.js';

/**
 * Options of {@link connectReconnecting}: the backoff and crash circuit of {@link RestartOptions}
 * (defaults: 100 ms doubling to 10 s, 5 attempts in a row, circuit open after 5 losses in 10 s).
 *
 * @example
 * ```ts
 * const options: ReconnectOptions = { maxAttempts: 3, onReconnect: (n) => console.error('reconnected', n) };
 * ```
 */
export interface ReconnectOptions extends RestartOptions {
  /** Called after each successful reconnection, with how many there were so far. */
  onReconnect?: (reconnects: number, result: InitializeResult) => void;
  /** Called once when reconnecting stops for good (attempts used up, circuit open), with why. */
  onGiveUp?: (error: ReconnectFailedError) => void;
}

/**
 * Makes a fresh transport for each connection attempt: for stdio, a new process.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@mcpkit/node/stdio';
 * const factory: TransportFactory = () => new StdioClientTransport({ command: 'node', args: ['server.js'] });
 * ```
 */
export type TransportFactory = () => Transport | Promise<Transport>;

/**
 * Options of `client.connect()`: the handshake's request options, and `reconnect`.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@mcpkit/node/stdio';
 * const options: ConnectOptions = { timeout: 5_000, reconnect: { maxAttempts: 3 } };
 * await client.connect(() => new StdioClientTransport({ command: 'node', args: ['server.js'] }), options);
 * ```
 */
export interface ConnectOptions extends OutgoingRequestOptions {
  /**
   * Connect again whenever the connection is lost (not closed by `close()`), over a fresh
   * transport from the factory `connect` was given (for stdio: the command is started again),
   * with backoff: `true` for the defaults, or the backoff and callbacks. Needs a transport factory,
   * not a transport. Default off.
   */
  reconnect?: boolean | ReconnectOptions;
}

/**
 * Reconnecting stopped for good: requests made while it was trying fail with this.
 *
 * @example
 * ```ts
 * declare const client: McpClient;
 * try {
 *   await client.callTool('echo');
 * } catch (error) {
 *   if (error instanceof ReconnectFailedError) console.error('the server is gone for good:', error.message);
 * }
 * ```
 */
export class ReconnectFailedError extends LocalError {
  override name = 'ReconnectFailedError';
}

/**
 * The handle of a reconnecting client.
 *
 * @example
 * ```ts
 * declare const link: Reconnection;
 * console.error(link.reconnects, 'reconnections so far');
 * await link.stop(); // closes the client, no more reconnecting
 * ```
 */
export interface Reconnection {
  /** Successful reconnections so far. */
  readonly reconnects: number;
  /** Stops reconnecting and closes the client. */
  stop(): Promise<void>;
}

/**
 * Connects `client` over `transport()`, and whenever the connection is lost afterwards (not
 * closed by `client.close()`), connects it again over a fresh `transport()` with exponential
 * backoff. Requests in flight when the connection is lost fail with a `ConnectionClosedError`
 * naming the cause; requests made while reconnecting wait for it and then go out (or fail with
 * a {@link ReconnectFailedError} if it gives up). An `McpClient` then subscribes again and sets
 * its log level again, and clears its list caches, as after an HTTP session recovery
 * (`onSessionRecovered` listeners run). `handshake` holds the request options of every connect
 * (a timeout, say). `client.connect(transport, { reconnect })` calls this.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@mcpkit/node/stdio';
 * const client = new McpClient({ name: 'host', version: '1.0.0' });
 * const link = await connectReconnecting(client, () => new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * await client.callTool('echo', { text: 'hi' }); // after a crash, served by the restarted server
 * await link.stop();
 * ```
 */
export async function connectReconnecting(
  client: ReconnectingClient,
  transport: TransportFactory,
  options: ReconnectOptions = {},
  handshake: OutgoingRequestOptions = {},
): Promise<Reconnection> {
  const link = new Reconnector(client, transport, options, handshake);
  await link.connect();
  return link;
}

/**
 * `client.connect(factory, options)`: connects once over `factory()`, or, with
 * `options.reconnect`, keeps connected as {@link connectReconnecting} does. Resolves with the
 * server's answer to the first connection.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@mcpkit/node/stdio';
 * const result = await connectOver(client, () => new StdioClientTransport({ command: 'node', args: ['server.js'] }), { reconnect: true });
 * ```
 */
export async function connectOver(
  client: ReconnectingClient,
  factory: TransportFactory,
  options: ConnectOptions,
): Promise<InitializeResult> {
  const { reconnect, ...handshake } = options;
  if (!reconnect) return client.connect(await factory(), handshake);
  return new Reconnector(client, factory, reconnect === true ? {} : reconnect, handshake).connect();
}

/**
 * A request made while `client` is not connected: sent by `send` once the reconnection running
 * ends, else failed at once (the client is `closed`, or never connected).
 *
 * @example
 * ```ts
 * const tools = await whenReconnected(client, false, 'tools/list', () => client.request('tools/list'));
 * ```
 */
export function whenReconnected<R>(
  client: ReconnectingClient,
  closed: boolean,
  method: string,
  send: () => Promise<R>,
): Promise<R> {
  const reconnecting = client.reconnecting;
  if (reconnecting) return reconnecting.then(send);
  return Promise.reject(
    closed
      ? new ConnectionClosedError('The client is closed')
      : new CapabilityError(`Cannot send "${method}" before the client has connected`),
  );
}

class Reconnector implements Reconnection {
  reconnects = 0;
  private readonly policy: RestartPolicy;
  private readonly crashes: CrashWindow;

  constructor(
    private readonly client: ReconnectingClient,
    private readonly transport: TransportFactory,
    private readonly options: ReconnectOptions,
    /** The options of each handshake (its timeout, say). */
    private readonly handshake: OutgoingRequestOptions,
  ) {
    this.policy = restartPolicy(options);
    this.crashes = new CrashWindow(this.policy);
  }

  async connect(): Promise<InitializeResult> {
    const result = await this.client.connect(await this.transport(), this.handshake);
    this.client.onClose((error) => this.lost(error));
    return result;
  }

  async stop(): Promise<void> {
    await this.client.close();
  }

  /** The connection closed: reconnect, unless the client was closed on purpose. */
  private lost(error: Error | undefined): void {
    const client = this.client;
    if (client.closeRequested) return;
    const cause = error?.message ?? 'the connection closed';
    if (this.crashes.record(Date.now())) {
      const { circuitCrashes, circuitWindowMs } = this.policy;
      this.giveUp(
        `the connection was lost ${circuitCrashes} times in ${circuitWindowMs / 1000} s (last: ${cause})`,
      );
      return;
    }
    const run = this.reconnect(cause);
    client.reconnecting = run;
    run.then(
      () => {
        if (client.reconnecting === run) client.reconnecting = undefined;
      },
      (failure: ReconnectFailedError) => {
        if (client.reconnecting === run) client.reconnecting = undefined;
        this.options.onGiveUp?.(failure);
      },
    );
  }

  private async reconnect(cause: string): Promise<void> {
    const client = this.client;
    let last = cause;
    for (let attempt = 0; attempt < this.policy.maxAttempts; attempt++) {
      await sleep(backoffDelay(this.policy, attempt + this.crashes.count - 1));
      if (client.closeRequested) throw new ReconnectFailedError('The client was closed while reconnecting');
      await client.reopen();
      try {
        const result = await this.connect();
        this.reconnects++;
        // An McpClient subscribes again and sets its log level again; a plain Client has no setup.
        await client.sessionRecovered?.();
        this.options.onReconnect?.(this.reconnects, result);
        return;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
    }
    throw new ReconnectFailedError(
      `Could not reconnect after ${this.policy.maxAttempts} attempts (last: ${last}); the client is closed`,
    );
  }

  private giveUp(why: string): void {
    this.options.onGiveUp?.(new ReconnectFailedError(`Stopped reconnecting: ${why}; the client is closed`));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
