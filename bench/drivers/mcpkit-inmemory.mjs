// mcpkit in one process: McpServer + McpClient over createInMemoryPair().
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { CLIENT_INFO, TOOL_NAME } from '../lib/echo.mjs';
import { createMcpkitEchoServer } from '../servers/mcpkit-echo.mjs';

/** @type {import('./driver.js').Connect} */
export async function connect() {
  const server = createMcpkitEchoServer();
  const [clientTransport, serverTransport] = createInMemoryPair();
  server.connect(serverTransport);
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(clientTransport);
  return {
    call: (text) => client.callTool(TOOL_NAME, { text }),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
