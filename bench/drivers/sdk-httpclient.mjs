// The official v2 client (@modelcontextprotocol/client 2.4.0, a bench-only devDependency) over
// Streamable HTTP. The HTTP client scenario compares against v2, not the v1 SDK of other rows.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLIENT_INFO, TOOL_NAME } from '../lib/echo.mjs';

/** @type {(options: { url: string }) => Promise<import('./driver.js').BenchSession>} */
export async function connect({ url }) {
  const client = new Client({ ...CLIENT_INFO });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    call: (text) => client.callTool({ name: TOOL_NAME, arguments: { text } }),
    close: () => client.close(),
  };
}
