/**
 * A small MCP server over stdio: a tool with a zod schema, a tool with progress, a resource and
 * a prompt. Anything written to stdout must be protocol, so diagnostics go to stderr.
 *
 * Run it:         node --import ./conformance/register-ts.mjs examples/server-stdio.ts
 * Talk to it:     npx mcpkit call roll dice=3 -- node --import ./conformance/register-ts.mjs examples/server-stdio.ts
 */
import { StdioServerTransport } from '@mcpkit/node/stdio';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { z } from 'zod';

const server = new McpServer(
  { name: 'dice', version: '1.0.0' },
  {
    instructions: 'Rolls dice. Use "roll" for a quick roll and "roll_slowly" to watch progress.',
    resources: resourceSupport,
    prompts: promptSupport,
  },
);

server.tool(
  'roll',
  {
    description: 'Rolls six-sided dice and returns each value and the total.',
    inputSchema: z.object({ dice: z.number().int().min(1).max(20).default(1) }),
    outputSchema: z.object({ values: z.array(z.number().int()), total: z.number().int() }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  ({ dice }) => {
    const values = Array.from({ length: dice }, () => 1 + Math.floor(Math.random() * 6));
    return { values, total: values.reduce((sum, value) => sum + value, 0) };
  },
);

server.tool(
  'roll_slowly',
  {
    description: 'Rolls one die per second, reporting progress; stops when cancelled.',
    inputSchema: z.object({ dice: z.number().int().min(1).max(10) }),
  },
  async ({ dice }, ctx) => {
    const values: number[] = [];
    for (let i = 1; i <= dice && !ctx.signal.aborted; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      values.push(1 + Math.floor(Math.random() * 6));
      await ctx.progress(i, dice, `rolled ${values.join(', ')}`);
    }
    return `Rolled ${values.join(', ')}`;
  },
);

server.resource(
  'dice://rules',
  { name: 'rules', mimeType: 'text/plain' },
  () => 'Highest total wins. Ties roll again.',
);

server.prompt(
  'challenge',
  { description: 'Challenge someone to a dice game', arguments: [{ name: 'opponent', required: true }] },
  ({ opponent }) => `Challenge ${opponent} to a game of dice, then roll for both of you.`,
);

server.connect(new StdioServerTransport());
console.error('dice server ready on stdio');
