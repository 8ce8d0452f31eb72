// mcpkit client over Streamable HTTP, on the Node default path (@mcpkit/node/http-client: undici).
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/node/http-client';
import { CLIENT_INFO, TOOL_NAME } from '../lib/echo.mjs';

/** @type {(options: { url: string }) => Promise<import('./driver.js').BenchSession>} */
export async function connect({ url }) {
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(new StreamableHttpClientTransport(url));
  return {
    call: (text) => client.callTool(TOOL_NAME, { text }),
    close: () => client.close(),
  };
}
