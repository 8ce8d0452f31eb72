/**
 * The echo server built with mcpkit's public API, shared by the stdio, HTTP and in-memory setups.
 * One definition: every session (and every stateless request) is served by this same object.
 * @module
 */
import { McpServer } from '@mcpkit/server';
import { ECHO_INPUT_SCHEMA, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';
import { benchObserver } from '../lib/observe.mjs';

// MCPKIT_BENCH_OBSERVE=otel|prometheus|both installs an observer (see ../lib/observe.mjs).
const observer = await benchObserver();

/**
 * A new McpServer with the `echo` tool (input schema `{ text: string }`, validated on every call).
 * @example
 * createMcpkitEchoServer().connect(new StdioServerTransport());
 */
export function createMcpkitEchoServer() {
  const server = new McpServer({ ...SERVER_INFO }, observer ? { observer } : {});
  server.tool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA },
    ({ text }) => text,
  );
  // MCPKIT_BENCH_MIDDLEWARE=n installs n pass-through middlewares, to measure the pipeline's cost
  // (issue 21: at most 5% with three). Unset, the server has none: the published numbers.
  const layers = Number(process.env.MCPKIT_BENCH_MIDDLEWARE ?? 0);
  for (let i = 0; i < layers; i++) server.use((_ctx, next) => next());
  return server;
}
