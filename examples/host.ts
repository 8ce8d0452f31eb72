/**
 * A host over two servers that both offer the same tools (two copies of examples/server-stdio.ts):
 * one catalogue, colliding names namespaced, each call routed to its server.
 *
 *   node --import ./conformance/register-ts.mjs examples/host.ts
 */
import { fileURLToPath } from 'node:url';
import { McpHost, type ServerEntry } from '@mcpkit/host';
import { nodeConnector } from '@mcpkit/host/node';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = (name: string): ServerEntry => ({
  kind: 'stdio',
  name,
  command: process.execPath,
  args: ['--import', './conformance/register-ts.mjs', 'examples/server-stdio.ts'],
  env: {},
  cwd: root,
  disabled: false,
  autoApprove: [],
});

// The host itself: everything below is what a user writes (a config file would replace `servers`).
const host = new McpHost({ servers: [server('a'), server('b')], connector: nodeConnector() });
const tools = await host.tools();
console.log(tools.map((tool) => `${tool.name} (from ${tool.server})`).join('\n'));
const first = tools.find((tool) => tool.server === 'b' && tool.annotations?.readOnlyHint)!;
console.log(first.name, '→', JSON.stringify((await host.callTool(first.name, {})).content));
await host.close();
