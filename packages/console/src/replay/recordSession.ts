/**
 * A session recorded from the protocol log: each request the console sent on its own connection
 * that a replay can send again, with the answer that came back for it (matched by id).
 * @module
 */
import { jsonDifferences } from './jsonDiff.js';
import {
  type AnswerError,
  type Exchange,
  REPLAYABLE_METHODS,
  type SavedSession,
  SESSION_FORMAT,
} from './sessionFile.js';

/**
 * What recording reads of a protocol log entry (the backend's `LogEntry` and the page's copy of it).
 *
 * @example
 * ```ts
 * const entry: LoggedMessage = { dir: 'out', method: 'tools/list', id: 1, message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } };
 * ```
 */
export interface LoggedMessage {
  readonly dir: 'out' | 'in';
  /** Set when the message went to or came from a connection other than the console's own. */
  readonly server?: string | undefined;
  readonly method?: string | undefined;
  readonly id?: string | number | undefined;
  readonly message: any;
}

/** A list being recorded: its items so far, and whether its last page came. */
interface RecordedList {
  readonly items: unknown[];
  complete: boolean;
  exchange?: Exchange;
}

/** The array each list method answers with. */
const LIST_KEY: Readonly<Record<string, string>> = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};

/**
 * The recorded session of a protocol log. A list fetched page by page is one exchange with every
 * page's items (a replay lists every page too, so a server that pages differently is not a change);
 * a list whose last page never came is left out (the page shows lists page by page) and a list
 * that answers what the last one did is kept once; a tool call run as a task is left out
 * (its answer is a task whose id differs on every run).
 *
 * @example
 * ```ts
 * const session = recordSession(entries, '-- node server.js', '2025-11-25');
 * ```
 */
export function recordSession(
  entries: readonly LoggedMessage[],
  target: string,
  protocolVersion?: string,
): SavedSession {
  // Only the console's own connection: a comparison's connections (labelled) are not the session.
  const own = entries.filter((entry) => entry.server === undefined);
  const answers = new Map<string, any>();
  for (const entry of own) {
    if (entry.dir === 'in' && entry.method === undefined && entry.id !== undefined)
      answers.set(String(entry.id), entry.message);
  }
  const exchanges: Exchange[] = [];
  /** The list of each method that later pages add to. */
  const lists = new Map<string, RecordedList>();
  const recordedLists: RecordedList[] = [];
  for (const entry of own) {
    const { method } = entry;
    if (entry.dir !== 'out' || !method || entry.id === undefined) continue;
    if (!(REPLAYABLE_METHODS as readonly string[]).includes(method)) continue;
    const answer = answers.get(String(entry.id));
    if (!answer || typeof answer !== 'object') continue;
    const { _meta, cursor, ...params } = (entry.message?.params ?? {}) as Record<string, any>;
    if (method === 'tools/call' && params.task !== undefined) continue;
    const key = LIST_KEY[method];
    const items: unknown = key ? answer.result?.[key] : undefined;
    const earlier = lists.get(method);
    if (key && cursor !== undefined && earlier && Array.isArray(items)) {
      earlier.items.push(...items);
      earlier.complete = answer.result?.nextCursor === undefined;
      continue;
    }
    if ('error' in answer) {
      exchanges.push({ method, params, error: answer.error as AnswerError });
      continue;
    }
    if (key && Array.isArray(items)) {
      const { nextCursor, ...result } = answer.result as Record<string, unknown>;
      const list: RecordedList = { items: [...items], complete: nextCursor === undefined };
      // Later pages push onto the same array.
      list.exchange = { method, params, result: { ...result, [key]: list.items } };
      lists.set(method, list);
      recordedLists.push(list);
      exchanges.push(list.exchange);
      continue;
    }
    exchanges.push({ method, params, result: answer.result });
  }
  return {
    format: SESSION_FORMAT,
    version: 1,
    target,
    ...(protocolVersion ? { protocolVersion } : {}),
    exchanges: withoutRepeatedLists(
      // A list whose later pages the person never asked for is left out: a replay lists every page.
      exchanges.filter(
        (exchange) => !recordedLists.some((list) => list.exchange === exchange && !list.complete),
      ),
    ),
  };
}

/**
 * The exchanges without a list that answered exactly what the last one of its kind did (a client
 * lists again after a call when its list expired: the same list, many times).
 */
function withoutRepeatedLists(exchanges: readonly Exchange[]): Exchange[] {
  const last = new Map<string, Exchange>();
  return exchanges.filter((exchange) => {
    if (!LIST_KEY[exchange.method]) return true;
    const previous = last.get(exchange.method);
    last.set(exchange.method, exchange);
    return !previous || jsonDifferences(previous, exchange).length > 0;
  });
}
