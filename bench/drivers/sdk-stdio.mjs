// SDK client over StdioClientTransport; the transport spawns the server command it is given.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLIENT_INFO, TOOL_NAME } from '../lib/echo.mjs';

/** @type {import('./driver.js').Connect} */
export async function connect({ command, args, cwd }) {
  // stderr 'inherit' passes the server's stderr to this worker, where the harness scans it for warnings.
  const transport = new StdioClientTransport({ command, args, cwd, stderr: 'inherit' });
  const client = new Client({ ...CLIENT_INFO });
  await client.connect(transport);
  return {
    call: (text) => client.callTool({ name: TOOL_NAME, arguments: { text } }),
    close: () => client.close(),
  };
}
