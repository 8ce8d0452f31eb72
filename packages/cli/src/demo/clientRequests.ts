/**
 * The demo tools that send requests to the client: sampling (\`summarize\`), form and URL
 * elicitation (\`book_table\`, \`connect_account\`) and roots (\`list_roots\`), with the readable
 * tool errors a client that cannot or will not answer gets.
 * @module
 */
import { randomUUID } from 'node:crypto';
import {
  CapabilityError,
  isModernProtocolVersion,
  McpError,
  MissingRequiredClientCapabilityError,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { type RequestContext, ToolError } from '@mcpkit/server';
import { type DemoServer, READ_ONLY } from './demoServer.js';

export function registerClientRequests(server: DemoServer): void {
  server.tool(
    'summarize',
    {
      title: 'Summarize',
      description: "Asks the client's model to summarize a text in one sentence (sampling).",
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'The text to summarize' } },
        required: ['text'],
        additionalProperties: false,
      } as const,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ text: input }, ctx) => {
      const reply = await askClient(server, ctx, 'sample', () =>
        ctx.sample({
          messages: [
            { role: 'user', content: { type: 'text', text: `Summarize in one sentence:\n\n${input}` } },
          ],
          systemPrompt: 'You write short, faithful summaries.',
          maxTokens: 200,
          modelPreferences: { hints: [{ name: 'claude' }], speedPriority: 0.8 },
        }),
      );
      const blocks = Array.isArray(reply.content) ? reply.content : [reply.content];
      const summary = blocks
        .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
        .join('\n');
      return `${summary}\n\n(summarized by ${reply.model})`;
    },
  );

  server.tool(
    'book_table',
    {
      title: 'Book a table',
      description:
        'Books a restaurant table, asking the user for the details with a form (form-mode elicitation).',
      inputSchema: {
        type: 'object',
        properties: { restaurant: { type: 'string', default: 'Chez mcpkit' } },
        additionalProperties: false,
      } as const,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ restaurant = 'Chez mcpkit' }, ctx) => {
      const answer = await askClient(server, ctx, 'elicit', () =>
        ctx.elicit({
          mode: 'form',
          message: `Booking a table at ${restaurant}. A few details, please.`,
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', title: 'Name for the booking', minLength: 1, maxLength: 60 },
              guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12, default: 2 },
              date: { type: 'string', title: 'Date', format: 'date', description: 'As YYYY-MM-DD' },
              seating: {
                type: 'string',
                title: 'Seating',
                oneOf: [
                  { const: 'indoor', title: 'Indoors' },
                  { const: 'terrace', title: 'On the terrace' },
                  { const: 'bar', title: 'At the bar' },
                ],
                default: 'indoor',
              },
              diet: {
                type: 'array',
                title: 'Dietary needs',
                items: { type: 'string', enum: ['vegetarian', 'vegan', 'gluten-free', 'nut-free'] },
              },
              reminder: { type: 'boolean', title: 'Send a reminder the day before?', default: true },
            },
            required: ['name', 'date'],
          },
        }),
      );
      if (answer.action !== 'accept' || !answer.content) {
        return `No booking made: the user chose to ${answer.action}.`;
      }
      const { name, guests, date, seating, diet, reminder } = answer.content as Record<string, unknown>;
      const needs = Array.isArray(diet) && diet.length > 0 ? `, dietary needs: ${diet.join(', ')}` : '';
      return `Booked ${restaurant} for ${name}, ${guests} guest(s) on ${date}, ${seating}${needs}. Reminder: ${reminder ? 'yes' : 'no'}.`;
    },
  );

  server.tool(
    'connect_account',
    {
      title: 'Connect an account',
      description:
        'Sends the user to a (pretend) sign-in page with URL-mode elicitation. Clients without URL mode get a -32042 error listing the URL (-32021 naming elicitation.url under 2026-07-28).',
      inputSchema: {
        type: 'object',
        properties: {
          service: { type: 'string', enum: ['calendar', 'photos', 'mail'], default: 'calendar' },
        },
        additionalProperties: false,
      } as const,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async ({ service = 'calendar' }, ctx) => {
      // Under 2026-07-28 the handler runs again on each input round and must ask the same question
      // each time (a new id would be a new question, asked forever); 2025 asks once.
      const elicitationId = isModernProtocolVersion(ctx.scope.revision) ? `demo-${service}` : randomUUID();
      const request = {
        mode: 'url' as const,
        message: `Sign in to your ${service} account (a demo page; nothing is really connected).`,
        elicitationId,
        url: `https://example.com/mcpkit-demo/connect/${service}?elicitation=${elicitationId}`,
      };
      // ctx.scope, not ctx.session: under 2026-07-28 the capabilities come with each request.
      const urlMode = (ctx.scope.clientCapabilities.elicitation as { url?: unknown } | undefined)?.url;
      if (urlMode === undefined) {
        // -32042 is not in 2026-07-28; its way to say "declare URL mode and retry" is -32021.
        if (isModernProtocolVersion(ctx.scope.revision)) {
          throw new MissingRequiredClientCapabilityError({ elicitation: { url: {} } });
        }
        throw new UrlElicitationRequiredError([request]);
      }
      const answer = await askClient(server, ctx, 'elicit', () => ctx.elicit(request));
      if (answer.action !== 'accept') return `Not connected: the user chose to ${answer.action}.`;
      // A real server would wait for its sign-in callback; the demo pretends it came at once.
      await ctx.notify('notifications/elicitation/complete', { elicitationId });
      return `Connected your ${service} account (simulated).`;
    },
  );
}

export function registerRoots(server: DemoServer): void {
  server.tool(
    'list_roots',
    {
      title: 'List roots',
      description:
        'Asks the client which directories it shares (roots/list); with the mcpkit CLI, pass --root DIR.',
      annotations: { ...READ_ONLY },
    },
    async (_args, ctx) => {
      if (cannotAsk(server, ctx)) throw new ToolError(STATELESS);
      if (ctx.scope.clientCapabilities.roots === undefined) {
        throw new ToolError(
          'This client shares no roots (it did not declare the roots capability). With the mcpkit CLI, pass --root DIR.',
        );
      }
      const { roots } = await ctx.listRoots();
      if (roots.length === 0) return 'The client shares no roots.';
      return `The client shares ${roots.length} root${roots.length === 1 ? '' : 's'}:\n${roots.map((root) => `- ${root.name ?? root.uri}: ${root.uri}`).join('\n')}`;
    },
  );
}

const STATELESS =
  'This server runs in stateless mode, so it cannot send requests to the client (sampling, elicitation, roots): no session would carry the answer back. Serve it with sessions (without --stateless) to try this tool.';

/** Stateless 2025 sessions cannot carry a request to the client; 2026-07-28 asks in input rounds. */
function cannotAsk(server: DemoServer, ctx: RequestContext): boolean {
  return server.demoOptions.stateless === true && !isModernProtocolVersion(ctx.scope.revision);
}

/** Runs a request to the client, turning "the client cannot or will not" into a readable tool error. */
async function askClient<T>(
  server: DemoServer,
  ctx: RequestContext,
  what: 'sample' | 'elicit',
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (cannotAsk(server, ctx)) throw new ToolError(STATELESS);
    // Under 2026-07-28 an undeclared capability is -32021 rather than a local CapabilityError.
    if (error instanceof CapabilityError || error instanceof MissingRequiredClientCapabilityError) {
      throw new ToolError(
        what === 'sample'
          ? 'This client cannot run a model for the server (it did not declare the sampling capability).'
          : 'This client cannot ask its user questions (it did not declare the elicitation capability).',
      );
    }
    if (error instanceof McpError && !ctx.signal.aborted) {
      throw new ToolError(`The client did not ${what === 'sample' ? 'sample' : 'ask'}: ${error.message}`);
    }
    throw error;
  }
}
