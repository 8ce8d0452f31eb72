/**
 * An MCP server as a Cloudflare Worker (or any runtime whose entry is `export default { fetch }`),
 * stateless: every POST is served on its own, which is how a Worker must run it.
 *
 * Why stateless on Workers: a Worker's I/O belongs to the request that created it. A session's
 * standalone GET stream, its keep-alive timer and its later notifications would be written from
 * other requests' contexts, which workerd cancels ("the Worker's code had hung") or refuses. So:
 * no sessions, no GET stream (idle clients get no `list_changed`), no server-to-client requests
 * (sampling, elicitation, roots), no resumption. Progress and log messages during a call still
 * arrive, on that call's own SSE response.
 *
 * Deploy: `wrangler deploy examples/worker.ts` (with a wrangler.toml naming it as `main`).
 */
import { McpServer, text } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';

const server = new McpServer({ name: 'worker', version: '1.0.0' });

server.tool(
  'add',
  {
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    } as const,
  },
  async ({ a, b }, ctx) => {
    await ctx.progress(1, 1, 'adding');
    return text(String(a + b));
  },
);

const handler = createStreamableHttpHandler(server, {
  stateless: true,
  // The handler's shared keep-alive timer would run in one request's context and write to
  // another's stream; Cloudflare keeps a silent response open for 100 s anyway.
  keepAliveInterval: false,
  // Your Worker's public name (and the origins of pages that call it, with `cors`).
  allowedHosts: ['mcp-worker.example.workers.dev'],
});

// The handler takes one argument: the `env` and `ctx` Workers pass after the request are never read.
export default { fetch: handler };
