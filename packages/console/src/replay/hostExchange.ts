/**
 * A host session replayed through a host: each exchange goes to the server it went to when it was
 * recorded (the host's policy included), under the name the host's catalogue gives it now. A
 * tool or prompt is called by its catalogue name, a resource is read at `mcp-host://SERVER/URI`
 * (`ui://mcp-host/SERVER/…` for a view), which always reaches that server, and a list is that
 * server's part of the catalogue under the server's own names, so it compares with the recording.
 * @module
 */
import { namespacedUri } from '@mcpkit/host';
import { LIST_METHODS } from './listMethods.js';
import type { SendExchange } from './replaySession.js';

/** A catalogue item: the host's name for it, its server, and the server's own name for it. */
type CatalogueItem = Record<string, unknown> & { readonly server: string; readonly original: string };

/**
 * The server of a host session no longer offers what an exchange names: the answer the host gives
 * a name its catalogue does not hold (`-32602`), so a replay reports it as a change.
 *
 * @example
 * ```ts
 * const error = new NotOfferedError('demo', 'echo'); // error.code === -32602
 * ```
 */
export class NotOfferedError extends Error {
  override name = 'NotOfferedError';
  readonly code = -32602;
  constructor(server: string, original: string) {
    super(`Server "${server}" offers no "${original}" now`);
  }
}

/**
 * A {@link SendExchange} for a host session: `send` speaks the host's catalogue (its names, its
 * namespaced URIs, lists whose items carry `server` and `original`, as `McpHost` and the console's
 * API against a host answer). An exchange without a server goes to `send` as it is. The catalogue's
 * names are read once per sender (one replay); a list is read afresh each time.
 *
 * @example
 * ```ts
 * const report = await replaySession(session, hostExchange(clientExchange(host)));
 * ```
 */
export function hostExchange(send: SendExchange): SendExchange {
  const names = new Map<string, Promise<CatalogueItem[]>>();
  const catalogueName = async (method: string, server: string, original: string) => {
    const listed = names.get(method) ?? catalogue(send, method);
    names.set(method, listed);
    const item = (await listed).find((entry) => entry.server === server && entry.original === original);
    if (!item) throw new NotOfferedError(server, original);
    return String(item[LIST_METHODS[method]![1]]);
  };
  return async (method, params, server) => {
    if (server === undefined) return send(method, params);
    switch (method) {
      case 'tools/call':
        return send(method, { ...params, name: await catalogueName('tools/list', server, params.name) });
      case 'prompts/get':
        return send(method, { ...params, name: await catalogueName('prompts/list', server, params.name) });
      case 'resources/read':
        return send(method, { ...params, uri: namespacedUri(server, String(params.uri)) });
    }
    const list = LIST_METHODS[method];
    if (!list) return send(method, params);
    const [key, nameField] = list;
    const items = (await catalogue(send, method)).filter((item) => item.server === server);
    return { [key]: items.map(({ server: _, original, ...item }) => ({ ...item, [nameField]: original })) };
  };
}

/** The host's whole list of one kind. */
async function catalogue(send: SendExchange, method: string): Promise<CatalogueItem[]> {
  const result = (await send(method, {})) as Record<string, unknown>;
  const items = result[LIST_METHODS[method]![0]];
  return Array.isArray(items) ? items : [];
}
