// The test server as a Worker, configured as the README and examples/worker.ts tell Workers users:
// stateless, with keepAliveInterval: false; once with SSE answers, once with JSON answers (entrypoint
// `json`, the mode whose handler watches request.signal). Each handler is an entrypoint's `fetch`.
import { createHandler } from '../app/mcp-server.mjs';

const WORKERS = { keepAliveInterval: false };

export default { fetch: createHandler('stateless', WORKERS) };
export const json = { fetch: createHandler('stateless', { ...WORKERS, enableJsonResponse: true }) };
