/**
 * A tool linked to an app: `_meta.ui.resourceUri` names its view, `_meta.ui.visibility` says
 * who may call it (`['model', 'app']` by default; `['app']` hides it from the model, which hosts
 * enforce, and from clients without the extension, which the server enforces).
 * @module
 */
import type {
  McpServer,
  RegisteredTool,
  SchemaInput,
  ToolArguments,
  ToolConfig,
  ToolHandler,
  ToolReturn,
} from '@mcpkit/server';
import type { UiVisibility } from '../shared/meta.js';
import { appRegistry } from './negotiation.js';

/**
 * Where a tool's results render and who may call it.
 *
 * @example
 * ```ts
 * const ui: AppToolLink = { resourceUri: 'ui://clock/view', visibility: ['app'] };
 * ```
 */
export interface AppToolLink {
  /** The view (`ui://…`); absent for an app-only helper tool with no view of its own. */
  resourceUri?: string;
  /** Default `['model', 'app']`. */
  visibility?: UiVisibility[];
}

/**
 * Registers a tool with its app link in `_meta.ui`; the rest is `server.tool()`.
 *
 * @throws {TypeError} for a `resourceUri` that is not `ui://…`, an empty or unknown visibility, a
 *   `_meta.ui` given as well, or what `server.tool()` refuses.
 * @example
 * ```ts
 * appTool(server, 'show_clock', { description: 'Shows a clock' }, { resourceUri: 'ui://clock/view' }, () => new Date().toISOString());
 * ```
 */
export function appTool<
  const In extends SchemaInput | undefined = undefined,
  const Out extends SchemaInput | undefined = undefined,
>(
  server: McpServer,
  name: string,
  config: ToolConfig<In, Out>,
  link: AppToolLink,
  handler: ToolHandler<ToolArguments<In>, ToolReturn<Out>>,
): RegisteredTool {
  const { resourceUri, visibility } = link;
  if (resourceUri !== undefined && !resourceUri.startsWith('ui://')) {
    throw new TypeError(`Tool "${name}": resourceUri must start with ui:// (got ${resourceUri})`);
  }
  if (visibility !== undefined) {
    if (visibility.length === 0 || visibility.some((entry) => entry !== 'model' && entry !== 'app')) {
      throw new TypeError(
        `Tool "${name}": visibility lists "model" and/or "app" (got ${JSON.stringify(visibility)})`,
      );
    }
  }
  if (config._meta && 'ui' in config._meta)
    throw new TypeError(`Tool "${name}": give the app link as link, not _meta.ui`);
  const ui: Record<string, unknown> = {};
  if (resourceUri !== undefined) ui.resourceUri = resourceUri;
  if (visibility !== undefined) ui.visibility = [...new Set(visibility)];
  const registry = appRegistry(server);
  const tool = server.tool(
    name,
    { ...config, _meta: { ...config._meta, ui } } as ToolConfig<In, Out>,
    handler,
  );
  if (visibility !== undefined && !visibility.includes('model')) registry.appOnlyTools.add(name);
  return tool;
}
