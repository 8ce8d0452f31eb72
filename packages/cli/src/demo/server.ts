/**
 * The demo server: every MCP 2025-11-25 feature, each shown by one small, realistic example.
 * `mcpkit serve` puts it behind stdio or Streamable HTTP; tests and examples reuse it directly.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';
import {
  audio,
  embeddedResource,
  image,
  type McpServer,
  resourceLink,
  ToolError,
  text,
} from '@mcpkit/server';
import { registerTallyApp } from './apps.js';
import { registerClientRequests, registerRoots } from './clientRequests.js';
import { DemoServer, type DemoServerOptions, READ_ONLY } from './demoServer.js';
import { LOGO_PNG, TONE_WAV } from './media.js';

export type { DemoServerOptions } from './demoServer.js';

const README = `# mcpkit demo server

This server exists to be explored. Try, with the mcpkit CLI:

    npx mcpkit list http://127.0.0.1:3000/mcp
    npx mcpkit call http://127.0.0.1:3000/mcp echo text=hello
    npx mcpkit call http://127.0.0.1:3000/mcp slow_count steps=5
    npx mcpkit read http://127.0.0.1:3000/mcp demo://items/fruit/apple
    npx mcpkit complete http://127.0.0.1:3000/mcp translate language=Fr

Hosts that render MCP Apps show \`show_tally\` as a view with a +1 button (ui://demo/tally).
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
  registerTallyApp(server);
  return server;
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
