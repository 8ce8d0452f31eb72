/**
 * A JSON-RPC POST as the Streamable HTTP endpoint's raw view of a request, for tests that hand a
 * request to `StreamableHttpEndpoint.handle` without a socket.
 */
import type { RawHttpRequest } from '../../packages/server/src/http/rawHttp.js';

const encoder = new TextEncoder();

/** A POST of `body` (as JSON) to `http://127.0.0.1:3000/mcp` with the usual headers and `headers`. */
export function rawPost(body: unknown, headers: Record<string, string>): RawHttpRequest {
  const bytes = encoder.encode(JSON.stringify(body));
  const all = new Map(
    Object.entries({
      host: '127.0.0.1:3000',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    }),
  );
  return {
    method: 'POST',
    url: 'http://127.0.0.1:3000/mcp',
    header: (name) => all.get(name) ?? null,
    readBody: () => Promise.resolve(bytes),
    remoteAddress: '127.0.0.1',
    signal: { aborted: false, addEventListener() {}, removeEventListener() {} },
    toRequest: () => {
      throw new Error('not needed');
    },
  };
}
