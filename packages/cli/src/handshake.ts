/**
 * The CLI's handshake: one limit for all of it, and a line on a terminal while it waits.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import type { Transport } from '@mcpkit/core';
import type { ClientSettings } from './args.js';
import type { CliIo } from './cliIo.js';
import { formatMs } from './failures.js';
import type { ResolvedTarget } from './target.js';

/**
 * The handshake over HTTP gives up after this long in all (the era probe and `initialize`
 * together), unless `--timeout` says otherwise: a server that accepts the connection and never
 * answers is reported in seconds. A stdio command gets the client's default (a first `npx -y`
 * may be downloading the server). It is `connect`'s `timeout`, which does not count the time a
 * person spends logging in after a 401 (the transport's `authorizationTimeout` bounds that);
 * `--timeout` is different, a hard deadline for the whole command, login included.
 */
const HTTP_HANDSHAKE_TIMEOUT_MS = 15_000;
/** After this long without an answer, a terminal is told the CLI is still waiting. */
const STILL_WAITING_AFTER_MS = 2_000;

/** What the handshake needs besides the client and its transport. */
export interface HandshakeContext {
  readonly target: ResolvedTarget;
  readonly settings: ClientSettings;
  readonly io: CliIo;
  /** Prints a line on stderr (above a progress bar). */
  readonly notice: (text: string) => void;
  /** True while a person is logging in (the login's own lines are on screen, not "still waiting"). */
  readonly loggingIn?: () => boolean;
  readonly signal: AbortSignal;
}

/**
 * Connects `client`: over HTTP within {@link HTTP_HANDSHAKE_TIMEOUT_MS} (or `--timeout`), and
 * with a "still waiting" line on a terminal after {@link STILL_WAITING_AFTER_MS}.
 *
 * @example
 * ```ts
 * await handshake(client, transport, { target, settings, io, notice: screen.notice, signal });
 * ```
 */
export function handshake(
  client: McpClient,
  transport: Transport,
  context: HandshakeContext,
): Promise<unknown> {
  const { target, settings, io, signal } = context;
  const limit = settings.timeoutMs ?? (target.kind === 'http' ? HTTP_HANDSHAKE_TIMEOUT_MS : undefined);
  const connecting = client.connect(transport, {
    signal,
    ...(limit === undefined ? {} : { timeout: limit }),
  });
  if (!io.stderr.isTTY) return connecting;
  const until = limit === undefined ? '' : ` (giving up after ${formatMs(limit)})`;
  // The server is waited for once it had the request: while a person logs in, asked again later.
  const waiting = () => {
    if (context.loggingIn?.()) timer = setTimeout(waiting, STILL_WAITING_AFTER_MS);
    else context.notice(`Still waiting for the server to answer${until}…`);
  };
  let timer = setTimeout(waiting, STILL_WAITING_AFTER_MS);
  return connecting.finally(() => clearTimeout(timer));
}
