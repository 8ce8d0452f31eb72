/**
 * The echo server built with the official SDK v2 (`@modelcontextprotocol/server` 2.4.0), for the
 * `http-2026` rows: the same tool, description and input schema (zod, as SDK v2 documents it).
 * @module
 */
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { echoResult, SERVER_INFO, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

/**
 * A new SDK v2 McpServer with the `echo` tool registered (input schema `{ text: string }`).
 * @example
 * const handler = createMcpHandler(() => createSdkV2EchoServer());
 */
export function createSdkV2EchoServer() {
  const server = new McpServer({ ...SERVER_INFO });
  server.registerTool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: { text: z.string() } },
    async ({ text }) => echoResult(text),
  );
  return server;
}
