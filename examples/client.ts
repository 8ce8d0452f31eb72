/**
 * An MCP client: connects to a server, lists what it offers, calls a tool with progress, reads a
 * resource and gets a prompt.
 *
 * With no argument it starts examples/server-stdio.ts over stdio; given a URL it connects over
 * HTTP (Streamable HTTP, falling back to legacy SSE):
 *
 *   node --import ./conformance/register-ts.mjs examples/client.ts
 *   node --import ./conformance/register-ts.mjs examples/client.ts http://127.0.0.1:3000/mcp
 */
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { connectHttp } from '@mcpkit/client/http';
import { StdioClientTransport } from '@mcpkit/node/stdio';

const client = new McpClient(
  { name: 'example-client', version: '1.0.0' },
  {
    // Answer the server's sampling requests with a canned reply (a real host would ask a model).
    sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'No model here.' }, model: 'none' }),
  },
);
client.onLog(({ level, data }) => console.error(`[server ${level}]`, data));

const url = process.argv[2];
if (url) {
  await connectHttp(client, url);
} else {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', './conformance/register-ts.mjs', 'examples/server-stdio.ts'],
      cwd: root,
    }),
  );
}

console.log(
  `Connected to ${client.serverInfo?.name} ${client.serverInfo?.version} (protocol ${client.protocolVersion})`,
);
const tools = await client.tools();
console.log(`Tools: ${tools.map((tool) => tool.name).join(', ')}`);

if (tools.some((tool) => tool.name === 'roll')) {
  const result = await client.callTool('roll', { dice: 3 });
  console.log('roll(3) ->', result.structuredContent);
  const slow = await client.callTool(
    'roll_slowly',
    { dice: 2 },
    { onProgress: (p) => console.log(`  progress ${p.progress}/${p.total}: ${p.message}`) },
  );
  console.log('roll_slowly(2) ->', slow.content[0]?.type === 'text' ? slow.content[0].text : slow.content);
}

if (client.serverCapabilities?.resources) {
  const [first] = await client.resources();
  if (first) {
    const { contents } = await client.readResource(first.uri);
    console.log(`${first.uri} ->`, 'text' in contents[0]! ? contents[0].text : '(binary)');
  }
}

if (client.serverCapabilities?.prompts) {
  const [prompt] = await client.prompts();
  if (prompt) {
    const args = Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, 'Ada']));
    const { messages } = await client.getPrompt(prompt.name, args);
    console.log(`prompt ${prompt.name} ->`, messages[0]?.content);
  }
}

await client.close();
