/**
 * `@mcpkit/console/replay`: the recorded session format and its replay, shared by the console's
 * page and `mcpkit replay`. A session file holds requests and the answers they got; a replay sends
 * each again and diffs each answer field by field (ids and timestamps left out by ignore paths).
 * Web-standard: the page bundles it, the CLI imports it without the console's server.
 *
 * ```ts
 * import { clientExchange, parseSession, replaySession } from '@mcpkit/console/replay';
 * const report = await replaySession(parseSession(text), clientExchange(client), { ignore: ['structuredContent.at'] });
 * for (const outcome of report.outcomes) for (const d of outcome.differences) console.log(d.change, d.path);
 * ```
 *
 * A session recorded against a host names each exchange's server; `hostExchange` sends each to
 * its server through the host: `replaySession(session, hostExchange(clientExchange(host)))`.
 * @module
 */
export { clientExchange, type ExchangeClient } from './replay/clientExchange.js';
export { type Answer, comparedAnswer } from './replay/comparedAnswer.js';
export { hostExchange, NotOfferedError } from './replay/hostExchange.js';
export { type IgnorePath, isIgnored, parseIgnorePath } from './replay/ignorePaths.js';
export { type Difference, formatPath, jsonDifferences } from './replay/jsonDiff.js';
export { type LoggedMessage, recordSession } from './replay/recordSession.js';
export {
  compareAnswers,
  type ReplayOptions,
  type ReplayOutcome,
  type ReplayReport,
  replaySession,
  type SendExchange,
} from './replay/replaySession.js';
export {
  type AnswerError,
  type Exchange,
  exchangeLabel,
  parseSession,
  REPLAYABLE_METHODS,
  type ReplayableMethod,
  type SavedSession,
  SESSION_FORMAT,
  SessionFileError,
} from './replay/sessionFile.js';
