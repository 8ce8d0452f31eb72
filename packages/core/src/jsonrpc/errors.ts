/**
 * The two kinds of error in mcpkit, kept apart on purpose:
 *
 * - {@link McpError}: a JSON-RPC error a peer may see. Handlers throw it to answer with exactly
 *   that code, message and data; errors received from the peer arrive as it.
 * - {@link LocalError}: something that went wrong on this side (our request timed out, was
 *   cancelled, the connection closed, the peer lacks a capability, the peer's answer was
 *   unusable). It is never serialized: if one escapes a handler, the engine answers the peer
 *   `-32603 Internal error` and reports the error to `onError`.
 * @module
 */
import { ErrorCode, type JsonRpcErrorObject } from './messages.js';

/**
 * A JSON-RPC error with a code a peer may see.
 *
 * Throw it from a handler to answer with exactly this code, message and data. Any other thrown
 * value, a {@link LocalError} included, is answered as `-32603 Internal error` with no details, so
 * nothing internal leaks.
 *
 * @example
 * ```ts
 * throw new McpError(ErrorCode.InvalidParams, 'Unknown tool: "search"');
 * ```
 */
export class McpError extends Error {
  override name = 'McpError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The error as it goes on the wire. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received from a peer, as its specific class where there is one. */
  static fromWire(error: JsonRpcErrorObject): McpError {
    if (error.code === ErrorCode.UrlElicitationRequired) {
      const elicitations = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
      if (Array.isArray(elicitations)) {
        return new UrlElicitationRequiredError(elicitations as RequiredUrlElicitation[], error.message);
      }
    }
    return new McpError(error.code, error.message, error.data);
  }
}

/**
 * A failure on this side, never sent to the peer. Catch it to tell "we gave up" (timeout,
 * cancellation, closed connection, missing capability, unusable answer) from "the peer answered
 * with an error" ({@link McpError}).
 *
 * A handler that lets one escape answers its request with `-32603 Internal error`; the error
 * itself goes to the connection's `onError`.
 *
 * @example
 * ```ts
 * try { await client.callTool('slow', {}); }
 * catch (e) { if (e instanceof LocalError) console.error('gave up locally:', e.message); }
 * ```
 */
export class LocalError extends Error {
  override name = 'LocalError';
  /** @param cause what this error arose from, when there is something to keep (kept as `cause`). */
  constructor(message?: string, cause?: unknown) {
    super(message);
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * Our request got no answer in time. The engine has already told the peer to stop
 * (`notifications/cancelled`).
 *
 * @example
 * ```ts
 * declare const connection: Connection;
 * declare const params: CallToolRequestParams;
 * try { await connection.request('tools/call', params, { timeout: 5_000 }); }
 * catch (e) { if (e instanceof RequestTimeoutError) console.error(e.message); }
 * ```
 */
export class RequestTimeoutError extends LocalError {
  override name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    readonly reason: 'timeout' | 'maxTotalTimeout',
  ) {
    super(
      reason === 'timeout'
        ? `Request "${method}" timed out after ${timeoutMs} ms without a response or progress`
        : `Request "${method}" exceeded its maximum total time of ${timeoutMs} ms`,
    );
  }
}

/**
 * The connection closed before our request was answered.
 *
 * @example
 * ```ts
 * client.onClose((error) => {
 *   if (error instanceof ConnectionClosedError) console.error('connection lost:', error.message);
 * });
 * ```
 */
export class ConnectionClosedError extends LocalError {
  override name = 'ConnectionClosedError';
  constructor(message = 'The connection closed before a response arrived', cause?: unknown) {
    super(message, cause);
  }
}

/**
 * Our request was cancelled by its caller (through its `AbortSignal`).
 *
 * @example
 * ```ts
 * declare const connection: Connection;
 * declare const params: CallToolRequestParams;
 * const controller = new AbortController();
 * const pending = connection.request('tools/call', params, { signal: controller.signal });
 * controller.abort('user pressed stop'); // pending rejects with RequestCancelledError
 * ```
 */
export class RequestCancelledError extends LocalError {
  override name = 'RequestCancelledError';
  constructor(
    readonly method: string,
    readonly reason?: unknown,
  ) {
    super(`Request "${method}" was cancelled${describe(reason)}`);
  }
}

function describe(reason: unknown): string {
  if (typeof reason === 'string' && reason.length > 0) return `: ${reason}`;
  if (reason instanceof Error && reason.name !== 'AbortError' && reason.message) return `: ${reason.message}`;
  return '';
}

/**
 * A message this side tried to send that the peer did not negotiate: a missing capability, or a
 * method the negotiated revision does not have. Raised locally; nothing was sent, and nothing
 * about it is sent: it is a {@link LocalError}, not a `-32601` from the peer.
 *
 * @example
 * ```ts
 * declare const params: CreateMessageRequestParams;
 * await ctx.sample(params); // throws CapabilityError when the client has no "sampling" capability
 * ```
 */
export class CapabilityError extends LocalError {
  override name = 'CapabilityError';
  constructor(message: string) {
    super(message);
  }
}

/**
 * The peer's answer to one of our requests could not be used (for example `"error": null`
 * without a `result`, or an `error` without a `message`). The request is settled with this error
 * so nothing waits forever; the answer itself is dropped and reported to `onError`.
 *
 * @example
 * ```ts
 * try {
 *   await client.ping();
 * } catch (e) {
 *   if (e instanceof InvalidResponseError) console.error(e.method, e.message);
 * }
 * ```
 */
export class InvalidResponseError extends LocalError {
  override name = 'InvalidResponseError';
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(`The peer's response to "${method}" is unusable: ${reason}`);
  }
}

/**
 * The peer and this side share no protocol revision.
 *
 * @example
 * ```ts
 * try {
 *   await client.connect(transport);
 * } catch (e) {
 *   if (e instanceof UnsupportedProtocolVersionError) console.error(e.offered);
 * }
 * ```
 */
export class UnsupportedProtocolVersionError extends LocalError {
  override name = 'UnsupportedProtocolVersionError';
  constructor(
    readonly offered: unknown,
    readonly supported: readonly string[],
  ) {
    super(
      `The server answered with protocol version ${JSON.stringify(offered)}, which this client does not speak (supported: ${supported.join(', ')})`,
    );
  }
}

/** One URL-mode elicitation a client must complete, as carried by a `-32042` error. */
export interface RequiredUrlElicitation {
  mode: 'url';
  message: string;
  url: string;
  elicitationId: string;
}

/**
 * The request needs the user to complete one or more URL-mode elicitations first (`-32042`).
 * Throw it from a server handler; a client receives it as this same class.
 *
 * @example
 * ```ts
 * throw new UrlElicitationRequiredError([
 *   { mode: 'url', message: 'Sign in to continue', url: 'https://example.com/login', elicitationId: 'e1' },
 * ]);
 * ```
 */
export class UrlElicitationRequiredError extends McpError {
  override name = 'UrlElicitationRequiredError';
  constructor(
    readonly elicitations: RequiredUrlElicitation[],
    message = 'This request requires the user to complete an action in their browser first',
  ) {
    super(ErrorCode.UrlElicitationRequired, message, { elicitations });
  }
}

/**
 * The request needs a client capability its `_meta` did not declare (`-32021`, revision
 * 2026-07-28). Thrown for a handler that asks the client for something (elicitation, sampling,
 * roots) it cannot give; a tool's handler does not turn it into an `isError` result.
 *
 * @example
 * ```ts
 * throw new MissingRequiredClientCapabilityError({ elicitation: {} }, 'This tool needs elicitation');
 * ```
 */
export class MissingRequiredClientCapabilityError extends McpError {
  override name = 'MissingRequiredClientCapabilityError';
  constructor(
    readonly requiredCapabilities: Record<string, unknown>,
    message = `The request needs client capabilities it did not declare: ${Object.keys(requiredCapabilities).join(', ')}`,
  ) {
    super(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities });
  }
}

/**
 * The reason a handler's signal fires when the peer sends `notifications/cancelled`.
 *
 * @example
 * ```ts
 * if (ctx.signal.reason instanceof CancelledByPeer) console.error('client cancelled:', ctx.signal.reason.message);
 * ```
 */
export class CancelledByPeer extends Error {
  override name = 'CancelledByPeer';
}
