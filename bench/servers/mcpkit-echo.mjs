/**
 * The echo server built with mcpkit's public API, shared by the stdio, HTTP and in-memory setups.
 * One definition: every session (and every stateless request) is served by this same object.
 * @module
 */
import { McpServer } from '@mcpkit/server';
import { ECHO_INPUT_SCHEMA, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

// MCPKIT_BENCH_OBSERVE and MCPKIT_BENCH_MIDDLEWARE (see ../lib/variants.mjs) are loaded only when
// set, through a specifier the bundle scenario does not follow: the minimal-server bundles must
// carry neither the harness's switches nor the OpenTelemetry SDK, prom-client or the guards.
const VARIANTS = '../lib/variants.mjs';
const variant =
  process.env.MCPKIT_BENCH_OBSERVE || process.env.MCPKIT_BENCH_MIDDLEWARE
    ? await (await import(VARIANTS)).benchVariant()
    : undefined;

/** The rate limiter of the `ratelimit` variant (its `httpGate` goes on the HTTP handler), else undefined. */
export const benchRateLimiter = variant?.rateLimiter;

/**
 * A new McpServer with the `echo` tool (input schema `{ text: string }`, validated on every call).
 * @example
 * createMcpkitEchoServer().connect(new StdioServerTransport());
 */
export function createMcpkitEchoServer() {
  const server = new McpServer({ ...SERVER_INFO }, variant?.observer ? { observer: variant.observer } : {});
  server.tool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA },
    ({ text }) => text,
  );
  variant?.install(server);
  return server;
}
