/**
 * The fixture server the official conformance suite (`@modelcontextprotocol/conformance` 0.1.16)
 * tests: every tool, resource, template and prompt its 32 server scenarios ask for (and, from
 * fixture-2026.ts, what the 2026-07-28 scenarios of 0.2.0-alpha.12 add), served over
 * stateful Streamable HTTP with the default event store, on `http://127.0.0.1:<port>/mcp`.
 * Built from conformance/FIXTURES.md, on the public API only.
 *
 *   npm run --silent conformance:server -- --port 3000     (or PORT=3000)
 *
 * Runs until SIGTERM or SIGINT; logs go to stderr.
 */
import { serve } from '@mcpkit/node/http';
import {
  audio,
  embeddedResource,
  image,
  type McpServer,
  promptSupport,
  resourceSupport,
  text,
} from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { registerModernFixtures } from './fixture-2026.js';
import { fixtureTaskManager, registerTaskFixtures, TaskFixtureServer } from './fixture-tasks.js';

/** A 1×1 RGB PNG (valid base64, made for this project). */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
/** One sample of 8 kHz mono 16-bit PCM WAV. */
const WAV_TINY = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';
/** Pause between the steps of the logging and progress tools. */
const STEP_MS = 50;
/** How long the SSE polling tool works after closing its stream: the client must resume to see it. */
const POLLING_WORK_MS = 100;
const LOGGER = 'conformance-test-server';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The port from `--port N` (or `--port=N`), else `$PORT`. */
function portFromCommandLine(argv: readonly string[]): number {
  let raw = process.env.PORT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--port') raw = argv[i + 1];
    else if (arg.startsWith('--port=')) raw = arg.slice('--port='.length);
  }
  const port = Number(raw);
  if (raw === undefined || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error('usage: fixture-server.ts --port <N> (or set PORT)');
  }
  return port;
}

function elicitationText(action: string, content: unknown, prefix: string): string {
  return `${prefix}: action=${action}, content=${JSON.stringify(content ?? {})}`;
}

// ------------------------------------------------------------------------------------ tools

function registerContentTools(server: McpServer): void {
  server.tool('test_simple_text', { description: 'Returns a simple text response' }, () =>
    text('This is a simple text response for testing.'),
  );
  server.tool('test_image_content', { description: 'Returns a 1x1 PNG image' }, () =>
    image(PNG_1X1, 'image/png'),
  );
  server.tool('test_audio_content', { description: 'Returns a tiny WAV clip' }, () =>
    audio(WAV_TINY, 'audio/wav'),
  );
  server.tool('test_embedded_resource', { description: 'Returns an embedded text resource' }, () =>
    embeddedResource({
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    }),
  );
  server.tool(
    'test_multiple_content_types',
    { description: 'Returns text, an image and an embedded resource' },
    () => [
      text('Multiple content types test:'),
      image(PNG_1X1, 'image/png'),
      embeddedResource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    ],
  );
  server.tool(
    'test_error_handling',
    { description: 'Always fails, with an isError result (not a protocol error)' },
    () => ({
      isError: true,
      content: [text('This tool intentionally returns an error for testing')],
    }),
  );
  server.tool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      // Listed exactly as written: the suite checks $schema, $defs and additionalProperties (SEP-1613),
      // and 0.2.0-alpha.12 also $anchor, allOf/anyOf and if/then/else (SEP-2106).
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a plain data object
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
}

function registerStreamingTools(server: McpServer): void {
  server.tool(
    'test_tool_with_logging',
    { description: 'Sends three info log messages while it runs' },
    async (_args, ctx) => {
      ctx.log.info('Tool execution started', LOGGER);
      await sleep(STEP_MS);
      ctx.log.info('Tool processing data', LOGGER);
      await sleep(STEP_MS);
      ctx.log.info('Tool execution completed', LOGGER);
      return text('Tool with logging executed successfully');
    },
  );
  server.tool(
    'test_tool_with_progress',
    { description: 'Reports progress 0, 50 and 100 of 100 when given a progress token' },
    async (_args, ctx) => {
      await ctx.progress(0, 100, 'started');
      await sleep(STEP_MS);
      await ctx.progress(50, 100, 'halfway');
      await sleep(STEP_MS);
      await ctx.progress(100, 100, 'done');
      const token = ctx.meta?.progressToken;
      return text(`Progress tool completed (token ${token === undefined ? 'none' : String(token)})`);
    },
  );
  server.tool(
    'test_reconnection',
    {
      description:
        'SSE polling (SEP-1699): closes the response stream at once and answers a moment later, so the client must resume with Last-Event-ID',
    },
    async (_args, ctx) => {
      ctx.closeSseStream();
      await sleep(POLLING_WORK_MS);
      return text('Reconnection test completed successfully');
    },
  );
}

function registerClientRequestTools(server: McpServer): void {
  server.tool(
    'test_sampling',
    {
      description: "Asks the client's model to answer a prompt",
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the model' } },
        required: ['prompt'],
      } as const,
    },
    async ({ prompt }, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const blocks = Array.isArray(reply.content) ? reply.content : [reply.content];
      const answer = blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
      return text(`LLM response: ${answer}`);
    },
  );
  server.tool(
    'test_elicitation',
    {
      description: 'Asks the user for a username and an email address',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'What to ask the user' } },
        required: ['message'],
      } as const,
    },
    async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return text(elicitationText(answer.action, answer.content, 'User response'));
    },
  );
  server.tool(
    'test_elicitation_sep1034_defaults',
    { description: 'Asks for a form whose fields all have defaults (SEP-1034)' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return text(elicitationText(answer.action, answer.content, 'Elicitation completed'));
    },
  );
  server.tool(
    'test_elicitation_sep1330_enums',
    { description: 'Asks for a form with every kind of enum field (SEP-1330)' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      });
      return text(elicitationText(answer.action, answer.content, 'Elicitation completed'));
    },
  );
}

// ------------------------------------------------------------------------------------ resources

function registerResources(server: McpServer): void {
  server.resource(
    'test://static-text',
    {
      name: 'static-text',
      title: 'Static Text Resource',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
    },
    () => 'This is the content of the static text resource.',
  );
  server.resource(
    'test://static-binary',
    { name: 'static-binary', description: 'A static binary resource (a 1x1 PNG)', mimeType: 'image/png' },
    () => ({ blob: PNG_1X1 }),
  );
  server.resource(
    'test://watched-resource',
    { name: 'watched-resource', description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    () => 'Watched resource content',
  );
  server.resourceTemplate(
    'test://template/{id}/data',
    { name: 'template', description: 'Data for any id', mimeType: 'application/json' },
    (_uri, { id }) =>
      JSON.stringify({ id: String(id), templateTest: true, data: `Data for ID: ${String(id)}` }),
  );
}

// ------------------------------------------------------------------------------------ prompts

const ARG1_SUGGESTIONS = ['paris', 'park', 'party'];

function registerPrompts(server: McpServer): void {
  server.prompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => [
    { role: 'user', content: text('This is a simple prompt for testing.') },
  ]);
  server.prompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      complete: { arg1: (value) => ARG1_SUGGESTIONS.filter((word) => word.startsWith(value)) },
    },
    ({ arg1, arg2 }) => [
      { role: 'user', content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) },
    ],
  );
  server.prompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    ({ resourceUri }) => [
      {
        role: 'user',
        content: embeddedResource({
          uri: resourceUri,
          mimeType: 'text/plain',
          text: 'Embedded resource content for testing.',
        }),
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ],
  );
  server.prompt('test_prompt_with_image', { description: 'A prompt that includes an image' }, () => [
    { role: 'user', content: image(PNG_1X1, 'image/png') },
    { role: 'user', content: text('Please analyze the image above.') },
  ]);
}

// ------------------------------------------------------------------------------------ main

function createFixtureServer(): McpServer {
  const server = new TaskFixtureServer(
    { name: 'mcpkit-conformance-fixture', version: '1.0.0' },
    {
      onError: (error) => console.error(`[fixture] ${error.message}`),
      resources: resourceSupport,
      prompts: promptSupport,
      tasks: fixtureTaskManager(),
    },
  );
  registerContentTools(server);
  registerStreamingTools(server);
  registerClientRequestTools(server);
  registerResources(server);
  registerPrompts(server);
  registerModernFixtures(server);
  registerTaskFixtures(server);
  return server;
}

const port = portFromCommandLine(process.argv.slice(2));
const handler = createStreamableHttpHandler(createFixtureServer());
const served = await serve(handler, { port, path: '/mcp' });
console.error(`[fixture] conformance fixture listening on ${served.url}`);

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  console.error(`[fixture] ${signal}: shutting down`);
  // Open SSE streams must not hold the exit up: close what closes quickly, then leave.
  const deadline = setTimeout(() => process.exit(0), 1000);
  deadline.unref();
  served.close().then(
    () => process.exit(0),
    () => process.exit(0),
  );
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
