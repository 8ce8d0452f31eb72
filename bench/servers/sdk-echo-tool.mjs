/**
 * The `echo` tool as both official SDK lines register it (`registerTool` is the same in v1 and v2),
 * kept apart from either SDK's import so each server process loads only its own SDK.
 * @module
 */
import * as z from 'zod/v4';
import { echoResult, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/echo.mjs';

/**
 * Registers the `echo` tool (input schema `{ text: string }`) on an SDK McpServer and returns it.
 * @template {{ registerTool: Function }} S
 * @param {S} server
 * @returns {S}
 * @example
 * registerSdkEcho(new McpServer({ ...SERVER_INFO }));
 */
export function registerSdkEcho(server) {
  server.registerTool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: { text: z.string() } },
    async ({ text }) => echoResult(text),
  );
  return server;
}
