/**
 * The echo server built with the official SDK, shared by the SDK's stdio, HTTP and in-memory setups.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import { echoResult, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

/**
 * A new McpServer with the `echo` tool registered (input schema `{ text: string }`).
 * @example
 * await createSdkEchoServer().connect(new StdioServerTransport());
 */
export function createSdkEchoServer() {
  const server = new McpServer({ ...SERVER_INFO });
  server.registerTool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: { text: z.string() } },
    async ({ text }) => echoResult(text),
  );
  return server;
}
