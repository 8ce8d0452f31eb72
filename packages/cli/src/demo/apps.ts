/**
 * The demo's MCP App: `show_tally` (for the model and the view) opens a tally view; its button
 * calls `tally_add`, an app-only tool, back through the host. A client that does not declare the
 * extension sees `show_tally` as a plain tool and no `tally_add`.
 * @module
 */
import { registerApp } from '@mcpkit/apps/server';
import type { McpServer } from '@mcpkit/server';
import { TALLY_VIEW_HTML } from './tallyView.js';

/**
 * Registers the tally app on the demo server (one count per server, shared by its sessions).
 *
 * @example
 * ```ts
 * registerTallyApp(server);
 * ```
 */
export function registerTallyApp(server: McpServer): void {
  let count = 0;
  const result = () => ({
    content: [{ type: 'text' as const, text: `The tally is ${count}.` }],
    structuredContent: { count },
  });
  registerApp(server, {
    uri: 'ui://demo/tally',
    name: 'tally',
    title: 'Tally',
    description: 'A tally with a +1 button (an MCP App view)',
    html: TALLY_VIEW_HTML,
    prefersBorder: true,
    tools: {
      show_tally: {
        title: 'Show tally',
        description: 'Shows the tally; hosts with MCP Apps render it with a +1 button.',
        annotations: { readOnlyHint: true },
        handler: result,
      },
      tally_add: {
        title: 'Add to tally',
        description: 'Adds one to the tally (called by the tally view).',
        visibility: ['app'],
        handler: () => {
          count++;
          return result();
        },
      },
    },
  });
}
