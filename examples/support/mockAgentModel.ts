/**
 * The stand-in model of examples/agent.ts, so it runs offline and in CI: the AI SDK's own mock
 * model (`ai/test`). On its first step it calls one tool of each server it is offered; once it
 * has their results, it answers with what they said.
 */
import type { LanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** The first step's calls: a tool of server-everything, server-memory and server-filesystem. */
const CALLS = [
  { toolName: 'echo', input: { message: 'Hello from the agent' } },
  {
    toolName: 'create_entities',
    input: { entities: [{ name: 'Ada', entityType: 'person', observations: ['likes tea'] }] },
  },
  { toolName: 'list_allowed_directories', input: {} },
];

/** The example's stand-in for asking the user: it says yes and shows what was asked. */
export async function askUser(question: string): Promise<boolean> {
  console.log(`${question}? yes`);
  return true;
}

/** A mock model that calls one tool of each server, then reports what they said. */
export function mockAgentModel(): LanguageModel {
  return new MockLanguageModelV4({
    modelId: 'mock-agent',
    doGenerate: async ({ prompt, tools = [] }) => {
      const results = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
      if (results.length === 0) {
        const offered = new Set(tools.map((tool) => tool.name));
        const calls = CALLS.filter((call) => offered.has(call.toolName));
        return {
          content: calls.map((call, i) => ({
            type: 'tool-call' as const,
            toolCallId: `call_${i}`,
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          })),
          finishReason: { unified: 'tool-calls' as const, raw: undefined },
          usage,
          warnings: [],
        };
      }
      const said = results.map((part) =>
        part.type === 'tool-result' ? `${part.toolName}: ${JSON.stringify(part.output).slice(0, 80)}` : '',
      );
      return {
        content: [{ type: 'text' as const, text: `I used ${results.length} tools.\n${said.join('\n')}` }],
        finishReason: { unified: 'stop' as const, raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
