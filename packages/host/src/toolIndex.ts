/**
 * A server's tools by name, for the checks every call makes (is the tool offered, does it need
 * consent, does it require a task): indexed once per list the client caches, so a call looks its
 * tool up without a scan and, once the list is known, without waiting a turn of the event loop.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import type { Tool } from '@mcpkit/core';

/** One index per cached list: a list the client replaces (on `list_changed`) is indexed anew. */
const indexes = new WeakMap<Promise<Tool[]>, ReadonlyMap<string, Tool>>();

/**
 * The client's tools by name: the index itself when the client's cached list was indexed already,
 * otherwise a promise of it (listing the tools if the client has not yet).
 *
 * @example
 * ```ts
 * const index = toolsByName(client);
 * const tool = (index instanceof Promise ? await index : index).get('echo');
 * ```
 */
export function toolsByName(
  client: McpClient,
): ReadonlyMap<string, Tool> | Promise<ReadonlyMap<string, Tool>> {
  const list = client.tools();
  const known = indexes.get(list);
  if (known) return known;
  return list.then((tools) => {
    const index = new Map(tools.map((tool) => [tool.name, tool]));
    indexes.set(list, index);
    return index;
  });
}
