/**
 * An MCP server over Streamable HTTP on http://127.0.0.1:3001/mcp, with sessions, built from a
 * plain JSON Schema (no schema library) and served by Node's http module.
 *
 * Run it:     node --import ./conformance/register-ts.mjs examples/server-http.ts
 * Call it:    npx mcpkit call http://127.0.0.1:3001/mcp greet name=Ada
 */
import { serve } from '@mcpkit/node/http';
import { McpServer, resourceSupport, text } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';

const server = new McpServer({ name: 'greeter', version: '1.0.0' }, { resources: resourceSupport });

server.tool(
  'greet',
  {
    description: 'Greets someone by name, in English or French.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        language: { type: 'string', enum: ['en', 'fr'], default: 'en' },
      },
      required: ['name'],
      additionalProperties: false,
    } as const,
  },
  ({ name, language = 'en' }, ctx) => {
    ctx.log.info(`greeting ${name}`);
    return text(language === 'fr' ? `Bonjour, ${name} !` : `Hello, ${name}!`);
  },
);

server.resourceTemplate(
  'greeter://names/{name}',
  {
    name: 'greeting card',
    mimeType: 'text/plain',
    complete: { name: (value) => ['Ada', 'Alan', 'Grace'].filter((name) => name.startsWith(value)) },
  },
  (_uri, { name }) => `A card for ${name}.`,
);

const port = Number(process.env.PORT ?? 3001);
const { url, close } = await serve(createStreamableHttpHandler(server), { port, path: '/mcp' });
console.log(`greeter listening on ${url}`);

process.once('SIGINT', () => {
  void close().then(() => process.exit(0));
});
