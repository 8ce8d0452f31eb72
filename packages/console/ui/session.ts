/**
 * Record and replay: a session saved as a file of exchanges (each request the console sent and
 * what the server answered), and the same requests sent again later, each answer compared with the
 * recorded one. A saved session is a regression fixture for a server's author.
 * @module
 */
import { call, callId } from './api.js';
import { canonical } from './canonical.js';
import type { LogEntry } from './logEntry.js';

/** The format name and version a saved session carries. */
export const SESSION_FORMAT = 'mcpkit-console-session';

/**
 * One recorded request and its answer.
 *
 * @example
 * ```ts
 * const exchange: Exchange = { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } }, result: {} };
 * ```
 */
export interface Exchange {
  method: string;
  params: Record<string, any>;
  result?: unknown;
  error?: unknown;
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
  format: typeof SESSION_FORMAT;
  version: 1;
  target: string;
  protocolVersion?: string;
  exchanges: Exchange[];
}

/** How each replayable method is sent again through the console's API, and what of its answer is compared. */
const REPLAY: Readonly<
  Record<string, { send: (params: Record<string, any>) => Promise<any>; compared: (result: any) => unknown }>
> = {
  'tools/call': {
    send: (params) =>
      call('callTool', { callId: callId(), name: params.name, arguments: params.arguments ?? {} }),
    compared: ({ content, structuredContent, isError }) => ({
      content,
      structuredContent,
      isError: isError === true,
    }),
  },
  'resources/read': {
    send: (params) => call('readResource', { uri: params.uri }),
    compared: (result) => result.contents,
  },
  'prompts/get': {
    send: (params) => call('getPrompt', { name: params.name, arguments: params.arguments ?? {} }),
    compared: (result) => result.messages,
  },
  'tools/list': { send: () => call('listTools'), compared: (result) => result.tools ?? result },
  'resources/list': { send: () => call('listResources'), compared: (result) => result.resources ?? result },
  'resources/templates/list': {
    send: () => call('listTemplates'),
    compared: (result) => result.resourceTemplates ?? result,
  },
  'prompts/list': { send: () => call('listPrompts'), compared: (result) => result.prompts ?? result },
};

/**
 * The exchanges of a protocol log that can be replayed: each request the console sent, with the
 * answer that came back for it (by id), on the console's own connection to one server.
 *
 * @example
 * ```ts
 * const session = recordSession(entries, '-- node server.js', '2025-11-25');
 * ```
 */
export function recordSession(
  entries: readonly LogEntry[],
  target: string,
  protocolVersion?: string,
): SavedSession {
  const answers = new Map<string, LogEntry>();
  // Only the console's own connection: a comparison's connections (labelled) are not the session.
  const own = entries.filter((entry) => entry.server === undefined);
  for (const entry of own) {
    if (entry.dir === 'in' && entry.method === undefined && entry.id !== undefined)
      answers.set(String(entry.id), entry);
  }
  const exchanges: Exchange[] = [];
  for (const entry of own) {
    if (entry.dir !== 'out' || !entry.method || !(entry.method in REPLAY) || entry.id === undefined) continue;
    const answer = answers.get(String(entry.id))?.message;
    if (!answer || typeof answer !== 'object') continue;
    const { _meta, ...params } = (entry.message.params ?? {}) as Record<string, any>;
    exchanges.push({
      method: entry.method,
      params,
      ...('error' in answer ? { error: answer.error } : { result: answer.result }),
    });
  }
  return {
    format: SESSION_FORMAT,
    version: 1,
    target,
    ...(protocolVersion ? { protocolVersion } : {}),
    exchanges,
  };
}

/**
 * What replaying one exchange found.
 *
 * @example
 * ```ts
 * const outcome: ReplayOutcome = { exchange, same: true, now: {} };
 * ```
 */
export interface ReplayOutcome {
  exchange: Exchange;
  same: boolean;
  /** What the server answers now (a result or `{ error }`). */
  now: unknown;
}

/**
 * Reads a saved session, refusing a file that is not one.
 *
 * @example
 * ```ts
 * const session = parseSession(await file.text());
 * ```
 */
export function parseSession(text: string): SavedSession {
  const value = JSON.parse(text) as Partial<SavedSession>;
  if (value?.format !== SESSION_FORMAT || value.version !== 1 || !Array.isArray(value.exchanges))
    throw new Error(`Not a saved console session (${SESSION_FORMAT}, version 1)`);
  return value as SavedSession;
}

/**
 * Sends each exchange again, in order, and compares each answer with the recorded one.
 *
 * @example
 * ```ts
 * const outcomes = await replaySession(session);
 * ```
 */
export async function replaySession(session: SavedSession): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  for (const exchange of session.exchanges) {
    const replay = REPLAY[exchange.method];
    if (!replay) continue;
    let now: unknown;
    let same: boolean;
    try {
      const result = await replay.send(exchange.params);
      now = result;
      same =
        exchange.error === undefined &&
        canonical(replay.compared(result)) === canonical(replay.compared(exchange.result ?? {}));
    } catch (error) {
      now = { error: error instanceof Error ? error.message : String(error) };
      same = exchange.error !== undefined;
    }
    outcomes.push({ exchange, same, now });
  }
  return outcomes;
}
