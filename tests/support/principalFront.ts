/**
 * A gateway served over HTTP whose front names the caller from the `x-user` header, as
 * `protect()` would from a verified token (subject `user`, client `app`): how the host tests make
 * two principals without an authorization server. It verifies nothing; a request without the
 * header is anonymous.
 */
import type { McpGateway } from '@mcpkit/host/gateway';
import { type ServedHandler, serve } from '@mcpkit/node/http';

/** Serves `gateway` on 127.0.0.1, port 0, at `/mcp`; `close` ends the HTTP server only. */
export async function servedAsUsers(gateway: McpGateway): Promise<ServedHandler> {
  const handler = gateway.httpHandler();
  const front = (request: Request) => {
    const user = request.headers.get('x-user');
    if (!user) return handler(request);
    return handler.handle(request, {
      authInfo: { token: `t-${user}`, clientId: 'app', extra: { sub: user } },
    });
  };
  return serve(Object.assign(front, { close: () => handler.close() }), { port: 0, path: '/mcp' });
}
