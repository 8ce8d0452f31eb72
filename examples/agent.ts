/**
 * An agent over three MCP servers through one host: the AI SDK's `generateText` loop with the
 * host's catalogue as its tools (names namespaced on collision, policy and consent applied,
 * servers restarted when they die, the tool set kept current).
 *
 *   node --import ./conformance/register-ts.mjs examples/agent.ts
 *
 * It runs offline with the AI SDK's mock model (examples/support/mockAgentModel.ts); put any AI
 * SDK model in its place, e.g. `anthropic('claude-sonnet-4-5')`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpHost, parseHostConfig } from '@mcpkit/host';
import { liveAiSdkTools } from '@mcpkit/host/ai-sdk';
import { nodeConnector } from '@mcpkit/host/node';
import { generateText, isStepCount } from 'ai';
import { askUser, mockAgentModel } from './support/mockAgentModel.js';

const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const servers = await parseHostConfig({
  file: 'mcp.json',
  workspaceFolder: process.cwd(),
  env: {},
  text: JSON.stringify({
    mcpServers: {
      everything: { command: bin('mcp-server-everything') },
      memory: {
        command: bin('mcp-server-memory'),
        env: { MEMORY_FILE_PATH: join(tmpdir(), 'agent-memory.jsonl') },
      },
      files: { command: bin('mcp-server-filesystem'), args: [process.cwd()] },
    },
  }),
});
const host = new McpHost({
  servers,
  connector: nodeConnector(),
  policy: { files: { readOnly: true } }, // the agent may look, never write
  // The agent's first step sees every server that starts within 30 s (the default, 3 s, suits a
  // gateway's clients; a server that arrives later joins the live tool set through list_changed).
  startBudgetMs: 30_000,
  hooks: {
    toolCall: async ({ server, tool }) => ((await askUser(`${server} wants ${tool}`)) ? 'session' : 'deny'),
  },
});
const live = await liveAiSdkTools(host);
const { text, steps } = await generateText({
  model: mockAgentModel(),
  tools: live.tools,
  prepareStep: live.prepareStep,
  stopWhen: isStepCount(5),
  prompt: 'Greet me, remember that Ada likes tea, and tell me which folders you can see.',
});
console.log(`${text}\n(${steps.length} steps)`);
if (steps[0]?.toolCalls.length !== 3) throw new Error('the agent did not reach all three servers');
live.close();
await host.close();
