// The test server as a Worker, configured as the README and examples/worker.ts tell Workers users:
// stateless, with keepAliveInterval: false. The handler is the entrypoint's `fetch`, passed directly.
import { createHandler } from '../app/mcp-server.mjs';

export default { fetch: createHandler('stateless', { keepAliveInterval: false }) };
