/**
 * A saved session replayed: each exchange sent again, in order, through whatever reaches the
 * server now (the console's API in the page, an `McpClient` or an `McpHost` in `mcpkit replay`),
 * and each answer compared field by field with the recorded one.
 * @module
 */
import { type Answer, comparedAnswer } from './comparedAnswer.js';
import { type IgnorePath, isIgnored, parseIgnorePath } from './ignorePaths.js';
import { type Difference, jsonDifferences } from './jsonDiff.js';
import type { AnswerError, Exchange, SavedSession } from './sessionFile.js';

/**
 * Sends one recorded request again and resolves with the server's result (rejecting with its
 * error). A list resolves with every item, following pagination. `server` is the server a host
 * session's exchange went to (see `hostExchange`); a sender to one server ignores it.
 *
 * @example
 * ```ts
 * const send: SendExchange = (method, params) => client.request(method, params);
 * ```
 */
export type SendExchange = (method: string, params: Record<string, any>, server?: string) => Promise<unknown>;

/**
 * What replaying one exchange found.
 *
 * @example
 * ```ts
 * const outcome: ReplayOutcome = { exchange, now: { result: {} }, same: true, differences: [], ignored: 0 };
 * ```
 */
export interface ReplayOutcome {
  readonly exchange: Exchange;
  /** What the server answers now. */
  readonly now: Answer;
  readonly same: boolean;
  /** What differs from the recorded answer, ignored paths left out. */
  readonly differences: readonly Difference[];
  /** How many differences the ignore paths left out. */
  readonly ignored: number;
}

/**
 * A whole replay.
 *
 * @example
 * ```ts
 * const report: ReplayReport = await replaySession(session, send);
 * if (report.changed > 0) process.exitCode = 6;
 * ```
 */
export interface ReplayReport {
  readonly total: number;
  readonly changed: number;
  /** The ignore paths in force (the file's and the caller's). */
  readonly ignore: readonly string[];
  readonly outcomes: readonly ReplayOutcome[];
}

/**
 * Options of {@link replaySession}.
 *
 * @example
 * ```ts
 * const options: ReplayOptions = { ignore: ['structuredContent.at'] };
 * ```
 */
export interface ReplayOptions {
  /** Paths left out of every comparison, besides the session's own `ignore`. */
  readonly ignore?: readonly string[];
  /**
   * Whether a failure of `send` is the server's answer (compared with the recording) or a failure
   * of the replay itself (thrown). Default: every failure is an answer.
   */
  readonly isAnswer?: (error: unknown) => boolean;
}

/**
 * Compares an answer with another, field by field.
 *
 * @example
 * ```ts
 * const differences = compareAnswers('tools/call', { result: before }, { result: after }, []);
 * ```
 */
export function compareAnswers(
  method: string,
  before: Answer,
  after: Answer,
  ignore: readonly IgnorePath[] = [],
): { differences: Difference[]; ignored: number } {
  const all = jsonDifferences(comparedAnswer(method, before), comparedAnswer(method, after));
  const differences = all.filter((difference) => !isIgnored(difference.segments, ignore));
  return { differences, ignored: all.length - differences.length };
}

/**
 * Sends each exchange again, one after another, and compares each answer with the recorded one.
 * Throws a `SyntaxError` for an ignore path it cannot read, before sending anything.
 *
 * @example
 * ```ts
 * const report = await replaySession(parseSession(text), (method, params) => send(method, params));
 * console.log(`${report.changed} of ${report.total} answers changed`);
 * ```
 */
export async function replaySession(
  session: SavedSession,
  send: SendExchange,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const ignore = [...(session.ignore ?? []), ...(options.ignore ?? [])];
  const paths = ignore.map(parseIgnorePath);
  const outcomes: ReplayOutcome[] = [];
  for (const exchange of session.exchanges) {
    let now: Answer;
    try {
      now = { result: await send(exchange.method, exchange.params, exchange.server) };
    } catch (error) {
      if (options.isAnswer && !options.isAnswer(error)) throw error;
      now = { error: answerError(error) };
    }
    const recorded: Answer =
      exchange.error === undefined ? { result: exchange.result } : { error: exchange.error };
    const { differences, ignored } = compareAnswers(exchange.method, recorded, now, paths);
    outcomes.push({ exchange, now, same: differences.length === 0, differences, ignored });
  }
  return {
    total: outcomes.length,
    changed: outcomes.filter((outcome) => !outcome.same).length,
    ignore,
    outcomes,
  };
}

/** A failure as a recorded error: its message and, from a server, its JSON-RPC code. */
function answerError(error: unknown): AnswerError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? { code, message } : { message };
}
