/**
 * The host's local errors: what went wrong on this side, named by server (never sent to a peer).
 * @module
 */
import { LocalError } from '@mcpkit/core';

/**
 * A config file that cannot be used: malformed JSON, a malformed entry, an unknown variable.
 * The message names the file, the server and the field; `hint` says what to try.
 *
 * @example
 * ```ts
 * try { parseHostConfig(source); }
 * catch (e) { if (e instanceof HostConfigError) console.error(e.message, e.hint ?? ''); }
 * ```
 */
export class HostConfigError extends LocalError {
  override name = 'HostConfigError';
  constructor(
    message: string,
    /** A suggestion of what to try next. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The `_meta` key of a gateway's tool error for a server that could not serve the call: its value
 * is `{ server, reason }` (a {@link ServerUnavailableError}'s), so a client can tell a server that
 * is down from a tool that reported an error.
 *
 * @example
 * ```ts
 * declare const result: CallToolResult; // from a gateway
 * const down = result._meta?.[UNAVAILABLE_META] as { server: string; reason: string } | undefined;
 * ```
 */
export const UNAVAILABLE_META = 'dev.mcpkit/serverUnavailable';

/**
 * A server could not serve a request: it is stopped, failed to start, its restarts are used up,
 * its circuit is open, or it died while the request was in flight.
 *
 * @example
 * ```ts
 * try { await host.callTool('files__read', { path: 'a' }); }
 * catch (e) { if (e instanceof ServerUnavailableError) console.error(e.server, e.reason); }
 * ```
 */
export class ServerUnavailableError extends LocalError {
  override name = 'ServerUnavailableError';
  constructor(
    /** The server's key in the host's configuration. */
    readonly server: string,
    /** Why: `stopped`, `failed` (start or restarts failed), `circuit-open`, or `crashed` (died mid-request). */
    readonly reason: 'stopped' | 'failed' | 'circuit-open' | 'crashed',
    message: string,
    cause?: unknown,
  ) {
    super(message, cause);
  }

  /**
   * What a peer may read (a gateway's downstream client, a model): the server's name and what
   * happened, never the message's details (a command's path, a process's stderr).
   *
   * @example
   * ```ts
   * const text = new ServerUnavailableError('files', 'crashed', 'Server "files" died (…/bin/files exited)').publicMessage;
   * // 'Server "files" stopped while the request was in flight; it is being restarted, so retry'
   * ```
   */
  get publicMessage(): string {
    const server = JSON.stringify(this.server);
    switch (this.reason) {
      case 'crashed':
        return `Server ${server} stopped while the request was in flight; it is being restarted, so retry`;
      case 'failed':
        return `Server ${server} is unavailable: it could not be started`;
      case 'circuit-open':
        return `Server ${server} is unavailable: it crashed repeatedly and is not being restarted`;
      default:
        return `Server ${server} is unavailable: it is stopped`;
    }
  }
}

/**
 * Two servers offer the same name and namespacing is off: the host refuses to shadow either.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof NameCollisionError) console.error(e.servers.join(' and ')); }
 * ```
 */
export class NameCollisionError extends LocalError {
  override name = 'NameCollisionError';
  constructor(
    readonly kind: string,
    readonly itemName: string,
    readonly servers: readonly string[],
  ) {
    super(
      `The ${kind} "${itemName}" is offered by servers ${servers.map((s) => `"${s}"`).join(' and ')}; ` +
        'turn namespacing on, or deny it on one of them',
    );
  }
}
