/**
 * The console's JSON API, as a web-standard handler: `POST /api/<operation>` with a JSON body
 * answers `{ result }` or `{ error: { message, code? } }`; `GET /api/events` is the event stream.
 * Only the operations listed here exist: nothing the page sends can start a command or reach a
 * server the person did not name.
 * @module
 */
import { McpError, type Root, type Task } from '@mcpkit/core';
import type { ConsoleBackend, ConsoleListKind, PinnedEra } from './backend.js';
import type { EventHub } from './eventHub.js';
import type { PageLogin } from './pageLogin.js';
import type { Questions } from './questions.js';
import { REPLAYABLE_METHODS } from './replay/sessionFile.js';
import { askForView } from './viewQuestions.js';

/** The largest request body the API reads. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Tool calls in flight at most; past it a call is refused until one ends. */
const MAX_CALLS = 64;

type Params = Record<string, unknown>;

/** A request the page got wrong: answered 400 with the reason. */
class BadRequest extends Error {}

function text(params: Params, key: string): string {
  const value = params[key];
  if (typeof value !== 'string' || value.length === 0)
    throw new BadRequest(`"${key}" must be a non-empty string`);
  return value;
}

function object(params: Params, key: string): Record<string, unknown> {
  const value = params[key] ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequest(`"${key}" must be an object`);
  return value as Record<string, unknown>;
}

function strings(params: Params, key: string): Record<string, string> {
  const value = object(params, key);
  for (const [name, item] of Object.entries(value))
    if (typeof item !== 'string') throw new BadRequest(`"${key}.${name}" must be a string`);
  return value as Record<string, string>;
}

const ERAS: ReadonlySet<string> = new Set(['auto', '2026', '2025']);

/** Roots the page may set at most. */
const MAX_ROOTS = 64;

/** The roots the page sent: `file://` URIs, each with an optional name. */
function roots(params: Params): Root[] {
  const value = params.roots;
  if (!Array.isArray(value) || value.length > MAX_ROOTS)
    throw new BadRequest(`"roots" must be an array of at most ${MAX_ROOTS}`);
  return value.map((root, index) => {
    const { uri, name } = (root ?? {}) as { uri?: unknown; name?: unknown };
    if (typeof uri !== 'string' || !uri.startsWith('file://') || !URL.canParse(uri))
      throw new BadRequest(`"roots[${index}].uri" must be a file:// URI`);
    if (name !== undefined && typeof name !== 'string')
      throw new BadRequest(`"roots[${index}].name" must be a string`);
    return name ? { uri, name } : { uri };
  });
}

/**
 * The API of one console.
 *
 * @example
 * ```ts
 * const api = new ConsoleApi(backend, hub, questions);
 * const response = await api.handle('listTools', new Request('http://127.0.0.1/api/listTools', { method: 'POST', body: '{}' }));
 * ```
 */
export class ConsoleApi {
  /** Tool calls in flight, by the id the page gave them, so the page can cancel one. */
  readonly #calls = new Map<string, AbortController>();
  readonly #operations: Readonly<Record<string, (params: Params) => Promise<unknown>>>;

  /**
   * `page.sandbox` is the URL of the MCP Apps sandbox proxy, told to the page in `state` (the page
   * renders no App without it); `page.login`, the logins the page runs (an HTTP server asking for
   * OAuth), and how to forget a refused one before the person tries again.
   */
  constructor(
    backend: ConsoleBackend,
    hub: EventHub,
    questions: Questions,
    page: { sandbox?: string; login?: { control: PageLogin; retry?: (() => void) | undefined } } = {},
  ) {
    const { login, ...shown } = page;
    // A request the person makes may log in anew (a step-up they cancelled before, asked again);
    // the client's own retries within one request may not.
    const byPerson =
      (run: (params: Params) => Promise<unknown>) =>
      (params: Params): Promise<unknown> => {
        login?.retry?.();
        return run(params);
      };
    this.#operations = {
      state: async () => ({
        ...backend.state(),
        questions: questions.waiting(),
        ...shown,
        ...(login ? { logins: login.control.waiting() } : {}),
      }),
      listTools: (params) => listing(backend, 'tools', () => backend.listTools(), params),
      listResources: (params) => listing(backend, 'resources', () => backend.listResources(), params),
      listTemplates: (params) => listing(backend, 'templates', () => backend.listTemplates(), params),
      listPrompts: (params) => listing(backend, 'prompts', () => backend.listPrompts(), params),
      callTool: byPerson((params) => this.#callTool(backend, hub, params)),
      cancel: async (params) => {
        this.#calls.get(text(params, 'callId'))?.abort('Cancelled in the console');
        return {};
      },
      setRoots: async (params) => {
        if (!backend.setRoots) throw new BadRequest('This console cannot choose roots');
        await backend.setRoots(roots(params));
        return {};
      },
      compareTool: async (params) => {
        if (!backend.compareTool) throw new BadRequest('Comparing revisions needs one server, not a host');
        return backend.compareTool(text(params, 'name'), object(params, 'arguments'));
      },
      compare: async (params) => {
        if (!backend.compare) throw new BadRequest('Comparing revisions needs one server, not a host');
        const method = text(params, 'method');
        if (!(REPLAYABLE_METHODS as readonly string[]).includes(method))
          throw new BadRequest(`"method" must be one of ${REPLAYABLE_METHODS.join(', ')}`);
        return backend.compare(method, object(params, 'params'));
      },
      readResource: byPerson((params) => backend.readResource(text(params, 'uri'))),
      subscribe: async (params) => {
        await backend.subscribe(text(params, 'uri'));
        return {};
      },
      unsubscribe: async (params) => {
        await backend.unsubscribe(text(params, 'uri'));
        return {};
      },
      getPrompt: byPerson((params) => backend.getPrompt(text(params, 'name'), strings(params, 'arguments'))),
      complete: (params) => backend.complete(object(params, 'params') as never),
      ping: async () => {
        await backend.ping();
        return {};
      },
      // An App's view asks the person (sampling, files to save): the same questions as a server's.
      askForView: (params) => askForView(questions, params),
      answer: async (params) => {
        if (!questions.answer(text(params, 'id'), params.answer))
          throw new BadRequest('No such question is waiting');
        return {};
      },
      // A restart the person asks for may log in anew (a login they cancelled before, say), and is
      // answered once the server is up or its login waits for the person (the page shows it).
      restartServer: byPerson(async (params) => {
        if (!backend.restartServer) throw new BadRequest('Restarting a server needs a host (--config)');
        const restarting = backend.restartServer(text(params, 'server'));
        await (login ? login.control.untilConnectedOrWaiting(restarting) : restarting);
        return backend.state();
      }),
      reconnect: async (params) => {
        const era = text(params, 'era');
        if (!ERAS.has(era)) throw new BadRequest('"era" must be auto, 2026 or 2025');
        // A login left waiting is given up, a refused one forgotten: this connection may log in anew.
        login?.control.cancel();
        login?.retry?.();
        const connecting = backend.reconnect(era as PinnedEra);
        // Answered once connected, or once a login waits for the person (the page shows it).
        await (login ? login.control.untilConnectedOrWaiting(connecting) : connecting);
        return backend.state();
      },
      cancelLogin: async () => {
        login?.control.cancel();
        return {};
      },
    };
  }

  /** Answers `POST /api/<operation>`. */
  async handle(operation: string, request: Request): Promise<Response> {
    const run = Object.hasOwn(this.#operations, operation) ? this.#operations[operation] : undefined;
    if (!run) return json({ error: { message: `Unknown operation "${operation}"` } }, 404);
    if (request.method !== 'POST') return json({ error: { message: 'Use POST' } }, 405);
    if (!(request.headers.get('content-type') ?? '').startsWith('application/json'))
      return json({ error: { message: 'Send application/json' } }, 415);
    try {
      const params = await readParams(request);
      return json({ result: (await run(params)) ?? null });
    } catch (error) {
      if (error instanceof BadRequest) return json({ error: { message: error.message } }, 400);
      return json({ error: describe(error) });
    }
  }

  /** Aborts every call in flight (the console is closing). */
  close(): void {
    for (const call of this.#calls.values()) call.abort('The console is closing');
  }

  async #callTool(backend: ConsoleBackend, hub: EventHub, params: Params): Promise<unknown> {
    const callId = text(params, 'callId');
    if (this.#calls.size >= MAX_CALLS || this.#calls.has(callId))
      throw new BadRequest('Too many calls in flight, or a call id in use');
    const controller = new AbortController();
    this.#calls.set(callId, controller);
    try {
      return await backend.callTool(text(params, 'name'), object(params, 'arguments'), {
        signal: controller.signal,
        onProgress: (update) => hub.emit('progress', { callId, ...update }),
        ...(params.task === true
          ? { onTaskStatus: (task: Task) => hub.emit('taskStatus', { callId, ...task }) }
          : {}),
      });
    } finally {
      this.#calls.delete(callId);
    }
  }
}

/**
 * A list: every item, or with `paged: true` one page as the server sends it (`cursor` names which)
 * and the `nextCursor` of the next one. A host's catalogue is one page.
 */
async function listing(
  backend: ConsoleBackend,
  kind: ConsoleListKind,
  all: () => Promise<unknown[]>,
  params: Params,
): Promise<unknown> {
  if (params.paged !== true) return all();
  const cursor = params.cursor === undefined ? undefined : text(params, 'cursor');
  if (!backend.listPage) return { items: await all() };
  return backend.listPage(kind, cursor);
}

async function readParams(request: Request): Promise<Params> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES)
    throw new BadRequest('Request body too large');
  const body = await request.text();
  if (body.length > MAX_BODY_BYTES) throw new BadRequest('Request body too large');
  let value: unknown;
  try {
    value = body.length === 0 ? {} : JSON.parse(body);
  } catch {
    throw new BadRequest('The body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequest('The body must be a JSON object');
  return value as Params;
}

/** A failure as the page shows it: the message, and the JSON-RPC code when the server sent one. */
function describe(error: unknown): { message: string; code?: number; data?: unknown } {
  if (error instanceof McpError)
    return {
      message: error.message,
      code: error.code,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/**
 * A JSON response that no other origin may read and no cache keeps.
 *
 * @example
 * ```ts
 * json({ result: [] });
 * ```
 */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
