// SDK in one process: McpServer + Client over InMemoryTransport.createLinkedPair().
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CLIENT_INFO, TOOL_NAME } from '../lib/echo.mjs';
import { createSdkEchoServer } from '../servers/sdk-echo.mjs';

/** @type {import('./driver.js').Connect} */
export async function connect() {
  const server = createSdkEchoServer();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ ...CLIENT_INFO });
  await client.connect(clientTransport);
  return {
    call: (text) => client.callTool({ name: TOOL_NAME, arguments: { text } }),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
