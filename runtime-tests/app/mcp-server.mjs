/**
 * The server every runtime serves in the runtime tests: plain JavaScript on the packed
 * `@mcpkit/server`, web-standard APIs only, so the same file runs on Node, Bun, Deno and workerd.
 * Each tool exists for one scenario of `scenarios.mjs`.
 */
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';

/** The handler options of each mode the scenarios run in. */
export const MODES = {
  sse: {},
  json: { enableJsonResponse: true },
  stateless: { stateless: true },
};

const idSchema = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
};

/**
 * A fresh server definition. `calls` remembers, per call id, whether `hang` started and whether its
 * signal fired: the disconnect scenario asks for it with `call_state` on another request.
 */
export function createServer() {
  // Errors go to stdout, so that stderr holds only what the runtime itself says about the code (its
  // warnings fail the suite). The one expected error: sampling from a stateless server.
  const onError = (error) => console.log(`[onError] ${error?.message ?? error}`);
  const server = new McpServer({ name: 'runtime-test', version: '1.0.0' }, { onError });
  const calls = new Map();
  server.tool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    },
    ({ a, b }) => String(a + b),
  );
  server.tool(
    'ask_model',
    { inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] } },
    async ({ question }, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: question } }],
        maxTokens: 50,
      });
      return `model said: ${reply.content.text}`;
    },
  );
  server.tool('add_tool', { inputSchema: idSchema }, ({ id }) => {
    server.tool(`added_${id}`, () => 'added');
    return `added_${id}`;
  });
  server.tool(
    'sleep',
    { inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] } },
    ({ ms }, ctx) =>
      new Promise((resolve) => {
        // Silent on purpose: no progress, no log, nothing on the wire until the result.
        const timer = setTimeout(() => resolve(`slept ${ms} ms`), ms);
        ctx.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      }),
  );
  server.tool(
    'hang',
    { inputSchema: idSchema },
    ({ id }, ctx) =>
      new Promise((resolve) => {
        const state = { started: true, aborted: false };
        calls.set(id, state);
        // A pending timer, as a real tool has pending I/O: workerd cancels a request that waits on
        // nothing at all ("the Worker's code had hung").
        const timer = setTimeout(() => resolve('not aborted'), 60_000);
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            state.aborted = true;
            resolve('aborted');
          },
          { once: true },
        );
      }),
  );
  server.tool('call_state', { inputSchema: idSchema }, ({ id }) =>
    JSON.stringify(calls.get(id) ?? { started: false, aborted: false }),
  );
  return server;
}

/**
 * The web-standard handler of one mode, over its own server definition. `options` adds to the
 * mode's (a runtime's documented settings, e.g. `keepAliveInterval: false` on Workers).
 */
export function createHandler(mode, options = {}) {
  return createStreamableHttpHandler(createServer(), { ...MODES[mode], ...options });
}
