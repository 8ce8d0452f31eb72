/**
 * The fixture tools the 2026-07-28 server scenarios of `@modelcontextprotocol/conformance`
 * 0.2.0-alpha.12 (`--requirements 2026-07-28`) ask for beyond the 2025 ones, on the public API
 * only. The handlers are era-blind: `ctx.sample()` without a declared `sampling` capability is
 * the revision's `-32021`, `ctx.log` without a requested level sends nothing, and so on.
 * The input-required (MRTR) fixtures are in ./fixture-mrtr.ts.
 */
import { type McpServer, type RegisteredTool, text } from '@mcpkit/server';
import { registerInputRequiredFixtures } from './fixture-mrtr.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Registers the 2026-07-28 fixtures on `server`. */
export function registerModernFixtures(server: McpServer): void {
  server.tool(
    'test_missing_capability',
    { description: 'Needs the sampling capability: asks the client model for one word' },
    async (_args, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say one word.' } }],
        maxTokens: 10,
      });
      return text(`The model said: ${JSON.stringify(reply.content)}`);
    },
  );
  server.tool(
    'test_logging_tool',
    { description: 'Logs three messages, then answers' },
    async (_args, ctx) => {
      for (const step of [1, 2, 3]) {
        ctx.log.info(`logging step ${step}`, 'conformance-fixture');
        await sleep(20);
      }
      return text('Logged three messages');
    },
  );
  server.tool(
    'test_streaming_elicitation',
    { description: 'Asks the user for a name' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: [] },
      });
      return text(`Elicitation: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
    },
  );
  server.tool(
    'test_custom_headers',
    {
      description: 'Runs a query in a region; the region is mirrored into the Mcp-Param-Region header',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' },
          query: { type: 'string', description: 'What to run' },
        },
        required: ['region', 'query'],
      },
    },
    (args) => text(`Ran ${JSON.stringify(args.query)} in ${JSON.stringify(args.region)}`),
  );
  registerTriggers(server);
  registerInputRequiredFixtures(server);
}

/** Tools that change the tool and prompt lists, so listen streams have something to hear. */
function registerTriggers(server: McpServer): void {
  let extraTool: RegisteredTool | undefined;
  server.tool('test_trigger_tool_change', { description: 'Adds or removes a tool' }, () => {
    if (extraTool) {
      extraTool.remove();
      extraTool = undefined;
    } else extraTool = server.tool('test_extra_tool', { description: 'Comes and goes' }, () => 'here');
    return text('The tool list changed');
  });
  let extraPrompt: { remove(): void } | undefined;
  server.tool('test_trigger_prompt_change', { description: 'Adds or removes a prompt' }, () => {
    if (extraPrompt) {
      extraPrompt.remove();
      extraPrompt = undefined;
    } else extraPrompt = server.prompt('test_extra_prompt', { description: 'Comes and goes' }, () => 'here');
    return text('The prompt list changed');
  });
}
