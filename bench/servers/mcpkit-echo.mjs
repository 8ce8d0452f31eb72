/**
 * The echo server built with mcpkit's public API, shared by the stdio, HTTP and in-memory setups.
 * One definition: every session (and every stateless request) is served by this same object.
 * @module
 */
import { McpServer } from '@mcpkit/server';
import { ECHO_INPUT_SCHEMA, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

/**
 * A new McpServer with the `echo` tool (input schema `{ text: string }`, validated on every call).
 * @example
 * createMcpkitEchoServer().connect(new StdioServerTransport());
 */
export function createMcpkitEchoServer() {
  const server = new McpServer({ ...SERVER_INFO });
  server.tool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA },
    ({ text }) => text,
  );
  return server;
}
