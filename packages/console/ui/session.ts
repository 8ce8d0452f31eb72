/**
 * Record and replay: a session saved as a file of exchanges (each request the console sent and
 * what the server answered), and the same requests sent again later, each answer compared with the
 * recorded one. A saved session is a regression fixture for a server's author. Against a host each
 * exchange names the server it went to, as that server saw it; replayed against a host, it goes to
 * that server again through the host (its policy included), under the name the catalogue gives it
 * now, and a list is compared with that server's part of the catalogue.
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
  /** Against a host: the server it went to (its method and params are as that server saw them). */
  server?: string;
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

/** A list operation of the API, and the key its items are named by. */
type ListOperation = 'listTools' | 'listResources' | 'listTemplates' | 'listPrompts';
const KEYS: Readonly<Record<ListOperation, string>> = {
  listTools: 'name',
  listResources: 'uri',
  listTemplates: 'uriTemplate',
  listPrompts: 'name',
};

/**
 * Against a host: where an exchange of one of its servers goes now. The catalogue's names are
 * read once per replay; a server's lists are read fresh each time one is replayed.
 */
class OnServer {
  constructor(
    readonly server: string,
    private readonly lists: Map<ListOperation, Promise<any[]>>,
  ) {}

  /** The catalogue's name for what the server calls `original` (a tool or a prompt). */
  async name(operation: 'listTools' | 'listPrompts', original: string): Promise<string> {
    const list = this.lists.get(operation) ?? call<any[]>(operation);
    this.lists.set(operation, list);
    const item = (await list).find((entry) => entry.server === this.server && entry.original === original);
    if (!item) throw new Error(`Server "${this.server}" offers no "${original}" now`);
    return item.name;
  }

  /** The server's URI as the host routes it: `mcp-host://SERVER/URI` always reaches that server. */
  uri(uri: string): string {
    const server = encodeURIComponent(this.server);
    return uri.startsWith('ui://')
      ? `ui://mcp-host/${server}/${uri.slice(5)}`
      : `mcp-host://${server}/${uri}`;
  }

  /** The server's part of the catalogue, each item under the server's own name. */
  async list(operation: ListOperation): Promise<unknown[]> {
    const key = KEYS[operation];
    const items = await call<any[]>(operation);
    return items
      .filter((item) => item.server === this.server)
      .map(({ server: _server, original, ...item }) => ({ ...item, [key]: original }));
  }
}

/** Sends a replayed request: to the server now connected, or through the host to `on`'s server. */
type Send = (params: Record<string, any>, on: OnServer | undefined) => Promise<any>;

/** A list request: the server's own list, or its part of the host's catalogue. */
const listing =
  (operation: ListOperation): Send =>
  (_params, on) =>
    on ? on.list(operation) : call(operation);

/** How each replayable method is sent again through the console's API, and what of its answer is compared. */
const REPLAY: Readonly<Record<string, { send: Send; compared: (result: any) => unknown }>> = {
  'tools/call': {
    send: async (params, on) =>
      call('callTool', {
        callId: callId(),
        name: on ? await on.name('listTools', params.name) : params.name,
        arguments: params.arguments ?? {},
      }),
    compared: ({ content, structuredContent, isError }) => ({
      content,
      structuredContent,
      isError: isError === true,
    }),
  },
  'resources/read': {
    send: (params, on) => call('readResource', { uri: on ? on.uri(params.uri) : params.uri }),
    compared: (result) => result.contents,
  },
  'prompts/get': {
    send: async (params, on) =>
      call('getPrompt', {
        name: on ? await on.name('listPrompts', params.name) : params.name,
        arguments: params.arguments ?? {},
      }),
    compared: (result) => result.messages,
  },
  'tools/list': { send: listing('listTools'), compared: (result) => result.tools ?? result },
  'resources/list': { send: listing('listResources'), compared: (result) => result.resources ?? result },
  'resources/templates/list': {
    send: listing('listTemplates'),
    compared: (result) => result.resourceTemplates ?? result,
  },
  'prompts/list': { send: listing('listPrompts'), compared: (result) => result.prompts ?? result },
};

/**
 * The exchanges of a protocol log that can be replayed: each request sent on the console's own
 * connection to one server (against a host, on each server's connection), with the answer that
 * came back for it (by id, per server).
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
  host = false,
): SavedSession {
  const answers = new Map<string, LogEntry>();
  const key = (entry: LogEntry) => `${entry.server ?? ''}\u0000${entry.id}`;
  // Only the console's own connections: a comparison's connections (labelled) are not the session;
  // against a host every server's connection is.
  const own = entries.filter((entry) => (entry.server !== undefined) === host);
  for (const entry of own) {
    if (entry.dir === 'in' && entry.method === undefined && entry.id !== undefined)
      answers.set(key(entry), entry);
  }
  const exchanges: Exchange[] = [];
  for (const entry of own) {
    if (entry.dir !== 'out' || !entry.method || !(entry.method in REPLAY) || entry.id === undefined) continue;
    const answer = answers.get(key(entry))?.message;
    if (!answer || typeof answer !== 'object') continue;
    const { _meta, ...params } = (entry.message.params ?? {}) as Record<string, any>;
    exchanges.push({
      ...(host && entry.server !== undefined ? { server: entry.server } : {}),
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
 * Sends each exchange again, in order, and compares each answer with the recorded one. Against a
 * host (`host`), an exchange that names its server goes to that server through the host.
 *
 * @example
 * ```ts
 * const outcomes = await replaySession(session);
 * ```
 */
export async function replaySession(session: SavedSession, host = false): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  const lists = new Map<ListOperation, Promise<any[]>>();
  for (const exchange of session.exchanges) {
    const replay = REPLAY[exchange.method];
    if (!replay) continue;
    const on = host && exchange.server !== undefined ? new OnServer(exchange.server, lists) : undefined;
    let now: unknown;
    let same: boolean;
    try {
      const result = await replay.send(exchange.params, on);
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
