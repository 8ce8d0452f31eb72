/**
 * A session recorded from the protocol log: each request the console sent on its own connection
 * (against a host, on each server's connection) that a replay can send again, with the answer that
 * came back for it (matched by id, per server).
 * @module
 */
import { jsonDifferences } from './jsonDiff.js';
import { LIST_METHODS } from './listMethods.js';
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
  /**
   * The connection it went over when not the console's own to one server: against a host, the
   * server it went to; otherwise a comparison's connection.
   */
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

/**
 * The recorded session of a protocol log. A list fetched page by page is one exchange with every
 * page's items (a replay lists every page too, so a server that pages differently is not a change);
 * a list whose last page never came is left out (the page shows lists page by page) and a list
 * that answers what the last one did is kept once; a tool call run as a task is left out
 * (its answer is a task whose id differs on every run). Against a `host`, each exchange names the
 * server it went to and is as that server saw it (its own names and URIs).
 *
 * @example
 * ```ts
 * const session = recordSession(entries, '-- node server.js', '2025-11-25');
 * const hostSession = recordSession(entries, '--config mcp.json', undefined, true);
 * ```
 */
export function recordSession(
  entries: readonly LoggedMessage[],
  target: string,
  protocolVersion?: string,
  host = false,
): SavedSession {
  // Only the console's own connections: a comparison's connections (labelled) are not the session;
  // against a host every server's connection is.
  const own = entries.filter((entry) => (entry.server !== undefined) === host);
  /** Ids are per connection: an answer and a list are keyed by their server too. */
  const keyOf = (entry: LoggedMessage, part: unknown) => `${entry.server ?? ''}\u0000${String(part)}`;
  const answers = new Map<string, any>();
  for (const entry of own) {
    if (entry.dir === 'in' && entry.method === undefined && entry.id !== undefined)
      answers.set(keyOf(entry, entry.id), entry.message);
  }
  const exchanges: Exchange[] = [];
  /** The list of each method that later pages add to. */
  const lists = new Map<string, RecordedList>();
  const recordedLists: RecordedList[] = [];
  for (const entry of own) {
    const { method } = entry;
    if (entry.dir !== 'out' || !method || entry.id === undefined) continue;
    if (!(REPLAYABLE_METHODS as readonly string[]).includes(method)) continue;
    const answer = answers.get(keyOf(entry, entry.id));
    if (!answer || typeof answer !== 'object') continue;
    const { _meta, cursor, ...params } = (entry.message?.params ?? {}) as Record<string, any>;
    if (method === 'tools/call' && params.task !== undefined) continue;
    const key = LIST_METHODS[method]?.[0];
    const items: unknown = key ? answer.result?.[key] : undefined;
    const earlier = lists.get(keyOf(entry, method));
    if (key && cursor !== undefined && earlier && Array.isArray(items)) {
      earlier.items.push(...items);
      earlier.complete = answer.result?.nextCursor === undefined;
      continue;
    }
    const server = entry.server === undefined ? {} : { server: entry.server };
    if ('error' in answer) {
      exchanges.push({ ...server, method, params, error: answer.error as AnswerError });
      continue;
    }
    if (key && Array.isArray(items)) {
      const { nextCursor, ...result } = answer.result as Record<string, unknown>;
      const list: RecordedList = { items: [...items], complete: nextCursor === undefined };
      // Later pages push onto the same array.
      list.exchange = { ...server, method, params, result: { ...result, [key]: list.items } };
      lists.set(keyOf(entry, method), list);
      recordedLists.push(list);
      exchanges.push(list.exchange);
      continue;
    }
    exchanges.push({ ...server, method, params, result: answer.result });
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
 * The exchanges without a list that answered exactly what the last one of its kind (from the same
 * server) did (a client lists again after a call when its list expired: the same list, many times).
 */
function withoutRepeatedLists(exchanges: readonly Exchange[]): Exchange[] {
  const last = new Map<string, Exchange>();
  return exchanges.filter((exchange) => {
    if (!LIST_METHODS[exchange.method]) return true;
    const kind = `${exchange.server ?? ''}\u0000${exchange.method}`;
    const previous = last.get(kind);
    last.set(kind, exchange);
    return !previous || jsonDifferences(previous, exchange).length > 0;
  });
}
