/**
 * `@mcpkit/apps`: MCP Apps (`io.modelcontextprotocol/ui`) names, metadata types and readers, and
 * the view CSP both sides agree on. The server side is `@mcpkit/apps/server`, the browser bridge
 * `@mcpkit/apps/bridge`, the Node helper that serves the sandbox proxy `@mcpkit/apps/sandbox`.
 * See docs/apps.md.
 * @module
 */

export { SANDBOX_PROXY_HTML } from './sandbox/proxyPage.js';
export { sandboxResponse } from './sandbox/sandboxResponse.js';
export {
  APP_MIME_TYPE,
  APP_PROTOCOL_VERSION,
  APPS_CLIENT_CAPABILITIES,
  SANDBOX_METHOD_PREFIX,
  UI_EXTENSION,
  UiMethod,
} from './shared/constants.js';
export { allowAttribute, checkedSources, contentSecurityPolicy, InvalidCspError } from './shared/csp.js';
export {
  appLinkOf,
  resourceUiMeta,
  type UiCsp,
  type UiPermissions,
  type UiResourceMeta,
  type UiToolMeta,
  type UiVisibility,
  visibilityOf,
} from './shared/meta.js';
