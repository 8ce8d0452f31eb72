// The test server as a Worker: each mode's handler is an entrypoint's `fetch`, passed directly.
import { createHandler } from '../app/mcp-server.mjs';

export default { fetch: createHandler('sse') };
export const json = { fetch: createHandler('json') };
export const stateless = { fetch: createHandler('stateless') };
