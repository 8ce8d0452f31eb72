/**
 * The demo server: every MCP 2025-11-25 feature, each shown by one small, realistic example.
 * `mcpkit serve` puts it behind stdio or Streamable HTTP; tests and examples reuse it directly.
 * @module
 */
import { randomUUID } from 'node:crypto';
import {
  CapabilityError,
  ErrorCode,
  isModernProtocolVersion,
  McpError,
  MissingRequiredClientCapabilityError,
  type TaskStore,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import {
  audio,
  embeddedResource,
  image,
  McpServer,
  type McpServerOptions,
  promptSupport,
  type RequestContext,
  resourceLink,
  resourceSupport,
  ToolError,
  text,
} from '@mcpkit/server';
import { TaskManager } from '@mcpkit/server/tasks';
import { LOGO_PNG, TONE_WAV } from './media.js';

/**
 * Options of {@link createDemoServer}.
 *
 * @example
 * ```ts
 * const server = createDemoServer({ clockIntervalMs: 0, log: (line) => console.error(line) });
 * ```
 */
export interface DemoServerOptions {
  /** How often `demo://clock` changes (and subscribers are told), in ms; 0 stops the clock. Default 5 000. */
  clockIntervalMs?: number;
  /** Where the server's own diagnostics go (never stdout in stdio mode). Default: nowhere. */
  log?: (line: string) => void;
  /**
   * Run task-augmented tool calls as tasks (the \`research\` tool). Default true. Turn it off for
   * stateless HTTP without auth, where no request could reach a task created by another.
   */
  tasks?: boolean;
  /** Where tasks are kept (a store shared by cluster nodes). Default: in memory. */
  taskStore?: TaskStore;
  /**
   * The server is served over stateless HTTP, so it can never send a request to the client:
   * the sampling, elicitation and roots tools then say so instead of blaming the client.
   */
  stateless?: boolean;
  /** Extra options for the underlying {@link McpServer}. */
  serverOptions?: McpServerOptions;
}

const INSTRUCTIONS = `mcpkit demo server: one small example of every MCP 2025-11-25 feature.
Tools: echo and add (basics), weather (structured output), slow_count (progress and cancellation),
summarize (sampling), book_table (form elicitation), connect_account (URL elicitation), list_roots (roots),
logo and beep (image and audio), find_resources (resource links), annotated_message (annotations),
research (runs as a task).
Resources: demo://readme, demo://logo.png, demo://clock (subscribe: it changes every few seconds),
and the template demo://items/{category}/{id} (with completion).
Prompts: greet, translate (arguments with completion), review_readme (embedded resource).`;

const README = `# mcpkit demo server

This server exists to be explored. Try, with the mcpkit CLI:

    npx mcpkit list http://127.0.0.1:3000/mcp
    npx mcpkit call http://127.0.0.1:3000/mcp echo text=hello
    npx mcpkit call http://127.0.0.1:3000/mcp slow_count steps=5
    npx mcpkit read http://127.0.0.1:3000/mcp demo://items/fruit/apple
    npx mcpkit complete http://127.0.0.1:3000/mcp translate language=Fr
`;

const CATALOG: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  fruit: {
    apple: 'Crisp and sweet.',
    banana: 'Soft, best when spotted.',
    cherry: 'Small, red, with a stone.',
  },
  vegetable: { carrot: 'Orange and crunchy.', leek: 'A mild onion.', pumpkin: 'Good in soup.' },
  cheese: { brie: 'Soft, white rind.', comte: 'Nutty, aged in the Jura.', feta: 'Brined, crumbly.' },
};

const LANGUAGES = ['English', 'French', 'German', 'Italian', 'Japanese', 'Portuguese', 'Spanish'];

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Creates the demo server. Connect it to any transport, any number of times.
 *
 * @example
 * ```ts
 * import { createDemoServer } from 'mcpkit';
 * import { StdioServerTransport } from '@mcpkit/node/stdio';
 *
 * createDemoServer().connect(new StdioServerTransport());
 * ```
 */
export function createDemoServer(options: DemoServerOptions = {}): McpServer {
  const server = new DemoServer(options);
  registerBasics(server);
  registerLongRunning(server);
  registerClientRequests(server);
  registerRoots(server);
  registerMedia(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}

/** The demo's McpServer: it owns the clock timer and stops it on close. */
class DemoServer extends McpServer {
  private readonly clock: ReturnType<typeof setInterval> | undefined;

  constructor(readonly demoOptions: DemoServerOptions) {
    super(
      { name: 'mcpkit-demo', title: 'mcpkit demo server', version: '0.1.0' },
      {
        instructions: INSTRUCTIONS,
        resources: resourceSupport,
        prompts: promptSupport,
        tasks: demoOptions.tasks === false ? undefined : new TaskManager({ store: demoOptions.taskStore }),
        ...demoOptions.serverOptions,
      },
    );
    const interval = demoOptions.clockIntervalMs ?? 5000;
    if (interval > 0) {
      this.clock = setInterval(() => this.notifyResourceUpdated('demo://clock'), interval);
      this.clock.unref();
    }
  }

  /** Writes a diagnostic line for the operator. */
  note(line: string): void {
    this.demoOptions.log?.(line);
  }

  override async close(): Promise<void> {
    clearInterval(this.clock);
    await super.close();
  }
}

function registerBasics(server: DemoServer): void {
  server.tool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the text it is given.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'The text to send back' } },
        required: ['text'],
        additionalProperties: false,
      } as const,
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    ({ text: value }, ctx) => {
      ctx.log.debug(`echoing ${value.length} characters`, 'echo');
      return value;
    },
  );

  server.tool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      } as const,
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    ({ a, b }) => String(a + b),
  );

  server.tool(
    'weather',
    {
      title: 'Weather',
      description: 'Current weather for a city (made-up data), as structured output with an outputSchema.',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name, e.g. Paris' } },
        required: ['city'],
        additionalProperties: false,
      } as const,
      outputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          temperatureC: { type: 'number' },
          conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rainy', 'windy'] },
          humidityPercent: { type: 'integer', minimum: 0, maximum: 100 },
        },
        required: ['city', 'temperatureC', 'conditions', 'humidityPercent'],
        additionalProperties: false,
      } as const,
      annotations: { ...READ_ONLY },
    },
    ({ city }) => {
      // Deterministic "weather": the same city always gets the same report.
      const seed = [...city.toLowerCase()].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 10007, 7);
      const conditions = (['sunny', 'cloudy', 'rainy', 'windy'] as const)[seed % 4]!;
      return { city, temperatureC: (seed % 35) - 5, conditions, humidityPercent: 30 + (seed % 60) };
    },
  );

  server.tool(
    'find_resources',
    {
      title: 'Find resources',
      description:
        'Finds demo resources whose name contains the query, and returns links to them (resource_link content).',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'Part of a name, e.g. "apple"; empty for all' } },
        additionalProperties: false,
      } as const,
      annotations: { ...READ_ONLY },
    },
    ({ query = '' }) => {
      const needle = query.toLowerCase();
      const links = allLinks().filter((link) => link.name.toLowerCase().includes(needle));
      if (links.length === 0) return `No demo resource matches "${query}".`;
      return [
        text(`${links.length} resource${links.length === 1 ? '' : 's'} found:`),
        ...links.map(resourceLink),
      ];
    },
  );

  server.tool(
    'annotated_message',
    {
      title: 'Annotated message',
      description: 'Returns content blocks with annotations: who each block is for, and how important it is.',
      annotations: { ...READ_ONLY },
    },
    () => [
      text('Your backup finished: 1,204 files, 3.2 GB.', {
        annotations: { audience: ['user'], priority: 0.9 },
      }),
      text('Debug detail for the model: 3 files were skipped because they were open.', {
        annotations: { audience: ['assistant'], priority: 0.2 },
      }),
      image(LOGO_PNG, 'image/png', {
        annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-11-25T00:00:00Z' },
      }),
    ],
  );
}

function registerLongRunning(server: DemoServer): void {
  server.tool(
    'slow_count',
    {
      title: 'Slow count',
      description:
        'Counts to `steps`, one step every `delayMs`, reporting progress. Cancel it midway to see cancellation.',
      inputSchema: {
        type: 'object',
        properties: {
          steps: { type: 'integer', minimum: 1, maximum: 100, default: 5 },
          delayMs: { type: 'integer', minimum: 10, maximum: 10000, default: 1000 },
        },
        additionalProperties: false,
      } as const,
      annotations: { ...READ_ONLY },
    },
    async ({ steps = 5, delayMs = 1000 }, ctx) => {
      for (let step = 1; step <= steps; step++) {
        const finished = await sleep(delayMs, ctx.signal);
        if (!finished) {
          server.note(`slow_count was cancelled at step ${step} of ${steps}`);
          throw new ToolError(`Cancelled at step ${step} of ${steps}`);
        }
        await ctx.progress(step, steps, `step ${step} of ${steps}`);
        ctx.log.info(`step ${step} of ${steps}`, 'slow_count');
      }
      return `Counted to ${steps}.`;
    },
  );

  server.tool(
    'research',
    {
      title: 'Research',
      description:
        'Researches a topic in three stages. Supports tasks (execution.taskSupport "optional"): with `mcpkit call --task` it runs as a task the client polls.',
      inputSchema: {
        type: 'object',
        properties: {
          topic: { type: 'string', description: 'What to research' },
          stageMs: {
            type: 'integer',
            minimum: 10,
            maximum: 10000,
            default: 800,
            description: 'Time per stage',
          },
        },
        required: ['topic'],
        additionalProperties: false,
      } as const,
      execution: { taskSupport: 'optional' },
      modelImmediateResponse: 'The research has started; the report will follow.',
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ topic, stageMs = 800 }, ctx) => {
      const stages = ['gathering sources', 'reading', 'writing the report'];
      for (const [index, stage] of stages.entries()) {
        if (!(await sleep(stageMs, ctx.signal))) {
          server.note(`research on "${topic}" was cancelled while ${stage}`);
          throw new ToolError(`Cancelled while ${stage}`);
        }
        await ctx.progress(index + 1, stages.length, stage);
        ctx.log.info(`${topic}: ${stage} done`, 'research');
      }
      return `Report on "${topic}": three sources agree that ${topic} is worth a closer look.`;
    },
  );
}

function registerClientRequests(server: DemoServer): void {
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

function registerRoots(server: DemoServer): void {
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

function registerMedia(server: DemoServer): void {
  server.tool(
    'logo',
    {
      title: 'Logo',
      description: 'Returns the mcpkit demo logo (image content, PNG).',
      annotations: READ_ONLY,
    },
    () => [text('The mcpkit demo logo, 32×32:'), image(LOGO_PNG, 'image/png')],
  );
  server.tool(
    'beep',
    {
      title: 'Beep',
      description: 'Returns a quarter-second 440 Hz tone (audio content, WAV).',
      annotations: READ_ONLY,
    },
    () => [text('A 440 Hz tone:'), audio(TONE_WAV, 'audio/wav')],
  );
}

/** The static resources as `resources/list` shows them and as `find` links to them. */
const STATIC_RESOURCES = {
  'demo://readme': { name: 'readme', title: 'About this server', mimeType: 'text/markdown' },
  'demo://logo.png': { name: 'logo.png', title: 'The demo logo', mimeType: 'image/png' },
  'demo://clock': { name: 'clock', title: 'The current time', mimeType: 'text/plain' },
} as const;

function allLinks() {
  const links: Array<{ uri: string; name: string; title: string; mimeType: string }> = Object.entries(
    STATIC_RESOURCES,
  ).map(([uri, link]) => ({ uri, ...link }));
  for (const [category, items] of Object.entries(CATALOG)) {
    for (const id of Object.keys(items)) {
      links.push({
        uri: `demo://items/${category}/${id}`,
        name: id,
        title: `${id} (${category})`,
        mimeType: 'text/plain',
      });
    }
  }
  return links;
}

function registerResources(server: DemoServer): void {
  server.resource(
    'demo://readme',
    {
      ...STATIC_RESOURCES['demo://readme'],
      description: 'What the demo server offers, and commands to try.',
      annotations: { audience: ['user', 'assistant'], priority: 0.8 },
    },
    () => README,
  );
  server.resource(
    'demo://logo.png',
    {
      ...STATIC_RESOURCES['demo://logo.png'],
      description: 'A 32×32 PNG (a binary resource).',
      size: LOGO_PNG.length,
    },
    () => LOGO_PNG,
  );
  server.resource(
    'demo://clock',
    {
      ...STATIC_RESOURCES['demo://clock'],
      description: 'Changes every few seconds; subscribe to be told.',
    },
    () => new Date().toISOString(),
  );
  server.resourceTemplate(
    'demo://items/{category}/{id}',
    {
      name: 'item',
      title: 'Catalog item',
      description: 'One item of the demo catalog. Complete {category} first; {id} completion depends on it.',
      mimeType: 'text/plain',
      complete: {
        category: (value) => Object.keys(CATALOG).filter((category) => category.startsWith(value)),
        id: (value, { arguments: chosen }) => {
          const categories = chosen.category ? [chosen.category] : Object.keys(CATALOG);
          return categories
            .flatMap((category) => Object.keys(CATALOG[category] ?? {}))
            .filter((id) => id.startsWith(value));
        },
      },
    },
    (uri, { category, id }) => {
      const description = CATALOG[String(category)]?.[String(id)];
      if (description === undefined)
        throw new McpError(
          ErrorCode.ResourceNotFound,
          `No item ${String(id)} in category ${String(category)}`,
          { uri },
        );
      return `${id} (${category}): ${description}`;
    },
  );
}

function registerPrompts(server: DemoServer): void {
  server.prompt(
    'greet',
    { title: 'Greet', description: 'A simple prompt without arguments.' },
    () => 'Say hello, then describe in one sentence what the tools of this server can do.',
  );
  server.prompt(
    'translate',
    {
      title: 'Translate',
      description: 'Translate a text; the language argument completes.',
      arguments: [
        { name: 'text', description: 'What to translate', required: true },
        { name: 'language', description: 'Into which language', required: true },
      ],
      complete: {
        language: (value) =>
          LANGUAGES.filter((language) => language.toLowerCase().startsWith(value.toLowerCase())),
      },
    },
    ({ text: input, language }) => `Translate into ${language}, keeping the tone:\n\n${input}`,
  );
  server.prompt(
    'review_readme',
    { title: 'Review the readme', description: 'A prompt that embeds a resource (demo://readme).' },
    () => [
      {
        role: 'user',
        content: embeddedResource({ uri: 'demo://readme', mimeType: 'text/markdown', text: README }),
      },
      { role: 'user', content: text('Suggest two improvements to this readme.') },
    ],
  );
}

/** Waits `ms`; resolves false early if `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
