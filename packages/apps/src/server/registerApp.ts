/**
 * The common case in one call: an app's view and the tools that use it.
 * @module
 */
import type {
  McpServer,
  RegisteredResource,
  RegisteredTool,
  SchemaInput,
  ToolConfig,
  ToolHandler,
} from '@mcpkit/server';
import type { UiVisibility } from '../shared/meta.js';
import { type AppHtmlReader, type AppResourceConfig, appResource } from './appResource.js';
import { appTool } from './appTool.js';

/**
 * One tool of an app: its config, handler, and who may call it (default both the model and the
 * app; `['app']` for a helper only the view calls).
 *
 * @example
 * ```ts
 * const tick: AppToolSpec = { description: 'Next tick', visibility: ['app'], handler: () => 'tick' };
 * ```
 */
export interface AppToolSpec<In extends SchemaInput | undefined = any> extends ToolConfig<In> {
  visibility?: UiVisibility[];
  handler: ToolHandler<any, any>;
}

/**
 * An app: its `ui://` URI, its HTML, its resource's listing fields and UI metadata, and its tools
 * (each linked to the view).
 *
 * @example
 * ```ts
 * const counterHtml = '<!doctype html><html><body><button>+1</button></body></html>';
 * const app: AppDefinition = { uri: 'ui://counter/view', html: counterHtml, tools: { count: { handler: () => '1' } } };
 * ```
 */
export interface AppDefinition extends AppResourceConfig {
  uri: string;
  /** The view: a full HTML5 document, or a function that reads it. */
  html: string | AppHtmlReader;
  tools?: Record<string, AppToolSpec>;
}

/**
 * What {@link registerApp} registered, to update or remove later.
 *
 * @example
 * ```ts
 * declare const app: AppDefinition;
 * const { resource, tools } = registerApp(server, app);
 * tools.count?.disable();
 * ```
 */
export interface RegisteredApp {
  readonly resource: RegisteredResource;
  readonly tools: Readonly<Record<string, RegisteredTool>>;
}

/**
 * Registers an app: its view as a `ui://` resource (`text/html;profile=mcp-app`, `_meta.ui` on
 * the listing and the content) and its tools linked to it. Announces the extension; clients that
 * did not declare it get the tools plain (see `appRegistry`). The server needs the `resources` option.
 *
 * @throws {TypeError} for what {@link appResource} or {@link appTool} refuse.
 * @example
 * ```ts
 * import { McpServer, resourceSupport } from '@mcpkit/server';
 * import { registerApp } from '@mcpkit/apps/server';
 *
 * const server = new McpServer({ name: 'counter', version: '1.0.0' }, { resources: resourceSupport });
 * let count = 0;
 * registerApp(server, {
 *   uri: 'ui://counter/view',
 *   name: 'counter',
 *   html: '<!doctype html><html><body><button>+1</button></body></html>',
 *   prefersBorder: true,
 *   tools: {
 *     show_counter: { description: 'Shows the counter', handler: () => `count is ${count}` },
 *     increment: { description: 'Adds one', visibility: ['app'], handler: () => `count is ${++count}` },
 *   },
 * });
 * ```
 */
export function registerApp(server: McpServer, app: AppDefinition): RegisteredApp {
  const { uri, html, tools = {}, ...resourceConfig } = app;
  const read: AppHtmlReader = typeof html === 'string' ? () => html : html;
  const resource = appResource(server, uri, resourceConfig, read);
  const registered: Record<string, RegisteredTool> = {};
  for (const [name, spec] of Object.entries(tools)) {
    const { visibility, handler, ...config } = spec;
    const link = visibility === undefined ? { resourceUri: uri } : { resourceUri: uri, visibility };
    registered[name] = appTool(server, name, config as ToolConfig<SchemaInput | undefined>, link, handler);
  }
  return { resource, tools: registered };
}
