// Minimal mcpkit stdio server: the shared echo definition over StdioServerTransport.
import { StdioServerTransport } from '@mcpkit/node/stdio';
import { createMcpkitEchoServer } from './mcpkit-echo.mjs';

createMcpkitEchoServer().connect(new StdioServerTransport());
