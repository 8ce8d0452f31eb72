/**
 * Errors the engine raises to callers, and the one error type handlers throw to answer with a
 * specific JSON-RPC error.
 * @module
 */
import { ErrorCode, type JsonRpcErrorObject } from './messages.js';

/**
 * A JSON-RPC error with a code a peer may see.
 *
 * Throw it from a handler to answer with exactly this code, message and data. Any other thrown
 * value is answered as `-32603 Internal error` with no details, so nothing internal leaks.
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
 * Our request got no answer in time. The engine has already told the peer to stop
 * (`notifications/cancelled`).
 *
 * @example
 * ```ts
 * try { await connection.request('tools/call', params, { timeout: 5_000 }); }
 * catch (e) { if (e instanceof RequestTimeoutError) console.error(e.message); }
 * ```
 */
export class RequestTimeoutError extends McpError {
  override name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    readonly reason: 'timeout' | 'maxTotalTimeout',
  ) {
    super(
      ErrorCode.RequestTimeout,
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
 * if (error instanceof ConnectionClosedError) reconnect();
 * ```
 */
export class ConnectionClosedError extends McpError {
  override name = 'ConnectionClosedError';
  constructor(message = 'The connection closed before a response arrived', cause?: unknown) {
    super(ErrorCode.ConnectionClosed, message);
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * Our request was cancelled by its caller (through its `AbortSignal`).
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = connection.request('tools/call', params, { signal: controller.signal });
 * controller.abort('user pressed stop'); // pending rejects with RequestCancelledError
 * ```
 */
export class RequestCancelledError extends McpError {
  override name = 'RequestCancelledError';
  constructor(
    readonly method: string,
    readonly reason?: unknown,
  ) {
    super(ErrorCode.RequestCancelled, `Request "${method}" was cancelled${describe(reason)}`);
  }
}

function describe(reason: unknown): string {
  if (typeof reason === 'string' && reason.length > 0) return `: ${reason}`;
  if (reason instanceof Error && reason.name !== 'AbortError' && reason.message) return `: ${reason.message}`;
  return '';
}

/**
 * A message this side tried to send that the peer did not negotiate: a missing capability, or a
 * method the negotiated revision does not have. Raised locally; nothing was sent.
 *
 * @example
 * ```ts
 * await ctx.sample(params); // throws CapabilityError when the client has no "sampling" capability
 * ```
 */
export class CapabilityError extends McpError {
  override name = 'CapabilityError';
  constructor(message: string) {
    super(ErrorCode.MethodNotFound, message);
  }
}

/**
 * The peer and this side share no protocol revision.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof UnsupportedProtocolVersionError) console.error(e.offered); }
 * ```
 */
export class UnsupportedProtocolVersionError extends McpError {
  override name = 'UnsupportedProtocolVersionError';
  constructor(
    readonly offered: unknown,
    readonly supported: readonly string[],
  ) {
    super(
      ErrorCode.InvalidRequest,
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
