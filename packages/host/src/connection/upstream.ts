/**
 * One server of the host: its client, its state, and its restarts.
 * @module
 */
import {
  backoffDelay,
  CrashWindow,
  type KeepAliveOptions,
  keepAlive,
  type McpClient,
  type RestartPolicy,
} from '@mcpkit/client';
import { timerDelay } from '@mcpkit/core/internal';
import type { ServerEntry } from '../config.js';
import { HostConfigError, ServerUnavailableError } from '../errors.js';
import type { Connector } from './connector.js';

/**
 * A server's state: `stopped` (not started yet, or shut down), `starting` (also while waiting to
 * restart), `ready`, `degraded` (connected, but its last keep-alive ping failed) or `failed`
 * (its restarts are used up or its circuit is open; see the event's error).
 *
 * @example
 * ```ts
 * host.onStateChange(({ server, state }) => { if (state === 'failed') alert(server); });
 * ```
 */
export type ServerState = 'stopped' | 'starting' | 'ready' | 'degraded' | 'failed';

/**
 * A server changed state.
 *
 * @example
 * ```ts
 * const show = (event: StateChange) => `${event.server}: ${event.previous} → ${event.state}`;
 * ```
 */
export interface StateChange {
  readonly server: string;
  readonly state: ServerState;
  readonly previous: ServerState;
  /** Why, when the change was caused by a failure. */
  readonly error?: Error;
  /** On `ready`: how long its start took (ms), a restart's backoff included. */
  readonly startMs?: number;
}

/** What an {@link Upstream} needs from its host. */
export interface UpstreamDeps {
  readonly connector: Connector;
  readonly restart: RestartPolicy;
  readonly keepAlive: KeepAliveOptions;
  /** A fresh client for this server (with the host's handlers and policy installed). */
  readonly createClient: (entry: ServerEntry) => McpClient;
  /** A new client is connected: hook its notifications, re-subscribe. */
  readonly attached: (server: string, client: McpClient) => void | Promise<void>;
  /**
   * The server is ready and a listing went without it (it was restarting, or still starting when
   * its start budget ran out, or failed before a retry): its lists changed for whoever listed.
   */
  readonly arrived: (server: string, client: McpClient) => void;
  readonly stateChanged: (change: StateChange) => void;
}

/**
 * One server's connection, restarted when it dies.
 *
 * @example
 * ```ts
 * const client = await upstream.ready(); // starts it if needed, waits for a restart in progress
 * ```
 */
export class Upstream {
  private current: ServerState = 'stopped';
  private client: McpClient | undefined;
  private starting: Promise<McpClient> | undefined;
  private failure: ServerUnavailableError | undefined;
  private stopKeepAlive: (() => void) | undefined;
  private pingError: Error | undefined;
  /**
   * Aborted by {@link restart} and {@link close}: a start in progress (or its backoff wait) gives
   * way to the one that follows, so a burst of restarts leaves one process, not one each.
   */
  private cycle = new AbortController();
  /** The connection a {@link restart} replaces, closed by the start that follows before it connects. */
  private replacing: McpClient | undefined;
  private readonly crashes: CrashWindow;
  private readonly shutdown = new AbortController();
  /** When the current start (or restart, its backoff included) began: its start budget counts from here. */
  private startedAt = 0;
  /** A listing went without this server since it was last ready: its arrival is announced. */
  private missed = false;
  /** How many times the server was (re)started successfully. */
  restarts = -1;

  constructor(
    readonly entry: ServerEntry,
    private readonly deps: UpstreamDeps,
  ) {
    this.crashes = new CrashWindow(deps.restart);
  }

  /** The server's key. */
  get name(): string {
    return this.entry.name;
  }

  /** The current state. */
  get state(): ServerState {
    return this.current;
  }

  /**
   * The last failure while the state is `failed`; the failed keep-alive ping while `degraded`;
   * while `ready`, a listing of the server's that failed (a cursor that never ends, say) and has
   * not succeeded since.
   */
  get lastError(): Error | undefined {
    if (this.failure) return this.failure;
    if (this.current === 'degraded') return this.pingError;
    return this.current === 'ready' ? this.listFailure?.error : undefined;
  }

  private listFailure: { kind: string; error: Error } | undefined;

  /** A listing of `kind` from this server failed (`error`) or succeeded (none). */
  listed(kind: string, error?: unknown): void {
    if (error !== undefined) {
      const text = error instanceof Error ? error.message : String(error);
      this.listFailure = { kind, error: new Error(`Its ${kind} could not be listed: ${text}`) };
    } else if (this.listFailure?.kind === kind) this.listFailure = undefined;
  }

  /**
   * The connected client: starts the server on first use, waits for a start or restart in progress.
   * @throws {ServerUnavailableError} stopped, failed, or circuit open.
   */
  ready(): Promise<McpClient> {
    if (this.shutdown.signal.aborted) return Promise.reject(this.unavailable('stopped', 'was shut down'));
    if (this.client) return Promise.resolve(this.client);
    if (this.failure) return Promise.reject(this.failure);
    return this.starting ?? this.start(0);
  }

  /**
   * The connected client if the server is ready, or becomes ready before `budgetMs` have passed
   * since its current start began (starting it if need be); otherwise `undefined` at once or when
   * the budget runs out, and its arrival later is announced through `arrived`. One timer per
   * call, and only while the server is starting.
   */
  readyWithin(budgetMs: number): Promise<McpClient | undefined> {
    const client = this.shutdown.signal.aborted ? undefined : this.client;
    if (client) return Promise.resolve(client);
    const pending = this.ready();
    if (this.failure || this.shutdown.signal.aborted) return this.without(pending);
    const left = this.startedAt + budgetMs - Date.now();
    if (left <= 0) return this.without(pending);
    return new Promise((resolve) => {
      // Ready in the same turn as the budget ran out (its announcement already decided): listed.
      const expire = () => resolve(this.client ?? this.without(pending));
      const timer = Number.isFinite(left) ? setTimeout(expire, timerDelay(left)) : undefined;
      pending.then(
        (started) => {
          clearTimeout(timer);
          resolve(started);
        },
        () => {
          clearTimeout(timer);
          resolve(this.without(pending));
        },
      );
    });
  }

  /** A listing goes on without this server: its arrival will be announced. */
  private without(pending: Promise<McpClient>): Promise<undefined> {
    pending.catch(() => undefined);
    this.missed = true;
    return Promise.resolve(undefined);
  }

  /** True when `client` is no longer this server's live connection (it closed or was replaced). */
  lost(client: McpClient): boolean {
    return client !== this.client || !client.connected;
  }

  /**
   * Runs `work` on this server's client, started if need be. A failure because the server died
   * meanwhile is a {@link ServerUnavailableError} (`crashed`) that says so.
   */
  run<T>(method: string, work: (client: McpClient) => Promise<T>): Promise<T> {
    // A running server (every call but the first) is called without waiting a turn for ready().
    const client = this.shutdown.signal.aborted ? undefined : this.client;
    if (!client) return this.ready().then((started) => this.runOn(started, method, work));
    return this.runOn(client, method, work);
  }

  private runOn<T>(client: McpClient, method: string, work: (client: McpClient) => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = work(client);
    } catch (error) {
      return Promise.reject(this.callFailure(client, method, error));
    }
    return running.then(undefined, this.failureOf(client, method));
  }

  /** The last rejection handler made: the per-call path calls one method on one client. */
  private lastFailure: { client: McpClient; method: string; handler: (error: unknown) => never } | undefined;

  /** What a call of `method` on `client` rejects with (one closure per client and method, not per call). */
  private failureOf(client: McpClient, method: string): (error: unknown) => never {
    const last = this.lastFailure;
    if (last?.client === client && last.method === method) return last.handler;
    const handler = (error: unknown): never => {
      throw this.callFailure(client, method, error);
    };
    this.lastFailure = { client, method, handler };
    return handler;
  }

  /** `error` as the caller sees it: a server that died meanwhile is said to have crashed. */
  private callFailure(client: McpClient, method: string, error: unknown): unknown {
    if (!this.lost(client)) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ServerUnavailableError(
      this.name,
      'crashed',
      `Server "${this.name}" died while "${method}" was in flight (${message}); it is being restarted, so retry`,
      error,
    );
  }

  /** Clears a `failed` state (an open circuit included) and starts again. */
  retry(): Promise<McpClient> {
    this.failure = undefined;
    this.crashes.reset();
    return this.ready();
  }

  /**
   * Restarts the server on purpose (its code changed, say): the current connection is closed
   * without counting as a crash, the crash window and a `failed` state are cleared, and the server
   * starts again at once. A start in progress gives way to this one; calls waiting for the server
   * get the new connection, and a call in flight on the old one fails as `crashed` (retry it).
   * @throws {ServerUnavailableError} shut down, or the new start failed.
   */
  restart(): Promise<McpClient> {
    if (this.shutdown.signal.aborted) return Promise.reject(this.unavailable('stopped', 'was shut down'));
    this.cycle.abort();
    this.cycle = new AbortController();
    // Let go before the close, so closed() sees a replaced client and counts no crash.
    this.replacing = this.client;
    this.client = undefined;
    this.stopKeepAlive?.();
    this.stopKeepAlive = undefined;
    this.failure = undefined;
    this.crashes.reset();
    return this.start(0);
  }

  /**
   * Closes the server in the spec's order (stdio: close stdin, wait, SIGTERM, SIGKILL; HTTP: end
   * the session) and stops restarting it.
   */
  async close(): Promise<void> {
    this.shutdown.abort();
    this.cycle.abort();
    this.stopKeepAlive?.();
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.close();
    this.setState('stopped');
  }

  private start(delayMs: number): Promise<McpClient> {
    this.startedAt = Date.now();
    this.setState('starting');
    const run = this.startLoop(delayMs).finally(() => {
      if (this.starting === run) this.starting = undefined;
    });
    this.starting = run;
    run.catch(() => undefined); // the failure is reported through state and ready()
    return run;
  }

  private async startLoop(firstDelayMs: number): Promise<McpClient> {
    // Taken synchronously: a restart made later aborts this cycle, and its own start closes nothing twice.
    const cycle = this.cycle.signal;
    const previous = this.replacing;
    this.replacing = undefined;
    await previous?.close().catch(() => undefined);
    let delayMs = firstDelayMs;
    for (let attempt = 0; ; attempt++) {
      if (delayMs > 0) await sleep(delayMs, cycle);
      if (this.shutdown.signal.aborted) throw this.unavailable('stopped', 'was shut down');
      if (cycle.aborted) return this.ready(); // a restart overtook this start: its waiters follow that one
      try {
        return await this.connectOnce();
      } catch (error) {
        if (cycle.aborted && !this.shutdown.signal.aborted) return this.ready();
        if (this.shutdown.signal.aborted) throw this.unavailable('stopped', 'was shut down');
        if (attempt + 1 >= this.deps.restart.maxAttempts || cannotSucceedOnRetry(error)) {
          throw this.fail(
            'failed',
            `could not be started (${attempt + 1} ${attempt === 0 ? 'attempt' : 'attempts'}): ${messageOf(error)}`,
            error,
          );
        }
        delayMs = backoffDelay(this.deps.restart, attempt);
      }
    }
  }

  private async connectOnce(): Promise<McpClient> {
    const cycle = this.cycle.signal;
    const client = this.deps.createClient(this.entry);
    const transport = await this.deps.connector(this.entry);
    client.onClose((error) => this.closed(client, error));
    try {
      await client.connect(transport);
      await this.deps.attached(this.name, client);
      if (cycle.aborted) throw new Error('superseded by a restart or a shutdown');
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.listFailure = undefined;
    this.restarts++;
    // A restarted server may offer something else now; a late one offers what was listed without it.
    const announce = this.missed || this.restarts > 0;
    this.missed = false;
    this.setState('ready');
    if (announce) this.deps.arrived(this.name, client);
    this.stopKeepAlive = keepAlive(client, this.deps.keepAlive, (alive, error) => {
      if (this.client !== client) return;
      if (!alive && this.current === 'ready') {
        this.pingError = error;
        this.setState('degraded', error);
      } else if (alive && this.current === 'degraded') this.setState('ready');
    });
    return client;
  }

  /** The client closed: a crash unless we are shutting down. */
  private closed(client: McpClient, error: Error | undefined): void {
    if (client !== this.client || this.shutdown.signal.aborted) return;
    this.client = undefined;
    this.stopKeepAlive?.();
    const cause = error ?? new Error('the connection closed');
    const { circuitCrashes, circuitWindowMs } = this.deps.restart;
    if (this.crashes.record(Date.now())) {
      this.fail(
        'circuit-open',
        `crashed ${circuitCrashes} times in ${circuitWindowMs / 1000} s; its circuit is open and it is not restarted ` +
          `(last: ${cause.message}). Fix the server, then call retry()`,
        cause,
      );
      return;
    }
    this.setState('starting', cause);
    void this.start(backoffDelay(this.deps.restart, this.crashes.count - 1));
  }

  private fail(reason: 'failed' | 'circuit-open', text: string, cause: unknown): ServerUnavailableError {
    this.failure = this.unavailable(reason, text, cause);
    this.setState('failed', this.failure);
    return this.failure;
  }

  private unavailable(
    reason: ServerUnavailableError['reason'],
    text: string,
    cause?: unknown,
  ): ServerUnavailableError {
    return new ServerUnavailableError(this.name, reason, `Server "${this.name}" ${text}`, cause);
  }

  private setState(state: ServerState, error?: Error): void {
    const previous = this.current;
    if (previous === state) return;
    this.current = state;
    this.deps.stateChanged({
      server: this.name,
      state,
      previous,
      ...(error ? { error } : {}),
      ...(state === 'ready' && previous === 'starting' ? { startMs: Date.now() - this.startedAt } : {}),
    });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Spawn failures that a retry cannot fix: the command is not there, not executable, or its
 * working directory is missing (the codes Node's `spawn` reports, found on the error's causes).
 * A connector's refusal of the entry (`HostConfigError`) is final too.
 */
const FINAL_CODES = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'EISDIR', 'EPERM']);

function cannotSucceedOnRetry(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof HostConfigError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && FINAL_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
