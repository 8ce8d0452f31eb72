/**
 * How a recorded request is sent again through an `McpClient` (or an `McpHost`, which answers the
 * same calls over its catalogue): `mcpkit replay`'s way, and the comparison of both revisions'. A
 * list follows every page.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import type { SendExchange } from './replaySession.js';

/**
 * What a replay calls: an `McpClient`'s calls, which an `McpHost` has too.
 *
 * @example
 * ```ts
 * const target: ExchangeClient = client; // or a host
 * ```
 */
export type ExchangeClient = Pick<
  McpClient,
  'callTool' | 'readResource' | 'getPrompt' | 'tools' | 'resources' | 'resourceTemplates' | 'prompts'
>;

/**
 * A {@link SendExchange} over a connected client, or a host (wrap it in `hostExchange` to replay a
 * host session).
 *
 * @example
 * ```ts
 * const report = await replaySession(session, clientExchange(client));
 * ```
 */
export function clientExchange(client: ExchangeClient, options: { signal?: AbortSignal } = {}): SendExchange {
  const request = options.signal ? { signal: options.signal } : {};
  return async (method, params) => {
    switch (method) {
      case 'tools/call':
        return client.callTool(String(params.name), params.arguments ?? {}, request);
      case 'resources/read':
        return client.readResource(String(params.uri), request);
      case 'prompts/get':
        return client.getPrompt(String(params.name), params.arguments ?? {}, request);
      case 'tools/list':
        return { tools: await client.tools() };
      case 'resources/list':
        return { resources: await client.resources() };
      case 'resources/templates/list':
        return { resourceTemplates: await client.resourceTemplates() };
      case 'prompts/list':
        return { prompts: await client.prompts() };
      default:
        throw new TypeError(`${method} cannot be replayed`);
    }
  };
}
