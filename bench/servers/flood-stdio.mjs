/**
 * A stdio upstream that floods: its `flood` tool sends `count` log messages to the caller as fast
 * as it can, then answers. The gateway-share scenario runs it beside a quiet echo upstream.
 * @module
 */
import { StdioServerTransport } from '@mcpkit/node/stdio';
import { McpServer } from '@mcpkit/server';

const server = new McpServer({ name: 'flood', version: '1.0.0' }, { capabilities: { logging: {} } });
server.tool(
  'flood',
  {
    description: 'Sends many log messages, then answers',
    inputSchema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
  },
  async ({ count }, ctx) => {
    const line = 'x'.repeat(200);
    for (let i = 0; i < count; i++) {
      ctx.sendLog('info', { i, line });
      // A turn of the loop now and then, so the writes drain as they would from a real server.
      if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve));
    }
    return `flooded ${count}`;
  },
);
server.connect(new StdioServerTransport());
