/**
 * The scenarios of the runtime tests, run by the packed `@mcpkit/client` against the three modes of
 * the server in `mcp-server.mjs`. Web-standard APIs only: the same file runs on Node against a
 * server on each runtime, and on each runtime against a Node server.
 *
 * Two scenarios wait for an event that must come promptly (a `list_changed`, a handler's signal):
 * they give up after EVENT_WAIT_MS, far beyond the few milliseconds the event takes, but below the
 * 15 s keep-alive, so a runtime that notices a disconnect only at the next write fails.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';

/** How long the silent call stays silent: above Bun's 10 s idle timeout, below the 15 s keep-alive. */
export const SILENT_MS = 12_000;
const EVENT_WAIT_MS = 5_000;
const PROTOCOL_VERSION = '2025-11-25';

class ScenarioError extends Error {}

function check(condition, message) {
  if (!condition) throw new ScenarioError(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const textOf = (result) => result.content?.[0]?.text;
/** Modes are named by their options: `stateless`, and on workerd `stateless-json`, have no sessions. */
const stateful = (mode) => !mode.startsWith('stateless');

/** Resolves when `predicate` holds, polling; throws after EVENT_WAIT_MS. */
async function eventually(what, predicate) {
  const deadline = Date.now() + EVENT_WAIT_MS;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await sleep(50);
  }
  throw new ScenarioError(`${what} did not happen within ${EVENT_WAIT_MS} ms`);
}

/**
 * A connected client with a sampling handler. `onGet` sees the status of every standalone GET
 * stream the transport opens (through the transport's `fetch` option).
 */
async function connect(url, cleanups, { onGet, openGetStream = true } = {}) {
  const client = new McpClient(
    { name: 'runtime-tests', version: '1.0.0' },
    {
      // The scenarios check 2025 sessions (the GET stream, stateless refusals): 2025 pinned.
      protocolEra: '2025',
      onError: () => {},
      sampling: async (params) => ({
        role: 'assistant',
        content: { type: 'text', text: `echo ${params.messages[0].content.text}` },
        model: 'test-model',
      }),
    },
  );
  const transport = new StreamableHttpClientTransport(url, {
    openGetStream,
    fetch: async (target, init) => {
      const response = await fetch(target, init);
      if ((init?.method ?? 'GET') === 'GET') onGet?.(response.status);
      return response;
    },
  });
  cleanups.push(() => client.close());
  await client.connect(transport);
  return { client, transport };
}

function headersFor(sessionId) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return headers;
}

/** POSTs one `tools/call` outside the client, so that aborting it drops the connection (no cancel). */
function rawCall(url, sessionId, name, args, signal) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  return fetch(url, { method: 'POST', headers: headersFor(sessionId), body, signal }).then((response) =>
    response.text(),
  );
}

/** Sends `notifications/cancelled` for `requestId` of the session. */
async function rawCancel(url, sessionId, requestId) {
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
  const response = await fetch(url, { method: 'POST', headers: headersFor(sessionId), body });
  check(response.status === 202, `notifications/cancelled got HTTP ${response.status}`);
}

/**
 * Each scenario: `(url, mode, cleanups, limitation) => Promise<string | void>`, throwing when the
 * runtime misbehaves. `limitation` is set when the runtime documents that it cannot do what the
 * scenario checks: the scenario then asserts the limitation and returns its text.
 */
export const SCENARIOS = {
  async 'JSON-Schema tool'(url, _mode, cleanups) {
    const { client } = await connect(url, cleanups);
    const add = (await client.tools()).find((tool) => tool.name === 'add');
    check(
      add?.inputSchema?.required?.join() === 'a,b',
      `tools/list lacks add's schema: ${JSON.stringify(add)}`,
    );
    const result = await client.callTool('add', { a: 1, b: 2 });
    check(textOf(result) === '3', `add(1, 2) answered ${JSON.stringify(result)}`);
  },

  async 'bad arguments rejected'(url, _mode, cleanups) {
    const { client } = await connect(url, cleanups);
    const result = await client.callTool('add', { a: 'one', b: 2 });
    check(
      result.isError === true && textOf(result)?.startsWith('Invalid arguments for tool "add"'),
      `add("one", 2) answered ${JSON.stringify(result)}`,
    );
  },

  async 'sampling during a call'(url, mode, cleanups, limitation) {
    const { client } = await connect(url, cleanups);
    const result = await client.callTool('ask_model', { question: 'six times seven?' });
    if (stateful(mode)) {
      check(
        textOf(result) === 'model said: echo six times seven?',
        `ask_model answered ${JSON.stringify(result)}`,
      );
    } else {
      // Documented: a stateless server cannot send requests to the client; the tool fails.
      check(result.isError === true, `stateless ask_model should fail, answered ${JSON.stringify(result)}`);
      return limitation;
    }
  },

  async 'list_changed to an idle session'(url, mode, cleanups, limitation) {
    const getStatuses = [];
    let changed = false;
    const idle = await connect(url, cleanups, { onGet: (status) => getStatuses.push(status) });
    idle.client.onListChanged('tools', () => {
      changed = true;
    });
    await eventually('the standalone GET stream opening', () => getStatuses.length > 0);
    if (!stateful(mode)) {
      check(getStatuses[0] === 405, `a stateless GET should get 405, got ${getStatuses[0]}`);
      return limitation;
    }
    check(getStatuses[0] === 200, `the standalone GET got HTTP ${getStatuses[0]}`);
    const other = await connect(url, cleanups);
    const id = crypto.randomUUID().slice(0, 8);
    await other.client.callTool('add_tool', { id });
    await eventually('notifications/tools/list_changed on the idle session', () => changed);
    const names = (await idle.client.tools()).map((tool) => tool.name);
    check(names.includes(`added_${id}`), `the idle session does not list added_${id}: ${names}`);
  },

  async 'long silent call'(url, _mode, cleanups) {
    let resumed = 0;
    const { client } = await connect(url, cleanups, { openGetStream: false, onGet: () => resumed++ });
    const result = await client.callTool('sleep', { ms: SILENT_MS }, { timeout: SILENT_MS + 30_000 });
    check(textOf(result) === `slept ${SILENT_MS} ms`, `sleep answered ${JSON.stringify(result)}`);
    // Without the standalone stream, a GET can only be the client resuming a dropped SSE stream.
    check(resumed === 0, 'the connection was dropped while the call was silent (the client resumed it)');
  },

  async 'disconnect reaches the handler signal'(url, mode, cleanups, limitation) {
    const { client, transport } = await connect(url, cleanups);
    const id = crypto.randomUUID();
    const state = async () => JSON.parse(textOf(await client.callTool('call_state', { id })));
    const controller = new AbortController();
    const call = rawCall(url, transport.sessionId, 'hang', { id }, controller.signal).catch(() => 'dropped');
    await eventually('the hanging call starting', async () => (await state()).started);
    controller.abort();
    check((await call) === 'dropped', 'the aborted call was answered');
    if (mode === 'sse') {
      // Documented (and the spec's rule): a resumable SSE stream that drops is not a cancellation,
      // the client may come back with Last-Event-ID. Its signal fires on notifications/cancelled.
      check(!(await state()).aborted, 'a dropped resumable SSE stream aborted the call');
      await rawCancel(url, transport.sessionId, 1);
    }
    if (limitation) {
      // The runtime documents that it may or may not tell the handler (workerd cancelled the SSE
      // body in one CI run out of many): what must hold is that the dropped call does not take the
      // server with it, and the note records which way it went this time.
      await sleep(EVENT_WAIT_MS);
      const { started, aborted } = await state();
      check(started, 'the server forgot the hanging call after its client left');
      return `${limitation} (this run: ${aborted ? 'it fired' : 'it did not fire'})`;
    }
    await eventually(
      "the handler's signal firing after the client left",
      async () => (await state()).aborted,
    );
  },
};

/**
 * Runs every scenario in every mode at once (they wait more than they compute) and reports each.
 *
 * @param {Record<string, string>} urls endpoint URL per mode (`sse`, `json`, `stateless`)
 * @param {{ limitations?: Record<string, string>, serialPerMode?: boolean }} [options] documented
 *   limitations, by scenario; `serialPerMode` runs one mode's scenarios one after another (a
 *   browser page holds only 6 connections per host, and most scenarios keep a stream open)
 * @returns {Promise<{ mode: string, scenario: string, ok: boolean, note?: string, error?: string, ms: number }[]>}
 * @example
 * const results = await runScenarios({ sse: 'http://127.0.0.1:3000/mcp', json: '…', stateless: '…' });
 */
export async function runScenarios(urls, { limitations = {}, serialPerMode = false } = {}) {
  const modes = Object.entries(urls).map(async ([mode, url]) => {
    const one = ([scenario, run]) =>
      runOne(mode, scenario, (cleanups) => run(url, mode, cleanups, limitations[scenario]));
    if (!serialPerMode) return Promise.all(Object.entries(SCENARIOS).map(one));
    const results = [];
    for (const entry of Object.entries(SCENARIOS)) results.push(await one(entry));
    return results;
  });
  return (await Promise.all(modes)).flat();
}

async function runOne(mode, scenario, body) {
  const started = Date.now();
  const cleanups = [];
  try {
    const note = await body(cleanups);
    return { mode, scenario, ok: true, ...(note ? { note } : {}), ms: Date.now() - started };
  } catch (error) {
    const message = error instanceof ScenarioError ? error.message : String(error?.stack ?? error);
    return { mode, scenario, ok: false, error: message, ms: Date.now() - started };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
}
