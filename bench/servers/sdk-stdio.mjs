// Minimal SDK stdio server: the SDK's StdioServerTransport around the shared echo server.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSdkEchoServer } from './sdk-echo.mjs';

await createSdkEchoServer().connect(new StdioServerTransport());
