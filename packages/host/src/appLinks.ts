/**
 * MCP Apps through the host: which view a catalogue tool opens (its `_meta.ui.resourceUri`, as
 * the catalogue names that resource, so `host.readResource` reaches it on the right server) and
 * which tools a model may see (those whose visibility includes `"model"`). Meaningful when the
 * host declares the extension (`McpHostOptions.apps`).
 * @module
 */
import { appLinkOf, type UiVisibility, visibilityOf } from '@mcpkit/apps';
import type { Resource, Tool } from '@mcpkit/core';
import type { HostEntry } from './catalogue/catalogue.js';

/**
 * A tool's app link in the catalogue.
 *
 * @example
 * ```ts
 * const link: HostAppLink = { tool: 'tally__show', server: 'tally', resourceUri: 'ui://demo/tally', serverResourceUri: 'ui://demo/tally', visibility: ['model', 'app'] };
 * ```
 */
export interface HostAppLink {
  /** The tool's catalogue name. */
  readonly tool: string;
  /** The server that owns the tool and its view: a view may call only this server's tools. */
  readonly server: string;
  /** The view's URI in the catalogue (rewritten only when two servers share it). */
  readonly resourceUri: string;
  /** The view's URI on its server. */
  readonly serverResourceUri: string;
  readonly visibility: UiVisibility[];
}

/**
 * The app link of the catalogue tool `name`, or `undefined` for an unknown tool or one without a view.
 *
 * @example
 * ```ts
 * const link = appLinkIn(await host.tools(), await host.resources(), 'show_tally');
 * ```
 */
export function appLinkIn(
  tools: readonly HostEntry<Tool>[],
  resources: readonly HostEntry<Resource>[],
  name: string,
): HostAppLink | undefined {
  const tool = tools.find((entry) => entry.name === name);
  const link = tool ? appLinkOf(tool) : undefined;
  if (!tool || !link) return undefined;
  const listed = resources.find(
    (entry) => entry.server === tool.server && entry.original === link.resourceUri,
  );
  return {
    tool: tool.name,
    server: tool.server,
    resourceUri: listed?.uri ?? link.resourceUri,
    serverResourceUri: link.resourceUri,
    visibility: link.visibility,
  };
}

/**
 * The tools a model may see: those whose `_meta.ui.visibility` includes `"model"` (the default).
 *
 * @example
 * ```ts
 * const forModel = modelVisible(await host.tools());
 * ```
 */
export function modelVisible<T extends Tool>(tools: readonly T[]): T[] {
  return tools.filter((tool) => visibilityOf(tool).includes('model'));
}
