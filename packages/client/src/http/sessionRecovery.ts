/**
 * Transparent re-initialization of the Streamable HTTP client transport: on a 404 for a request
 * that carried the session id (the session expired), it replays the client's `initialize` under
 * an id of its own, keeps that answer from the client, sends `notifications/initialized`, and
 * announces the new session (an `McpClient` sets its subscriptions and log level up again).
 * @module
 */
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';
import { HttpTransportError } from './errors.js';
import type { HttpLink } from './link.js';
import { asResponse } from './messages.js';
import type { SseStreams } from './sseStreams.js';

/** How long a transparent re-initialization may take. */
const REINITIALIZE_TIMEOUT = 30_000;
/** How long a recovery waits for the new session's standalone stream before going on. */
const STANDALONE_OPEN_WAIT_MS = 5_000;

/** A response the transport waits for itself (re-initialization), kept from the client. */
interface Interception {
  readonly deliver: (response: JsonRpcResponse) => void;
  readonly fail: (error: Error) => void;
}

/** What re-initializing needs of the transport. */
export interface RecoveryHost {
  /** POSTs `message`, with no recovery of its own. */
  post(message: JsonRpcMessage, mayRecover: false): Promise<void>;
  /** Tells the client the session was replaced (`onSessionRecovered`). */
  recovered(): void | Promise<void>;
}

/**
 * Re-initializes once for however many requests hit the same expired session.
 *
 * @example
 * ```ts
 * const recovery = new SessionRecovery(link, streams, host);
 * await recovery.recover(expiredSessionId);
 * ```
 */
export class SessionRecovery {
  private recovery: Promise<void> | undefined;
  private reinitializations = 0;
  /** Responses the transport itself waits for (re-initialization); they never reach the client. */
  private readonly intercepted = new Map<RequestId, Interception>();

  constructor(
    private readonly link: HttpLink,
    /** Their standalone GET stream belongs to the expired session. */
    private readonly streams: SseStreams,
    private readonly host: RecoveryHost,
  ) {}

  /** True when `value` answers what the transport waited for (it then goes no further). */
  intercepts(value: unknown): boolean {
    // Nothing to parse while no re-initialization waits: the common case costs a size check.
    const response = this.intercepted.size > 0 ? asResponse(value) : undefined;
    const interception = response && this.intercepted.get(response.id);
    if (response && interception) interception.deliver(response);
    return interception !== undefined;
  }

  /** Fails every wait (the transport closes). */
  failAll(why: string): void {
    for (const interception of [...this.intercepted.values()]) interception.fail(new Error(why));
  }

  /** Re-initializes once for however many requests hit the same expired session. */
  recover(expired: string): Promise<void> {
    if (this.recovery) return this.recovery;
    if (this.link.session !== expired) return Promise.resolve(); // recovered already
    const done = () => {
      this.recovery = undefined;
    };
    // The new session is open once re-initialized: requests the client sends to set it up again
    // must not wait for this recovery (they would wait for themselves).
    this.recovery = this.reinitialize().then(
      () => {
        done();
        return this.announceRecovery();
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
    return this.recovery;
  }

  private async announceRecovery(): Promise<void> {
    try {
      await this.host.recovered();
    } catch (error) {
      this.link.sink?.error(toError(error));
    }
  }

  private async reinitialize(): Promise<void> {
    const initialize = this.link.initializeRequest;
    const fail = (why: string, cause?: unknown) =>
      new HttpTransportError(`The session expired (HTTP 404) and re-initializing failed: ${why}`, 404, {
        cause,
      });
    if (!initialize) throw fail('no initialize request was sent through this transport');
    this.link.session = undefined;
    this.streams.stopStandalone();
    const id = `mcpkit-reinitialize-${++this.reinitializations}`;
    const answer = this.intercept(id);
    // A failed POST fails the wait, so there is one place to catch either.
    this.host
      .post({ ...initialize, id } as JsonRpcMessage, false)
      .catch((error: unknown) => this.intercepted.get(id)?.fail(toError(error)));
    let response: JsonRpcResponse;
    try {
      response = await answer;
    } catch (error) {
      throw fail(toError(error).message, error);
    }
    if ('error' in response) throw fail(response.error.message);
    const version = response.result.protocolVersion;
    if (this.link.protocolVersion !== undefined && version !== this.link.protocolVersion) {
      throw fail(`the server now speaks ${String(version)} instead of ${this.link.protocolVersion}`);
    }
    await this.host.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, false);
    // The new session's standalone GET stream carries what the server sends outside a request
    // (`resources/updated` for a subscription): the client subscribes again and the request that
    // met the 404 goes out again only once the server holds that stream, or a notification sent
    // during that request would be dropped (issue 29).
    await this.streams.standaloneOpen(STANDALONE_OPEN_WAIT_MS);
  }

  /** Waits for the response with `id`, which is kept from the client. */
  private intercept(id: RequestId): Promise<JsonRpcResponse> {
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.intercepted.delete(id);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new Error(`no answer within ${REINITIALIZE_TIMEOUT} ms`));
      }, REINITIALIZE_TIMEOUT);
      this.intercepted.set(id, {
        deliver: (response) => {
          settle();
          resolve(response);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      });
    });
  }
}
