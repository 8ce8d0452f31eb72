/**
 * The echo server built with the official SDK, shared by the SDK's stdio, HTTP and in-memory setups.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SERVER_INFO } from '../lib/echo.mjs';
import { registerSdkEcho } from './sdk-echo-tool.mjs';

/**
 * A new McpServer with the `echo` tool registered (input schema `{ text: string }`).
 * @example
 * await createSdkEchoServer().connect(new StdioServerTransport());
 */
export function createSdkEchoServer() {
  return registerSdkEcho(new McpServer({ ...SERVER_INFO }));
}
