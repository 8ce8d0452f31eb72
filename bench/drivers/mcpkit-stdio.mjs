// mcpkit client over StdioClientTransport; the transport spawns the server command it is given.
import { McpClient } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { CLIENT_INFO, TOOL_NAME } from '../lib/echo.mjs';
import { processCpuUs } from '../lib/procStat.mjs';

/** @type {import('./driver.js').Connect} */
export async function connect({ command, args, cwd, env }) {
  // stderr 'inherit' passes the server's stderr to this worker, where the harness scans it for warnings.
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env,
    stderr: 'inherit',
    inheritEnv: true,
  });
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(transport);
  return {
    call: (text) => client.callTool(TOOL_NAME, { text }),
    close: () => client.close(),
    serverCpuUs: () => processCpuUs(transport.pid),
  };
}
