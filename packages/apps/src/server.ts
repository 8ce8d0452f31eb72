/**
 * `@mcpkit/apps/server`: serve MCP Apps from an `McpServer`: `registerApp` for the common case,
 * `appResource` and `appTool` for the rest, and the extension's negotiation (installed by the
 * first of them). See docs/apps.md.
 * @module
 */
export { type AppHtmlReader, type AppResourceConfig, appResource } from './server/appResource.js';
export { type AppToolLink, appTool } from './server/appTool.js';
export {
  type AppRegistry,
  announceApps,
  appRegistry,
  clientSupportsApps,
  requestSupportsApps,
  withoutApps,
} from './server/negotiation.js';
export {
  type AppDefinition,
  type AppToolSpec,
  type RegisteredApp,
  registerApp,
} from './server/registerApp.js';
export { APP_MIME_TYPE, UI_EXTENSION } from './shared/constants.js';
export type { UiCsp, UiPermissions, UiResourceMeta, UiVisibility } from './shared/meta.js';
