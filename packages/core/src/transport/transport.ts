/**
 * The contract between the JSON-RPC engine and whatever carries its bytes.
 *
 * A transport moves whole JSON-RPC messages. It knows nothing of methods or sessions; the
 * {@link Connection} above it does the protocol. Transports parse incoming bytes themselves (a
 * line, an HTTP body, an SSE event) because only they know the framing.
 * @module
 */
import type { ClassifiedBody, JsonRpcMessage, RequestId } from '../jsonrpc/messages.js';

/** Information about who sent a message, as established by the transport (e.g. a verified token). */
export interface AuthInfo {
  /** The raw access token, when one was presented. */
  readonly token?: string;
  readonly clientId?: string;
  readonly scopes?: readonly string[];
  /** Seconds since epoch. */
  readonly expiresAt?: number;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** What a transport knows about the message it delivers, beyond the message itself. */
export interface MessageExtra {
  readonly authInfo?: AuthInfo;
  /** The HTTP request that carried the message, for transports that have one. */
  readonly httpRequest?: Request;
  /** The peer's network address as the host's socket reports it, over HTTP when the host knows it. */
  readonly remoteAddress?: string | undefined;
  /** One request header by lower-case name (null when absent), over HTTP, without building a `Request`. */
  header?(name: string): string | null;
  /**
   * On a client: the request of ours on whose response stream the peer sent this request
   * (Streamable HTTP sends a server's requests about a call there), so it is about that call.
   * Absent when the transport cannot tell (stdio, the standalone GET stream).
   */
  readonly relatedRequestId?: RequestId;
}

/** Where a transport delivers what it receives. The connection implements it. */
export interface MessageSink {
  /** One parsed JSON value. The connection checks the envelope; the transport does not. */
  message(value: unknown, extra?: MessageExtra): void;
  /**
   * A body the transport already classified with `classifyBody` (it had to look inside), so the
   * connection does not check the envelopes again. Optional: a transport finding no such method
   * (a sink that wraps another) delivers `body.value` through {@link message} instead.
   */
  classified?(body: ClassifiedBody, extra?: MessageExtra): void;
  /** Bytes that were not JSON. The connection answers `-32700` without an `id`. */
  parseError(error: Error): void;
  /** A transport problem that did not close it. Reported to the connection's error hook. */
  error(error: Error): void;
  /** The transport is closed and will deliver nothing more. `error` says why, if it failed. */
  closed(error?: Error): void;
  /**
   * Present only when an observer wants message sizes: a transport that knows them reports each
   * message's bytes, in and out (check the member, then call it: no cost when absent).
   */
  size?(direction: 'in' | 'out', bytes: number): void;
  /**
   * Our requests `ids` wait on authorization before the transport can send them again (an HTTP
   * 401 or a step-up 403 handed to an auth provider, which may be a person logging in in a
   * browser). `waiting` true stops their timeouts (`timeout`, `maxTotalTimeout`); false, said
   * when the wait ends however it ended, starts them again with the time they had left. A
   * transport that says true must say false. Optional: called only when authorization runs.
   */
  authorizing?(ids: readonly RequestId[], waiting: boolean): void;
}

/** Per-message routing hints for transports that have more than one outgoing channel. */
export interface SendOptions {
  /**
   * The incoming request this message belongs to. Streamable HTTP sends it on that request's
   * stream; transports with a single channel ignore it.
   */
  readonly relatedRequestId?: RequestId;
}

/**
 * A bidirectional message channel.
 *
 * `send` returns `undefined` when the message was taken at once, or a promise that settles when the
 * transport can take more. Callers that care about backpressure await it; many waiters share one
 * promise, so no listener or closure is created per message.
 *
 * @example
 * ```ts
 * const [clientSide, serverSide] = createInMemoryPair();
 * await serverSide.start(sink);
 * serverSide.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
 * ```
 */
export interface Transport {
  start(sink: MessageSink): void | Promise<void>;
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void>;
  close(): Promise<void>;
  /** Set once the protocol version is negotiated; HTTP clients send it as `MCP-Protocol-Version`. */
  setProtocolVersion?(version: string): void;
  /** The HTTP session id, for transports that have sessions. */
  readonly sessionId?: string | undefined;
  /** What the transport runs over, as OpenTelemetry's `network.transport` names it: `pipe`, `tcp`... */
  readonly networkTransport?: string;
  /**
   * Set by the client that uses a transport with sessions. Called when the server had forgotten
   * the session (restart, failover) and the transport opened a new one on its own: what the
   * client had set up in the old session (resource subscriptions, log level) is gone and must be
   * set up again. The transport waits for the returned promise before it retries the request
   * that found the session gone.
   */
  onSessionRecovered?: (() => void | Promise<void>) | undefined;
  /**
   * Ends the stream carrying the answer to the incoming request `requestId` while its handler
   * keeps running; the client comes back for the rest (Streamable HTTP's SSE polling, SEP-1699).
   * Only transports that can resume implement it; false when this request's stream cannot be
   * closed so.
   */
  closeRequestStream?(requestId: RequestId, retryInterval?: number): boolean;
}
