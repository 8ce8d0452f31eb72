/**
 * `@mcpkit/apps/sandbox`: the sandbox proxy page MCP Apps views render through, as a web handler
 * (`sandboxResponse`, any runtime) and as a Node server on a loopback origin of its own
 * (`serveSandbox`). See docs/apps.md.
 * @module
 */
export { SANDBOX_PROXY_HTML } from './sandbox/proxyPage.js';
export { sandboxResponse } from './sandbox/sandboxResponse.js';
export { type SandboxServer, type SandboxServerOptions, serveSandbox } from './sandbox/serveSandbox.js';
