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
import { namespacedUri } from './catalogue/names.js';

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
 * The app link of the catalogue tool `name` (tools as the host lists them, their view URIs in
 * catalogue form; `routes` from {@link linkViews}), or `undefined` for an unknown tool or one
 * without a view.
 *
 * @example
 * ```ts
 * const { tools, routes } = linkViews(await host.tools(), await host.resources());
 * const link = appLinkIn(tools, 'show_tally', routes);
 * ```
 */
export function appLinkIn(
  tools: readonly HostEntry<Tool>[],
  name: string,
  routes: ReadonlyMap<string, { server: string; original: string }>,
): HostAppLink | undefined {
  const tool = tools.find((entry) => entry.name === name);
  const link = tool ? appLinkOf(tool) : undefined;
  if (!tool || !link) return undefined;
  return {
    tool: tool.name,
    server: tool.server,
    resourceUri: link.resourceUri,
    serverResourceUri: routes.get(link.resourceUri)?.original ?? link.resourceUri,
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

/**
 * Tools whose app links name the view as the catalogue does: a `ui://` URI two servers serve (or
 * link to) becomes `ui://mcp-host/<server>/…` in the tool's `_meta.ui.resourceUri`, like the
 * resource itself; `routes` maps each catalogue view URI to its server, also for views a server
 * links to but does not list (the spec lets servers leave them out of `resources/list`).
 *
 * @example
 * ```ts
 * const { tools, routes } = linkViews(await host.tools(), await host.resources());
 * ```
 */
export function linkViews(
  tools: readonly HostEntry<Tool>[],
  resources: readonly HostEntry<Resource>[],
): { tools: HostEntry<Tool>[]; routes: Map<string, { server: string; original: string }> } {
  const owners = new Map<string, Set<string>>();
  const own = (uri: string, server: string) => owners.set(uri, (owners.get(uri) ?? new Set()).add(server));
  for (const resource of resources)
    if (resource.original.startsWith('ui://')) own(resource.original, resource.server);
  for (const tool of tools) {
    const link = appLinkOf(tool);
    if (link) own(link.resourceUri, tool.server);
  }
  const routes = new Map<string, { server: string; original: string }>();
  const linked = tools.map((tool) => {
    const link = appLinkOf(tool);
    if (!link) return tool;
    const uri =
      (owners.get(link.resourceUri)?.size ?? 0) > 1
        ? namespacedUri(tool.server, link.resourceUri)
        : link.resourceUri;
    routes.set(uri, { server: tool.server, original: link.resourceUri });
    if (uri === link.resourceUri) return tool;
    const meta = tool._meta as Record<string, unknown>;
    return {
      ...tool,
      _meta: { ...meta, ui: { ...(meta.ui as object), resourceUri: uri } },
    } as HostEntry<Tool>;
  });
  return { tools: linked, routes };
}
