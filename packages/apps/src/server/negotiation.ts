/**
 * The extension's negotiation on a server, installed once per server when its first app is
 * registered: the server announces `extensions["io.modelcontextprotocol/ui"]` (in `initialize`
 * for 2025 revisions, in `server/discover` for 2026-07-28), and a client that did not declare the
 * extension (its `initialize` capabilities under 2025, the request's own capabilities under
 * 2026-07-28: `ctx.scope.clientCapabilities` either way) sees plain tools: no `_meta.ui`, no
 * app-only tools (a call to one is refused as an unknown tool), no app resources in
 * `resources/list`. Nothing is installed on a server without apps.
 * @module
 */
import type { ListResourcesResult, ListToolsResult, Tool } from '@mcpkit/core';
import { hideTools, type McpServer, onList, type ServerMiddlewareContext } from '@mcpkit/server';
import { APP_MIME_TYPE, UI_EXTENSION } from '../shared/constants.js';

/** What a server's apps registered: the app-only tools and the app resources. */
export interface AppRegistry {
  readonly appOnlyTools: Set<string>;
  readonly appResources: Set<string>;
}

const registries = new WeakMap<McpServer, AppRegistry>();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether client capabilities declare MCP Apps: `extensions["io.modelcontextprotocol/ui"]` is an
 * object whose `mimeTypes` (required by the spec, tolerated absent) include `text/html;profile=mcp-app`.
 *
 * @example
 * ```ts
 * clientSupportsApps({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }); // true
 * clientSupportsApps({}); // false
 * ```
 */
export function clientSupportsApps(capabilities: unknown): boolean {
  if (!isRecord(capabilities) || !isRecord(capabilities.extensions)) return false;
  const declared = capabilities.extensions[UI_EXTENSION];
  if (!isRecord(declared)) return false;
  return !Array.isArray(declared.mimeTypes) || declared.mimeTypes.includes(APP_MIME_TYPE);
}

function declares(ctx: ServerMiddlewareContext): boolean {
  return clientSupportsApps(ctx.scope?.clientCapabilities);
}

/** A tool as a client without the extension sees it: no UI keys in `_meta`. */
function plainTool(tool: Tool): Tool {
  const meta = tool._meta as Record<string, unknown> | undefined;
  if (!meta || (!('ui' in meta) && !('ui/resourceUri' in meta))) return tool;
  const { ui: _ui, 'ui/resourceUri': _legacy, ...rest } = meta;
  const { _meta: _old, ...plain } = tool;
  return Object.keys(rest).length > 0 ? { ...plain, _meta: rest as Tool['_meta'] } : plain;
}

/**
 * The server's app registry, installing the negotiation on first use.
 *
 * @example
 * ```ts
 * appRegistry(server).appOnlyTools.add('refresh');
 * ```
 */
export function appRegistry(server: McpServer): AppRegistry {
  let registry = registries.get(server);
  if (registry) return registry;
  registry = { appOnlyTools: new Set(), appResources: new Set() };
  registries.set(server, registry);
  const { appOnlyTools, appResources } = registry;
  server.provide({ extensions: { [UI_EXTENSION]: {} } }, {});
  server.use(hideTools((name, ctx) => !appOnlyTools.has(name) || declares(ctx)));
  server.use(
    onList(async (ctx, next) => {
      const page = await next();
      if (declares(ctx)) return page;
      if (ctx.method === 'tools/list') {
        const tools = (page as ListToolsResult).tools;
        return { ...page, tools: tools.map(plainTool) };
      }
      if (ctx.method === 'resources/list') {
        const resources = (page as ListResourcesResult).resources;
        const kept = resources.filter((resource) => !appResources.has(resource.uri));
        return kept.length === resources.length ? page : { ...page, resources: kept };
      }
      return page;
    }),
  );
  return registry;
}
