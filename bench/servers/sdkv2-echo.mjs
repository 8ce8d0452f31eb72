/**
 * The echo server built with the official SDK v2 (`@modelcontextprotocol/server` 2.4.0), for the
 * `http-2026` rows: the same tool, description and input schema (zod) as the v1 one.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/server';
import { SERVER_INFO } from '../lib/echo.mjs';
import { registerSdkEcho } from './sdk-echo-tool.mjs';

/**
 * A new SDK v2 McpServer with the `echo` tool registered (input schema `{ text: string }`).
 * @example
 * const handler = createMcpHandler(() => createSdkV2EchoServer());
 */
export function createSdkV2EchoServer() {
  return registerSdkEcho(new McpServer({ ...SERVER_INFO }));
}
