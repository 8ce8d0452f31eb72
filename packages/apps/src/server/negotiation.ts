/**
 * The extension's negotiation on a server, installed once per server when its first app is
 * registered: the server announces `extensions["io.modelcontextprotocol/ui"]` (in `initialize`
 * for 2025 revisions, in `server/discover` for 2026-07-28), and a client that did not declare the
 * extension (its `initialize` capabilities under 2025, the request's own capabilities under
 * 2026-07-28: `ctx.scope.clientCapabilities` either way) sees plain tools: no `_meta.ui`, no
 * app-only tools (a call to one is refused as an unknown tool), no app resources in
 * `resources/list`. Nothing is installed on a server without apps. A gateway that passes other
 * servers' apps through uses the same pieces (`announceApps`, `withoutApps`).
 * @module
 */
import type { ListResourcesResult, ListToolsResult, Resource, Tool } from '@mcpkit/core';
import { hideTools, onList, type Server, type ServerMiddlewareContext } from '@mcpkit/server';
import { APP_MIME_TYPE, UI_EXTENSION } from '../shared/constants.js';
import { visibilityOf } from '../shared/meta.js';

/**
 * What a server's apps registered: the app-only tools (refused to clients without the extension).
 *
 * @example
 * ```ts
 * declare const registry: AppRegistry;
 * registry.appOnlyTools.has('refresh');
 * ```
 */
export interface AppRegistry {
  readonly appOnlyTools: Set<string>;
}

const registries = new WeakMap<Server, AppRegistry>();

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

/**
 * Whether the client that sent a request declared MCP Apps.
 *
 * @example
 * ```ts
 * server.use(onList((ctx, next) => (requestSupportsApps(ctx) ? next() : next().then((page) => withoutApps(ctx.method, page)))));
 * ```
 */
export function requestSupportsApps(ctx: ServerMiddlewareContext): boolean {
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

function isAppResource(resource: Resource): boolean {
  return resource.uri.startsWith('ui://') || resource.mimeType === APP_MIME_TYPE;
}

/**
 * A listing page as a client without the extension should see it: tools without `_meta.ui` and
 * without those only apps may call; resources without the `ui://` views. Other pages unchanged.
 *
 * @example
 * ```ts
 * withoutApps('tools/list', { tools: [{ name: 'a', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } }] }); // { tools: [] }
 * ```
 */
export function withoutApps<T>(method: string, page: T): T {
  if (method === 'tools/list') {
    const tools = (page as ListToolsResult).tools;
    const kept = tools.filter((tool) => visibilityOf(tool).includes('model')).map(plainTool);
    return { ...page, tools: kept };
  }
  if (method === 'resources/list') {
    const resources = (page as ListResourcesResult).resources;
    const kept = resources.filter((resource) => !isAppResource(resource));
    return kept.length === resources.length ? page : { ...page, resources: kept };
  }
  return page;
}

/**
 * Announces the extension in the server's capabilities (both revisions), and has listings seen
 * without apps by clients that did not declare it.
 *
 * @example
 * ```ts
 * announceApps(server);
 * ```
 */
export function announceApps(server: Server): void {
  server.provide({ extensions: { [UI_EXTENSION]: {} } }, {});
  server.use(
    onList(async (ctx, next) => (requestSupportsApps(ctx) ? next() : withoutApps(ctx.method, await next()))),
  );
}

/**
 * The server's app registry, installing the negotiation on first use.
 *
 * @example
 * ```ts
 * appRegistry(server).appOnlyTools.add('refresh');
 * ```
 */
export function appRegistry(server: Server): AppRegistry {
  let registry = registries.get(server);
  if (registry) return registry;
  registry = { appOnlyTools: new Set() };
  registries.set(server, registry);
  const { appOnlyTools } = registry;
  // Refused where an unknown tool is, before argument validation, so nothing reveals it.
  server.use(hideTools((name, ctx) => !appOnlyTools.has(name) || requestSupportsApps(ctx)));
  announceApps(server);
  return registry;
}
