/**
 * The implementations the harness compares. Everything per scenario is found by file name, so adding an
 * implementation's support for a scenario is adding one file:
 *
 *   drivers/<id>-inmemory.mjs   in-memory tools/call        export async function connect() → BenchSession
 *   drivers/<id>-stdio.mjs      stdio client side           export async function connect({ command, args, cwd })
 *   servers/<id>-stdio.mjs      stdio server script         (also the cold-start and stdio bundle entry)
 *   servers/<id>-http.mjs       Streamable HTTP server      (also the memory scenario and HTTP bundle entry)
 *   servers/<id>-http2026.mjs   the same for revision 2026-07-28 (the http-2026 rows; sdk: SDK v2)
 *
 * See bench/README.md for the exact contracts. `importEntry` and `install` are data, below.
 * @module
 */

/**
 * @typedef {object} Implementation
 * @property {string} id short name used in file names and on the command line
 * @property {'subject' | 'reference' | 'baseline' | 'variant'} role subject = measured against the others' numbers; a variant is shown beside them
 * @property {string} label
 * @property {string[]} [importEntry] modules whose import time is "the server entry point"
 * @property {{ npm?: string[], workspaces?: string[] }} [install] how to measure install footprint
 * @property {string[]} [requires] repo-relative files that must exist (e.g. built dist) for it to run
 */

/** @type {Implementation[]} */
export const IMPLEMENTATIONS = [
  {
    id: 'mcpkit',
    role: 'subject',
    label: 'mcpkit',
    importEntry: ['@mcpkit/server'],
    install: { workspaces: ['packages/core', 'packages/schema', 'packages/server'] },
    requires: [
      'packages/core/dist/index.js',
      'packages/server/dist/index.js',
      'packages/server/dist/http.js',
      'packages/client/dist/index.js',
      'packages/node/dist/stdio.js',
      'packages/node/dist/http.js',
      'packages/node/dist/httpClient.js',
    ],
  },
  {
    id: 'sdk',
    role: 'reference',
    label: '@modelcontextprotocol/sdk 1.32.2',
    importEntry: ['@modelcontextprotocol/sdk/server/mcp.js'],
    install: { npm: ['@modelcontextprotocol/sdk@1.32.2'] },
  },
  {
    // mcpkit behind `@mcpkit/host/gateway` (stdio rows only): target at least 0.5x mcpkit at 16 in flight.
    id: 'gateway',
    role: 'variant',
    label: 'mcpkit through the gateway (@mcpkit/host/gateway, stdio upstream)',
    requires: [
      'packages/host/dist/gateway.js',
      'packages/host/dist/node.js',
      'packages/node/dist/stdio.js',
      'packages/client/dist/index.js',
    ],
  },
  {
    id: 'bare',
    role: 'baseline',
    label: 'bare Node (newline-JSON pipe, node:http)',
  },
];
