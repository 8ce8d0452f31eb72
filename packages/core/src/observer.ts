/**
 * The one observer seam: what tracing, metrics and logs adapters see of a connection.
 *
 * It sits below middleware, in the JSON-RPC engine and the session layers, because what it must
 * see is out of a middleware's reach: the request id, a request refused before dispatch (unknown
 * method, lifecycle gate, in-flight limit), the outgoing side of server→client requests, the
 * moment the response is handed to the transport, sessions opening and closing, and message
 * sizes. With no observer installed every hook point is one `undefined` check: no record, no
 * timer, no closure per message.
 * @module
 */
import type { RequestId } from './jsonrpc/messages.js';
import { envelopeVersion } from './protocol/modern.js';

/**
 * The advisory bucket boundaries (seconds) of the MCP semantic conventions' duration histograms,
 * shared by the OpenTelemetry and Prometheus adapters.
 *
 * @example
 * ```ts
 * MCP_DURATION_BUCKETS[0]; // 0.01
 * ```
 */
export const MCP_DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
];

/**
 * Which side's view an event is: `client` for a request this side sent, `server` for one it
 * received (a server's own requests to its client, such as sampling, are `client` events).
 */
export type ObservedRole = 'client' | 'server';

/**
 * A session as observers see it. Implemented by server sessions and clients; read lazily, so
 * values that change (the negotiated revision, an HTTP session id) are current when read.
 *
 * @example
 * ```ts
 * const observer: Observer = { sessionOpened: (session) => console.error(session.role, session.id) };
 * ```
 */
export interface ObservedSession {
  /** The side that owns the session: `server` for a server session, `client` for a client. */
  readonly role: ObservedRole;
  /** The session id (Streamable HTTP, stateful), else `undefined`. */
  readonly id: string | undefined;
  /** The negotiated protocol revision, once known. */
  readonly protocolVersion: string | undefined;
  /** The transport kind per OpenTelemetry `network.transport`: `pipe` (stdio), `tcp` (HTTP)... */
  readonly transport: string | undefined;
}

/**
 * How a request ended.
 *
 * @example
 * ```ts
 * const outcome: ObservedOutcome = { durationMs: 3.2, errorCode: -32602, errorMessage: 'Unknown tool' };
 * ```
 */
export interface ObservedOutcome {
  /** Milliseconds from receipt (or send) to the response handed over (or received). */
  readonly durationMs: number;
  /** The result object, when the request succeeded. */
  readonly result?: Record<string, unknown> | undefined;
  /** The JSON-RPC error code, when the request failed with one (on the wire or as received). */
  readonly errorCode?: number | undefined;
  /** The error message sent or received (never a stack; internal errors say "Internal error"). */
  readonly errorMessage?: string | undefined;
  /**
   * A local failure name, when no JSON-RPC error was exchanged: `cancelled`, `timeout`,
   * `closed`, or the error's class name.
   */
  readonly failure?: string | undefined;
}

/**
 * What {@link ObservedRequest} and {@link ObservedNotification} share: who sees it, the method,
 * the params as on the wire, the session, and a slot for the observer.
 *
 * @example
 * ```ts
 * const describe = (message: ObservedMessage) => `${message.role} ${message.method}`;
 * ```
 */
export abstract class ObservedMessage {
  /** Free for the observer: the span, a start time, anything it needs back at the end. */
  state: unknown = undefined;
  /** `_meta` entries an observer added to an outgoing message (trace context); see {@link setMeta}. */
  meta: Record<string, string> | undefined = undefined;
  /** When the message was received or is being sent, by `performance.now()`. */
  readonly startedAt = performance.now();

  constructor(
    /** `client` for a message this side sends, `server` for one it received. */
    readonly role: ObservedRole,
    readonly method: string,
    /** The params as on the wire, `_meta` included; do not change them. */
    readonly params: Record<string, unknown> | undefined,
    readonly session: ObservedSession | undefined,
  ) {}

  /**
   * The item the message is about: the tool or prompt name, or the resource URI; `undefined` for
   * other methods.
   */
  get target(): string | undefined {
    return observedTarget(this.method, this.params);
  }

  /**
   * The revision the message is under: a 2026-07-28 request names its own in its envelope (its
   * session, a throwaway one over HTTP, may report another); otherwise the session's.
   */
  get protocolVersion(): string | undefined {
    const own = envelopeVersion(this.params);
    return typeof own === 'string' ? own : this.session?.protocolVersion;
  }

  /**
   * Adds a string entry to the outgoing message's `params._meta` (a `client` message, during
   * {@link Observer.requestStarted} or {@link Observer.notificationStarted}): how trace context
   * crosses the wire.
   */
  setMeta(key: string, value: string): void {
    if (!this.meta) this.meta = {};
    this.meta[key] = value;
  }
}

/**
 * One request, from start to finish. Created by the engine only when an observer is installed,
 * passed to {@link Observer.requestStarted} and again to {@link Observer.requestFinished}.
 *
 * @example
 * ```ts
 * const observer: Observer = {
 *   requestStarted: (request) => { request.state = Date.now(); },
 *   requestFinished: (request, outcome) => console.error(request.method, request.target, outcome.durationMs),
 * };
 * ```
 */
export class ObservedRequest extends ObservedMessage {
  constructor(
    role: ObservedRole,
    method: string,
    readonly id: RequestId,
    params: Record<string, unknown> | undefined,
    session: ObservedSession | undefined,
  ) {
    super(role, method, params, session);
  }
}

/**
 * One notification: sent (`client`: this side is the notification's client) or received
 * (`server`). Created by the engine only when an observer is installed, passed to
 * {@link Observer.notificationStarted} and {@link Observer.notificationFinished}. Cancellation and
 * progress are notifications too, and are seen.
 *
 * @example
 * ```ts
 * const observer: Observer = {
 *   notificationStarted: (n) => console.error(n.role === 'client' ? 'sent' : 'received', n.method),
 * };
 * ```
 */
export class ObservedNotification extends ObservedMessage {}

/**
 * Receives what happens on connections. Every method is optional; install one with the
 * `observer` option of a server or client (combine several with {@link combineObservers}).
 *
 * @example
 * ```ts
 * const server = new McpServer(info, {
 *   observer: {
 *     requestFinished: (request, outcome) => console.error(request.method, outcome.durationMs.toFixed(1), 'ms'),
 *   },
 * });
 * ```
 */
export interface Observer {
  /** A request was received (`server`) or is about to be sent (`client`). */
  requestStarted?(request: ObservedRequest): void;
  /**
   * Runs the handler of a received request or notification. An observer that carries context (an
   * OpenTelemetry span) runs `handler` inside it, so what the handler does is a child of it.
   */
  runHandler?<T>(message: ObservedMessage, handler: () => T): T;
  /** The request's response was handed to the transport (`server`) or received (`client`). */
  requestFinished?(request: ObservedRequest, outcome: ObservedOutcome): void;
  /**
   * A notification is about to be sent (`client`; {@link ObservedMessage.setMeta} adds to its
   * `_meta`) or was received (`server`, before its handler runs).
   */
  notificationStarted?(notification: ObservedNotification): void;
  /**
   * The notification was handed to the transport (`client`) or its handler returned (`server`),
   * `durationMs` after it started.
   */
  notificationFinished?(notification: ObservedNotification, durationMs: number): void;
  /** A session finished its handshake (server: `notifications/initialized`; client: `connect`). */
  sessionOpened?(session: ObservedSession): void;
  /** An opened session's connection closed, after `durationMs`. */
  sessionClosed?(session: ObservedSession, durationMs: number): void;
  /**
   * A message of `bytes` bytes crossed a transport that reports sizes (stdio, Streamable HTTP).
   * `session` is undefined where the transport serves many sessions at once before routing.
   */
  messageSize?(direction: 'in' | 'out', bytes: number, session: ObservedSession | undefined): void;
  /**
   * An error no peer is told of, as `onError` receives it: a handler's crash behind an
   * "Internal error" answer, a malformed message, a transport failure. With an observer that has
   * this method and no `onError`, the server does not also write it to `console.error`.
   */
  error?(error: Error, session: ObservedSession | undefined): void;
}

/**
 * The item a request is about, as observers name it: `params.name` for `tools/call` and
 * `prompts/get`, `params.uri` for the resource methods.
 *
 * @example
 * ```ts
 * observedTarget('tools/call', { name: 'echo' }); // 'echo'
 * ```
 */
export function observedTarget(
  method: string,
  params: Record<string, unknown> | undefined,
): string | undefined {
  if (!params) return undefined;
  let value: unknown;
  if (method === 'tools/call' || method === 'prompts/get') value = params.name;
  else if (method.startsWith('resources/')) value = params.uri;
  return typeof value === 'string' ? value : undefined;
}

/**
 * `error.type` as the MCP semantic conventions define it: the JSON-RPC error code, `tool_error`
 * for a `tools/call` result with `isError: true`, else the local failure (`timeout`,
 * `cancelled`, `closed`...); `undefined` for a success.
 *
 * @example
 * ```ts
 * observedErrorType('tools/call', { durationMs: 1, result: { isError: true } }); // 'tool_error'
 * ```
 */
export function observedErrorType(method: string, outcome: ObservedOutcome): string | undefined {
  if (outcome.errorCode !== undefined) return String(outcome.errorCode);
  if (outcome.failure !== undefined) return outcome.failure;
  if (method === 'tools/call' && outcome.result?.isError === true) return 'tool_error';
  return undefined;
}

/**
 * The {@link ObservedSession} of a server session or a client, made once per connection and only
 * when an observer is installed; it also remembers when the session opened.
 *
 * @example
 * ```ts
 * const observed = new SessionObservation('server', transport, () => session.protocolVersion);
 * declare const observer: Observer;
 * observed.open(observer);
 * ```
 */
export class SessionObservation implements ObservedSession {
  #openedAt: number | undefined;

  readonly #carrier: { readonly sessionId?: string | undefined; readonly networkTransport?: string };
  readonly #version: () => string | undefined;
  constructor(
    readonly role: ObservedRole,
    carrier: { readonly sessionId?: string | undefined; readonly networkTransport?: string },
    version: () => string | undefined,
  ) {
    this.#carrier = carrier;
    this.#version = version;
  }

  get id(): string | undefined {
    return this.#carrier.sessionId;
  }

  get protocolVersion(): string | undefined {
    return this.#version();
  }

  get transport(): string | undefined {
    return this.#carrier.networkTransport;
  }

  /** Tells `observer` the session opened (once). */
  open(observer: Observer): void {
    if (this.#openedAt !== undefined) return;
    this.#openedAt = performance.now();
    observer.sessionOpened?.(this);
  }

  /** Tells `observer` an opened session closed, with its lifetime. */
  close(observer: Observer): void {
    if (this.#openedAt === undefined) return;
    const durationMs = performance.now() - this.#openedAt;
    this.#openedAt = undefined;
    observer.sessionClosed?.(this, durationMs);
  }
}
