/**
 * The echo server built with mcpkit's public API, shared by the stdio, HTTP and in-memory setups.
 * One definition: every session (and every stateless request) is served by this same object.
 * @module
 */
import { McpServer } from '@mcpkit/server';
import { ECHO_INPUT_SCHEMA, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

// MCPKIT_BENCH_OBSERVE=otel|prometheus|both installs an observer (see ../lib/observe.mjs). Loaded
// only then, through a specifier the bundle scenario does not follow: the minimal-server bundles
// must not carry the OpenTelemetry SDK and prom-client that the observability rows bring in.
const OBSERVE = '../lib/observe.mjs';
const observer = process.env.MCPKIT_BENCH_OBSERVE ? await (await import(OBSERVE)).benchObserver() : undefined;

/**
 * MCPKIT_BENCH_MIDDLEWARE selects what the server installs (issue 21: at most 5% with three
 * pass-through middlewares): unset or `none`, nothing (the published numbers); `n` or `mw<n>`, n
 * pass-through middlewares; `ratelimit`, the rate-limit guard with a limit no load reaches, so every
 * request pays its bookkeeping and none is refused. The guards are imported only then, through a
 * specifier the bundle scenario does not follow, so the other measurements stay as they were.
 */
const VARIANT = process.env.MCPKIT_BENCH_MIDDLEWARE ?? 'none';
const GUARDS = '@mcpkit/server/guards';
const PASS_THROUGH = VARIANT === 'none' || VARIANT === 'ratelimit' ? 0 : Number(VARIANT.replace(/^mw/, ''));
if (!Number.isInteger(PASS_THROUGH) || PASS_THROUGH < 0)
  throw new Error(`bad MCPKIT_BENCH_MIDDLEWARE=${VARIANT}`);

/** The rate limiter of the `ratelimit` variant (its `httpGate` goes on the HTTP handler), else undefined. */
export const benchRateLimiter =
  VARIANT === 'ratelimit' ? (await import(GUARDS)).rateLimit({ rate: 1e9 }) : undefined;

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
  for (let i = 0; i < PASS_THROUGH; i++) server.use((_ctx, next) => next());
  if (benchRateLimiter) server.use(benchRateLimiter);
  return server;
}
