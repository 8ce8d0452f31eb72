/**
 * The file a recorded session is saved as (`mcpkit-console-session`, version 1): what the console's
 * "Save session" writes and both the page's "Replay a saved session" and `mcpkit replay` read.
 * @module
 */

/** The format name a saved session carries. */
export const SESSION_FORMAT = 'mcpkit-console-session';

/**
 * The requests a session records and a replay sends again: tool calls, reads, prompts and the lists.
 *
 * @example
 * ```ts
 * REPLAYABLE_METHODS.includes('tools/call'); // true
 * ```
 */
export const REPLAYABLE_METHODS = [
  'tools/call',
  'resources/read',
  'prompts/get',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
] as const;

/** One of {@link REPLAYABLE_METHODS}. */
export type ReplayableMethod = (typeof REPLAYABLE_METHODS)[number];

/**
 * A JSON-RPC error as a session keeps it.
 *
 * @example
 * ```ts
 * const error: AnswerError = { code: -32602, message: 'Unknown tool: nope' };
 * ```
 */
export interface AnswerError {
  readonly code?: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One recorded request and the answer it got: a result or an error.
 *
 * @example
 * ```ts
 * const exchange: Exchange = { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } }, result: { content: [] } };
 * ```
 */
export interface Exchange {
  /** Against a host: the server it went to (its method and params are as that server saw them). */
  readonly server?: string;
  readonly method: string;
  readonly params: Record<string, any>;
  readonly result?: unknown;
  readonly error?: AnswerError;
}

/**
 * A saved session.
 *
 * @example
 * ```ts
 * const saved: SavedSession = { format: SESSION_FORMAT, version: 1, target: '-- node server.js', exchanges: [] };
 * ```
 */
export interface SavedSession {
  readonly format: typeof SESSION_FORMAT;
  readonly version: 1;
  /** Whom it was recorded against, as `mcpkit` takes a target (shown, never started from the file). */
  readonly target: string;
  readonly protocolVersion?: string;
  /** Paths left out of every comparison (see `parseIgnorePath`); `mcpkit replay --ignore` adds more. */
  readonly ignore?: readonly string[];
  readonly exchanges: readonly Exchange[];
}

/**
 * A file that is not a saved session, or one this version cannot read: a local failure, not a
 * server's answer.
 *
 * @example
 * ```ts
 * try { parseSession('{}'); } catch (error) { if (error instanceof SessionFileError) console.log(error.message); }
 * ```
 */
export class SessionFileError extends Error {
  override name = 'SessionFileError';
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a saved session, refusing a file that is not one (each exchange is checked: a known method,
 * params an object).
 *
 * @example
 * ```ts
 * const session = parseSession(await file.text());
 * ```
 */
export function parseSession(text: string): SavedSession {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SessionFileError('Not a saved console session: the file is not JSON');
  }
  if (!isObject(value) || value.format !== SESSION_FORMAT || value.version !== 1)
    throw new SessionFileError(`Not a saved console session (${SESSION_FORMAT}, version 1)`);
  if (!Array.isArray(value.exchanges)) throw new SessionFileError('The session has no "exchanges" array');
  value.exchanges.forEach((exchange: unknown, index: number) => {
    if (!isObject(exchange) || !(REPLAYABLE_METHODS as readonly unknown[]).includes(exchange.method))
      throw new SessionFileError(
        `exchanges[${index}]: "method" must be one of ${REPLAYABLE_METHODS.join(', ')}`,
      );
    if (!isObject(exchange.params))
      throw new SessionFileError(`exchanges[${index}]: "params" must be an object`);
    if (exchange.server !== undefined && typeof exchange.server !== 'string')
      throw new SessionFileError(`exchanges[${index}]: "server" must be a server's name`);
  });
  if (
    value.ignore !== undefined &&
    !(Array.isArray(value.ignore) && value.ignore.every((path: unknown) => typeof path === 'string'))
  )
    throw new SessionFileError('"ignore" must be an array of paths');
  return value as SavedSession;
}

/**
 * What an exchange is about, for a person: the method and the tool, prompt or resource it names,
 * and against a host the server it went to.
 *
 * @example
 * ```ts
 * exchangeLabel({ method: 'tools/call', params: { name: 'echo' } }); // 'tools/call echo'
 * exchangeLabel({ server: 'demo', method: 'tools/call', params: { name: 'echo' } }); // 'tools/call echo on demo'
 * ```
 */
export function exchangeLabel(exchange: Pick<Exchange, 'server' | 'method' | 'params'>): string {
  const item = exchange.params.name ?? exchange.params.uri;
  const label = typeof item === 'string' ? `${exchange.method} ${item}` : exchange.method;
  return exchange.server === undefined ? label : `${label} on ${exchange.server}`;
}
